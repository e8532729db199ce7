//go:build race

package jsonrpc_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// a test of allocations through a pool can only run without it.
const raceEnabled = true
