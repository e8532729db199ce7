//go:build !race

package jsonrpc_test

const raceEnabled = false
