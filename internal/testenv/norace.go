//go:build !race

package testenv

// RaceEnabled says the race detector is on (see race.go).
const RaceEnabled = false
