package jsonrpc

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// exactDecode is Decode without the fast reading: the reference the fast
// reading must agree with.
func exactDecode(data []byte) (Message, *Error) {
	var env envelope
	if err := env.read(data); err != nil {
		return Message{}, err
	}
	return env.message()
}

// fastSeeds are messages the fast reading settles and messages it must hand
// to the exact reading: duplicates at every depth (also spelled with
// escapes), escaped surrogates, invalid UTF-8, large objects, batches,
// scalars, trailing data.
var fastSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-01-01"}}}`,
	`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a\u0062<","method":"ping"}`,
	`{"jsonrpc":"2.0","id":"é","method":"ping"}`,
	`{"jsonrpc":"2.0","id":"\u2028","method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":7,"result":{"a":[1,{"b":2,"c":[{"d":null}]}]}}`,
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no","data":{"x":1}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":1,"a":2}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"b":1,"\u0062":2}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[{"k":1},{"k":1,"k":2}]}}`,
	`{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\ud800"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\ud83d\ude00"}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"s\":\"\xff\"}}",
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":1}} x`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"}]`,
	`"hello"`,
	`{"jsonrpc":"2.0","id":1.5,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"x"}`,
	`{"jsonrpc":"2.0","id":-0,"method":"x"}`,
	`{"jsonrpc":"2.0","id":null,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":[1,2]}`,
	`{"jsonrpc":"1.0","id":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":""}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","result":1}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":1,}}`,
	`{"jsonrpc":"2.0","id":01,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"\u0078"}`,
	` {"jsonrpc" : "2.0" , "id" : 1 , "method" : "x" } `,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":` + manyMembers(70, false) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":` + manyMembers(70, true) + `}`,
}

// manyMembers is an object of n members, the last a duplicate of the first
// when dup is set.
func manyMembers(n int, dup bool) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		name := string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		if dup && i == n-1 {
			name = "a"
		}
		b.WriteString(`"` + name + `":1`)
	}
	b.WriteByte('}')
	return b.String()
}

// TestFastReadingAgreesWithExact checks the seeds: whatever the fast reading
// settles, the exact reading settles the same way.
func TestFastReadingAgreesWithExact(t *testing.T) {
	settled := 0
	for _, s := range fastSeeds {
		if checkFastAgrees(t, []byte(s)) {
			settled++
		}
	}
	// The seeds hold both kinds; a fast reading that settles nothing (or
	// everything) has stopped doing its job.
	if settled == 0 || settled == len(fastSeeds) {
		t.Errorf("the fast reading settled %d of %d seeds", settled, len(fastSeeds))
	}
}

// FuzzFastReading is the same check over generated messages.
func FuzzFastReading(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkFastAgrees(t, data) })
}

// checkFastAgrees reports whether the fast reading settled data, failing t
// when it settled it differently from the exact reading.
func checkFastAgrees(t *testing.T, data []byte) bool {
	t.Helper()
	var fast envelope
	if !fast.readFast(data) {
		return false
	}
	var exact envelope
	if err := exact.read(data); err != nil {
		t.Errorf("the fast reading accepted what the exact reading refuses (%v):\n%q", err, data)
		return true
	}
	if !reflect.DeepEqual(fast, exact) {
		t.Errorf("the readings differ on %q:\nfast  %+v\nexact %+v", data, fast, exact)
	}
	fm, ferr := fast.message()
	em, eerr := exactDecode(data)
	if !reflect.DeepEqual(fm, em) || !reflect.DeepEqual(ferr, eerr) {
		t.Errorf("the messages differ on %q:\nfast  %+v %v\nexact %+v %v", data, fm, ferr, em, eerr)
	}
	return true
}

// BenchmarkDecode is the envelope of a typical tools/call, read the fast
// way and the exact way.
func BenchmarkDecode(b *testing.B) {
	msg := []byte(fastSeeds[0])
	b.Run("reading=fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reading=exact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := exactDecode(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

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
