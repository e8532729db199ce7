// Package oplog keeps a service's operational log, and what it echoes of a
// peer's input, from costing the service more than the input did: strings
// are clipped to a bound before they are logged or echoed, and the log is
// written by a handler that never blocks its caller (see Async).
package oplog

import (
	"strconv"
	"unicode/utf8"
)

// MaxEcho is how much of a name a peer sent (a method, a tool, a URI) an
// error answer echoes: enough to recognise it, too little to make a
// one-megabyte method name a one-megabyte answer.
const MaxEcho = 256

// Clip returns s when it is at most max bytes long; otherwise its first
// max bytes (cut at a rune boundary) followed by how long it was:
// "abc… (1048576 bytes)". A clipped string is never mistaken for a whole
// one, and clipping never splits a UTF-8 sequence.
func Clip(s string, max int) string { return clip(s, max) }

// clip is Clip for a string or bytes: of bytes, only what is kept is
// copied.
func clip[T ~string | ~[]byte](s T, max int) string {
	if len(s) <= max {
		return string(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return string(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
