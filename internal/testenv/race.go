//go:build race

package testenv

// RaceEnabled says the race detector is on. It makes sync.Pool drop items
// at random, so a test of allocations through a pool runs only without it.
const RaceEnabled = true
