package decode

import (
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// checkSkip holds the lexer to the strict scanner: one value skipped with
// nothing but whitespace after it is well formed exactly when
// textdec.Validate says so (invalid UTF-8 included), a repeated member
// name reported as such; and the lexer never reads outside data.
func checkSkip(t *testing.T, data []byte) {
	t.Helper()
	var l lexer
	l.reset(data)
	v, err := l.skip()
	if err == nil && (l.pos > len(data) || string(v) != string(data[l.pos-len(v):l.pos])) {
		t.Fatalf("skip(%q) returned %q, not the text it read", data, v)
	}
	l.skipSpace()
	whole := err == nil && l.pos == len(data)
	dup := errors.Is(err, errDuplicate) && l.pos <= len(data)
	switch verr := textdec.Validate(data); {
	case errors.Is(verr, textdec.ErrDuplicateName):
		if !dup && !whole {
			t.Errorf("skip(%q): %v, %d of %d read; Validate: %v", data, err, l.pos, len(data), verr)
		}
	case (verr == nil) != (whole || dup):
		t.Errorf("skip(%q): %v, %d of %d read; Validate: %v", data, err, l.pos, len(data), verr)
	}
}

// TestSkipReadsWhatTheStrictScannerAccepts: scalars the lexer reads
// itself (strings, numbers, literals) and containers it hands to the
// strict scanner, at the edges of the grammar.
func TestSkipReadsWhatTheStrictScannerAccepts(t *testing.T) {
	for _, text := range []string{
		`""`, `"a"`, `"a\"b"`, `"\\"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\x"`, "\"a\tb\"", `"abc`, `"a\`, `"`,
		`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5e3`, `1E+2`, `1e`, `1e-`, `-1.0e-10`, `+1`, `0x10`, `123456789012345678901234567890`,
		`true`, `false`, `null`, `tru`, `nul`, `True`, `truex`, `nullnull`,
		"\"\xff\"", "\"a\xc3\"", "\"\xe2\x80\xa8\"", "{\"\xff\":1}", "[\"\xc3\xa9\", \"\xc3\"]", "\xff",
		`{}`, `[]`, `{"a":1}`, `{"a":1,"a":2}`, `[1,2,]`, `{"a":}`, `[`, `{`, `{"a":[1,{"b":"}"}]}`, `[[[]]]`, `[[[`,
		` 1 `, `1 2`, ``, ` `, `}`, `]`, `,`,
	} {
		checkSkip(t, []byte(text))
	}
}

// FuzzSkip runs checkSkip on arbitrary bytes.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `-1.5e3`, `{"a":[1,"}",{"b":null}]}`, `{"a":1,"a":2}`, `"\ud800"`, `tru`, `[1,]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSkip)
}

// TestLocStringIsTheReferencePath: a location's path is the reference
// validator's, level by level, made in one allocation however deep.
func TestLocStringIsTheReferencePath(t *testing.T) {
	root := Field(nil, "debtor", "$.debtor")
	account := Field(&root, "account", "")
	legs := Field(&account, "legs", "")
	leg := Elem(&legs, 12)
	pan := Field(&leg, "pan", "")
	want := schema.PropertyPath(schema.IndexPath(schema.PropertyPath(schema.PropertyPath("$.debtor", "account"), "legs"), 12), "pan")
	if got := pan.String(); got != want {
		t.Errorf("%q, want %q", got, want)
	}
	for _, tc := range []struct {
		l    *Loc
		want string
	}{{nil, "$"}, {&root, "$.debtor"}, {&leg, "$.debtor.account.legs[12]"}} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = pan.String() }); n != 1 {
		t.Errorf("a path five levels deep cost %v allocations, want 1", n)
	}
}
