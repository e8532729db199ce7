package jsonrpc

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestInternIsBounded: a name seen before comes back as the same string,
// and once the table is full new names are still returned, only not kept.
func TestInternIsBounded(t *testing.T) {
	a, b := Intern([]byte("tools/call")), Intern([]byte("tools/call"))
	if a != "tools/call" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the same name was not interned to one string")
	}
	for i := range maxInterned + 10 {
		if got := Intern([]byte("made-up-" + strconv.Itoa(i))); got != "made-up-"+strconv.Itoa(i) {
			t.Fatalf("Intern returned %q", got)
		}
	}
	interned.RLock()
	n := len(interned.strings)
	interned.RUnlock()
	if n > maxInterned {
		t.Errorf("the table holds %d names, over its bound of %d", n, maxInterned)
	}
}
