// Package reliability holds the tests that treat an mcpgen server the way a
// bank treats a server in front of systems that move money: bad input,
// faults, load and probing, each with the exact answer expected and the
// server still serving afterwards. The tests drive the bank's generated
// package (examples/bankpayments/bank) through the same transports a
// client uses.
//
// Every test records what it tried, how many inputs or calls it made and
// what held; the figures of a full run are kept in
// testdata/figures.json, and docs/reliability.md is rendered from them:
//
//	go test ./reliability -update
//
// A full run of the package (make test) fails when its measured figures
// differ from the committed ones, and when the committed document is not
// the rendering of the committed figures, so neither can drift from what
// the tests measure.
package reliability
