//go:build race

package decode

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// a test of allocations through the Reader pool can only run without it.
const raceEnabled = true
