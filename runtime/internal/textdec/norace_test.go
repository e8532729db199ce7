//go:build !race

package textdec

const raceEnabled = false
