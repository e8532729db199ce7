// Package buildlist holds no code: its test checks that the main module's
// requirements are the ones the README lists, and that each one listed as
// needed at run time is imported by the module's non-test code, so that a
// module requiring mcpgen gets no more than the README says.
package buildlist
