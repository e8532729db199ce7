package jsonrpc

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestInternKeepsOnlyRegisteredNames: a registered name comes back as the
// one registered string, even after a peer sent many made-up names; a
// made-up name comes back as itself and is never kept.
func TestInternKeepsOnlyRegisteredNames(t *testing.T) {
	RegisterNames("test/registered")
	before := len(*registered.Load())
	for i := range 5000 {
		name := "made-up-" + strconv.Itoa(i)
		if got := Intern([]byte(name)); got != name {
			t.Fatalf("Intern returned %q for %q", got, name)
		}
		if _, ok := Lookup([]byte(name)); ok {
			t.Fatalf("%q was kept", name)
		}
	}
	if n := len(*registered.Load()); n != before {
		t.Errorf("the table grew from %d to %d names with made-up ones", before, n)
	}
	a, b := Intern([]byte("test/registered")), Intern([]byte("test/registered"))
	if a != "test/registered" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("a registered name was not interned to one string after the made-up ones")
	}
	if s, ok := Lookup([]byte("method")); !ok || s != "method" {
		t.Error("the envelope's member names are not registered")
	}
}
