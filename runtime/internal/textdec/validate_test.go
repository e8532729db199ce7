package textdec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// Get is a strict jsontext decoder of data: an independent reading of RFC
// 8259, with duplicate names refused, that the tests hold this package to.
func Get(data []byte) *jsontext.Decoder { return jsontext.NewDecoder(bytes.NewReader(data)) }

// strictError is what a strict jsontext decoder says about data: nil or
// its error.
func strictError(data []byte) error {
	d := Get(data)
	if _, err := d.ReadValue(); err != nil {
		return err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		if err == nil {
			return errors.New("trailing data")
		}
		return err
	}
	return nil
}

// checkAgainstStrict holds Validate to the strict decoder on data: both
// accept it or both refuse it, and a repeated name is reported as the
// strict decoder reports it, with the same text.
func checkAgainstStrict(t *testing.T, data []byte) {
	t.Helper()
	want := strictError(data)
	got := Validate(data)
	if (got == nil) != (want == nil) {
		t.Fatalf("%.200q:\n Validate: %v\n   strict: %v", data, got, want)
	}
	if got == nil {
		return
	}
	var se *SyntaxError
	if !errors.As(got, &se) {
		t.Fatalf("%.200q: %T is not a *SyntaxError", data, got)
	}
	if se.Offset < 0 || se.Offset > len(data) {
		t.Errorf("%.200q: offset %d outside the text", data, se.Offset)
	}
	if errors.Is(got, ErrDuplicateName) {
		if !errors.Is(want, jsontext.ErrDuplicateName) {
			t.Fatalf("%.200q: Validate found a repeated name (%v), the strict decoder %v", data, got, want)
		}
		if w := strings.TrimPrefix(want.Error(), "jsontext: "); got.Error() != w {
			t.Errorf("%.200q:\n got %q\nwant %q", data, got, w)
		}
	}
}

// TestValidateAgreesWithAStrictDecoder: on texts built to sit on each
// rule's edge, Validate accepts exactly what a strict decoder accepts, and
// names a repeated member as it does.
func TestValidateAgreesWithAStrictDecoder(t *testing.T) {
	many := func(n int, last string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i) + ",")
		}
		b.WriteString(last + "}")
		return b.String()
	}
	texts := []string{
		// Repeated names, at every depth and around escapes.
		`{}`, `[]`, `"a"`, `1`, `{"a":1,"b":2}`,
		`{"a":1,"a":2}`,
		`{"a":1,"b":{"c":1,"c":2}}`,
		`{"a":1,"a":{"b":1,"b":2}}`,
		`{"a":{"b":1,"b":2},"a":1}`,
		`[{"x":1},{"y":[1,{"z":1,"q":2,"z":3}]}]`,
		`{"a\u0062":1,"ab":2}`,
		`{"a\"b":1,"a\"b":2}`,
		`{"\\":1,"\\":2}`,
		`{"a/b~c":{"d":1,"d":2}}`,
		`{"s":"{\"a\":1,\"a\":2}","t":[","]}`,
		`{"x":[1,2,3,{"k":1,"k":1}]}`,
		many(100, `"k0":0`),
		many(100, `"end":{"k5":1,"k5":2}`),
		many(100, `"k99x":0`),
		`{"o":` + many(50, `"k49":1`) + `,"o":1}`,
		`{"a":1,"b":` + many(20, `"n":1`) + `,"a":2}`,
		` { "a" : 1 , "b" : [ { "c" : 1 } , { "c" : 2 } ] } `,
		// Around the names' bits (nameBits): long names alike at both
		// ends, the same name spelled with an escape, and repeats deeper
		// than the depth whose bits are kept.
		`{"abcdefgh-1-stuvwxyz":1,"abcdefgh-2-stuvwxyz":2,"abcdefgh-1-stuvwxyz":3}`,
		`{"abcdefgh-1-stuvwxyz":1,"abcdefgh-2-stuvwxyz":2}`,
		`{"abcdefghij":1,"abcdefgh\u0069j":2}`, `{"a\u0062":1,"b":2,"ab":3}`, `{"abcdefg":1,"abcdefg ":2}`,
		// Numbers.
		`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-1.25e+10`, `+1`, `1ee2`, `0x10`, `[1,]`, `[-]`,
		// Literals and whitespace.
		`true`, `tru`, `truex`, `nul`, `null null`, " \t\r\n1\n", "\v1", "\u00a01", `[true,false,null]`, `NaN`, `[`, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a" 1}`, `{1:2}`, `{,}`, `{"a":1,}`, `[,1]`,
		// Strings: escapes, surrogates, control characters, UTF-8.
		`"\u0000"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\\"`, `"\ud800x"`, `"\uD83D\uDE00"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"\'"`, `"\/"`,
		"\"a\tb\"", "\"a\x7fb\"", "\"é\"", "\"\xff\"", "\"\xc3\"", "\"\xc3", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbf\"", "\"\xf4\x90\x80\x80\"",
		`"` + strings.Repeat("abcdefgh", 9) + `"`, `"` + strings.Repeat("abcdefg\"", 3), `"` + strings.Repeat("é", 30) + "\x01\"",
		// Depth.
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth),
		strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
	}
	for _, text := range texts {
		checkAgainstStrict(t, []byte(text))
	}
	// Repeats deeper than the depth whose names' bits are kept, and
	// none: found, or not, as the strict decoder finds them. (The
	// pointer of so deep a value is clipped otherwise than jsontext's.)
	for _, text := range []string{
		strings.Repeat(`{"a":`, 70) + `{"x":1,"x":2}` + strings.Repeat("}", 70),
		strings.Repeat(`{"a":`, 70) + `{"x":1,"y":2}` + strings.Repeat("}", 70),
		strings.Repeat(`[{"a":1,"b":`, 40) + `1,"a":2` + strings.Repeat("}]", 40),
		strings.Repeat(`[{"a":1,"b":`, 40) + `1,"c":2` + strings.Repeat("}]", 40),
	} {
		got, want := Validate([]byte(text)), strictError([]byte(text))
		if errors.Is(got, ErrDuplicateName) != errors.Is(want, jsontext.ErrDuplicateName) || (got == nil) != (want == nil) {
			t.Errorf("%.80q…:\n Validate: %v\n   strict: %v", text, got, want)
		}
	}
	// Each byte of a string, on its own, in every position of a word.
	for c := range 256 {
		for pad := range 9 {
			checkAgainstStrict(t, []byte(`"`+strings.Repeat("a", pad)+string(rune(c))[:1]+strings.Repeat("b", 9)+`"`))
			checkAgainstStrict(t, []byte(`"`+strings.Repeat("a", pad)+string([]byte{byte(c)})+strings.Repeat("b", 9)+`"`))
		}
	}
}

// TestValidateSaysWhere: an error names what was wrong, where, and the
// pointer of the value being read.
func TestValidateSaysWhere(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`{"a":[1,2,{"b":"x` + "\xff" + `"}]}`, `invalid UTF-8 within "/a/2/b" after offset 17`},
		{"{\"a\":{\"\xc3\":1}}", `invalid UTF-8 within "/a" after offset 7`},
		{`{"a":1,}`, `invalid character '}' at start of object member name (expecting '"') after offset 7`},
		{`{"a":1 "b":2}`, `invalid character '"' after object value (expecting ',' or '}') within "/a" after offset 7`},
		{`[1 2]`, `invalid character '2' after array element (expecting ',' or ']') within "/0" after offset 3`},
		{`{"x":"\ud800"}`, "invalid surrogate `\\ud800` in string (a high surrogate with no low one) within \"/x\" after offset 6"},
		{`{"a/b~":[01]}`, `invalid character '1' after array element (expecting ',' or ']') within "/a~1b~0/0" after offset 10`},
		{`{"a":{"b":1,"b":2}}`, `duplicate object member name "b" within "/a"`},
		{`{"a":[1`, `unexpected EOF within "/a/0"`},
		{`{} x`, `unexpected data after the JSON value after offset 3`},
	} {
		got := Validate([]byte(tc.text))
		if got == nil || got.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.text, got, tc.want)
		}
	}
	// A deep text's pointer keeps its first and last tokens.
	deep := strings.Repeat("[", MaxDepth+1)
	err := Validate([]byte(deep))
	want := `exceeded max depth within "` + strings.Repeat("/0", 20) + "/…" + strings.Repeat("/0", 20) + `" after offset 10000`
	if err == nil || err.Error() != want {
		t.Errorf("too deep:\n got %v\nwant %s", err, want)
	}
}

// TestValidateKeepsLittle: a hundred thousand short names are checked for
// repeats in under twice the text's size, where a strict decoder kept over
// a hundred bytes per name.
func TestValidateKeepsLittle(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"o":{`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strconv.FormatInt(int64(i), 36) + `":0`)
	}
	b.WriteString(`}}`)
	data := []byte(b.String())
	if allocs := testing.AllocsPerRun(3, func() {
		if err := Validate(data); err != nil {
			t.Fatal(err)
		}
	}); allocs > 30 {
		t.Errorf("%v allocations to validate %d bytes", allocs, len(data))
	}
	if testenv.RaceEnabled {
		return
	}
	small := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":"c"}]}}}`)
	if allocs := testing.AllocsPerRun(100, func() { _ = Validate(small) }); allocs != 0 {
		t.Errorf("validating a small message allocated %v times", allocs)
	}
}

// checkValidateMembers holds the members ValidateSplit keeps of the
// outermost object (outerMembers) to Validate's verdict and, on
// an object it accepts, to the members EachMember hands; on anything else
// it adds none.
func checkValidateMembers(t *testing.T, data []byte) {
	t.Helper()
	prefix := []Member{{Name: []byte(`"kept"`)}}
	got, err := outerMembers(data, prefix[:1:1])
	want := Validate(data)
	if fmt.Sprint(err) != fmt.Sprint(want) {
		t.Fatalf("%q: ValidateSplit says %v, Validate %v", data, err, want)
	}
	if len(got) == 0 || string(got[0].Name) != `"kept"` {
		t.Fatalf("%q: what dst held is gone: %s", data, showMembers(got))
	}
	got = got[1:]
	var each []Member
	if err == nil && Kind(data) == '{' {
		EachMember(data, func(m Member) { each = append(each, member(m.Name, m.Value)) })
	}
	if showMembers(got) != showMembers(each) {
		t.Fatalf("%q:\n ValidateSplit %s\n EachMember    %s", data, showMembers(got), showMembers(each))
	}
	// The inner object ValidateSplit splits: the first member's value,
	// whatever it is, and a member the text may not have.
	if len(got) > 0 {
		checkValidateSplit(t, data, string(got[0].Name))
	}
	checkValidateSplit(t, data, `"params"`)
}

// outerMembers is ValidateSplit with no inner name: the outermost
// object's members appended to dst.
func outerMembers(data []byte, dst []Member) ([]Member, error) {
	dst, _, _, err := ValidateSplit(data, dst, "", nil)
	return dst, err
}

// member is the Member a scanner keeps of a name and value as EachMember
// hands them: Escaped when the name holds a backslash.
func member(name, value []byte) Member {
	return Member{Name: name, Value: value, Escaped: bytes.IndexByte(name, '\\') >= 0}
}

// showMembers prints members for a comparison: name and value quoted,
// and an escaped name marked.
func showMembers(ms []Member) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%q:%q", m.Name, m.Value)
		if m.Escaped {
			b.WriteString("(escaped)")
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// checkValidateSplit holds ValidateSplit to the outer members it keeps
// with no inner name (outerMembers) and, when the
// member written name has an object value of at most MaxInner members, to
// the members EachMember hands of it; otherwise it finds nothing and adds
// nothing.
func checkValidateSplit(t *testing.T, data []byte, name string) {
	t.Helper()
	prefix := []Member{{Name: []byte(`"kept"`)}}
	members, inner, found, err := ValidateSplit(data, nil, name, prefix[:1:1])
	wantMembers, wantErr := outerMembers(data, nil)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || showMembers(members) != showMembers(wantMembers) {
		t.Fatalf("%q, %s: ValidateSplit %s, %v; with no inner name %s, %v", data, name, showMembers(members), err, showMembers(wantMembers), wantErr)
	}
	if len(inner) == 0 || string(inner[0].Name) != `"kept"` {
		t.Fatalf("%q, %s: what inner held is gone: %s", data, name, showMembers(inner))
	}
	inner = inner[1:]
	var value []byte
	for _, m := range wantMembers {
		if string(m.Name) == name {
			value = m.Value
		}
	}
	var each []Member
	if wantErr == nil && Kind(value) == '{' {
		EachMember(value, func(m Member) { each = append(each, member(m.Name, m.Value)) })
	}
	if want := wantErr == nil && Kind(value) == '{' && len(each) <= MaxInner; found != want {
		t.Fatalf("%q, %s: found %v, want %v (%d members)", data, name, found, want, len(each))
	}
	if !found {
		each = nil
	}
	if showMembers(inner) != showMembers(each) {
		t.Fatalf("%q, %s:\n ValidateSplit %s\n EachMember    %s", data, name, showMembers(inner), showMembers(each))
	}
}

// TestValidateSplit splits a message's params, and finds nothing where
// there is no object to split or too many members in it.
func TestValidateSplit(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"params":{`)
	for i := range MaxInner + 1 {
		if i > 0 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, `"k%d":{"x":%d}`, i, i)
	}
	many.WriteString(`},"id":1}`)
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":[1,{"r":2}],"n":null}}}`,
		`{"params":{}}`, ` { "params" : { "a" : [ {"b":1} ] , "c":"d" } , "e" : {"f":1} } `,
		`{"params":[{"a":1}]}`, `{"params":"s"}`, `{"p\u0061rams":{"a":1}}`, `{"a":{"params":{"b":1}}}`,
		`{"params":{"a":{"b":{"c":1}},"d":2},"x":{"y":3}}`, `{"params":{"a":1,"a":2}}`, `{"params":{"a":1}`,
		many.String(),
	} {
		checkValidateMembers(t, []byte(in))
	}
	members, inner, found, err := ValidateSplit([]byte(`{"id":1,"params":{"name":"x","arguments":{"a":1}}}`), nil, `"params"`, nil)
	if err != nil || !found || len(members) != 2 || len(inner) != 2 ||
		string(inner[0].Name) != `"name"` || string(inner[0].Value) != `"x"` ||
		string(inner[1].Name) != `"arguments"` || string(inner[1].Value) != `{"a":1}` {
		t.Errorf("a message's params: %s, %s, %v, %v", showMembers(members), showMembers(inner), found, err)
	}
	if _, _, found, _ := ValidateSplit([]byte(many.String()), nil, `"params"`, nil); found {
		t.Errorf("params of %d members split; at most %d are", MaxInner+1, MaxInner)
	}
}

// TestValidateMembers reads objects of every shape of member value, with
// whitespace around each token, and texts that are not objects or not
// JSON.
func TestValidateMembers(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":1}`, "{ \"a\" :\t1 ,\n\"b\": \"x\" } ",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":[1,{"r":2}],"n":null}}}`,
		`{"\u0061":true,"b":false,"c":[],"d":{},"e":[[]],"f":-1.5e3}`,
		`[{"a":1}]`, `"s"`, `12`, `{"a":1,"a":2}`, `{"a":1`, `{"a":{"b":1}`, `{"a":1} x`, `{"a" 1}`,
	} {
		checkValidateMembers(t, []byte(in))
	}
}

// checkMembers holds EachMember to a jsontext decoder on an object text
// Validate accepted: the same names (as UnquotedName reads them), in
// order, and the same values.
func checkMembers(t *testing.T, obj []byte) {
	t.Helper()
	type member struct{ name, value string }
	var got, want []member
	EachMember(obj, func(m Member) {
		n := m.UnquotedName(nil)
		if escaped := bytes.IndexByte(m.Name, '\\') >= 0; m.Escaped != escaped {
			t.Errorf("%q: name %q: Escaped %v", obj, m.Name, m.Escaped)
		}
		got = append(got, member{string(n), string(m.Value)})
	})
	d := Get(obj)
	if _, err := d.ReadToken(); err != nil {
		t.Fatal(err)
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		n := name.String()
		value, err := d.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, member{n, string(value)})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%q:\n EachMember %q\n   jsontext %q", obj, got, want)
	}
}

// TestEachMember splits objects as a decoder reads them.
func TestEachMember(t *testing.T) {
	for _, text := range []string{`{}`, ` { } `, `{"a":1}`, `{"a" : -1.5e3 , "b":[1,{"c":"}"}],"c\"d":"x\\","e":{"f":[]},"g":true,"h":null}`, `{"\u0061":"\"","b":"é"}`,
		`{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilit\u0069es":{},"a long name, some forty bytes, with \\ at its end\\":1}`} {
		checkMembers(t, []byte(text))
	}
}

// checkCompact holds AppendCompact to encoding/json's Compact on text
// Validate accepted.
func checkCompact(t *testing.T, data []byte) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Compact(&want, data); err != nil {
		t.Fatalf("%q: Validate accepted what json.Compact refuses: %v", data, err)
	}
	prefix := []byte("x")
	if got := AppendCompact(prefix, data); string(got[1:]) != want.String() || got[0] != 'x' {
		t.Errorf("AppendCompact(%q) = %q; want %q", data, got[1:], want.String())
	}
}

// TestAppendCompact removes whitespace between tokens, never within a
// string, escaped quotes and backslashes included.
func TestAppendCompact(t *testing.T) {
	for _, text := range []string{`{}`, ` { } `, "{\n\t\"a\" : [ 1 ,\r\n 2 ] }", `{"a b":" c ","d\\":"\" e \\"," f":{ "g" :[ true , null ] } }`,
		`"  "`, ` 1 `, `[ "\\\" x" , " y \\" ]`, `{"` + strings.Repeat("long string ", 10) + `" : 1}`,
		// Compact already (copied whole), or with a space only in a string.
		`{"abcdefghij":[1,2,{"k":"vvvvvvvvvvvvvv"}],"x":null}`, `{"a":"x y"}`, `["\u0020",true]`, `{"a":1}` + "\n"} {
		checkCompact(t, []byte(text))
	}
}

// TestAppendUnquote reads string literals as Validate accepts them, and
// refuses those it refuses.
func TestAppendUnquote(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`"abc"`, "abc", true},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", true},
		{`"\u00e9\ud83d\ude00"`, "é😀", true},
		{`"\ud800"`, "", false},
		{`"\udc00\ud800"`, "", false},
		{`"a"b"`, "", false},
		{"\"\x01\"", "", false},
		{"\"\xff\"", "", false},
		{`"\x"`, "", false},
		{`abc`, "", false},
	} {
		got, ok := AppendUnquote(nil, []byte(tc.in))
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if (Validate([]byte(tc.in)) == nil) != tc.ok {
			t.Errorf("%s: Validate and AppendUnquote disagree", tc.in)
		}
	}
}

// FuzzValidate holds Validate to the strict decoder on any input, and
// AppendUnquote to it on any string Validate accepts.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2},"a":1}`, `[{"\u0061":1,"a":1}]`, `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k3":9}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"\ud83d\ude00 é","n":-1.5e3}}}`, "\"\xe2\x82\"", `[1,[2,[3]],{"":null}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstStrict(t, data)
		checkValidateMembers(t, data)
		if Validate(data) == nil && Kind(data) == '{' {
			checkMembers(t, data)
		}
		if Validate(data) == nil {
			checkCompact(t, data)
		}
		if len(data) > 0 && data[0] == '"' && Validate(data) == nil {
			got, ok := AppendUnquote(nil, bytes.TrimRight(data, " \t\r\n"))
			var want string
			d := Get(data)
			tok, err := d.ReadToken()
			if err == nil {
				want = tok.String()
			}
			if !ok || string(got) != want || !utf8.Valid(got) {
				t.Errorf("AppendUnquote(%q) = %q, %v; want %q", data, got, ok, want)
			}
		}
	})
}

// BenchmarkValidate reads a typical tools/call and one of 2 KB (long
// strings with non-ASCII text, an array of objects), side by side with a
// strict jsontext decoder reading the same text: the anchor Validate
// replaced on the server's path.
func BenchmarkValidate(b *testing.B) {
	large := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"payments.search","arguments":{"q":"` +
		strings.Repeat("abcdé fgh ", 100) + `","items":[` +
		strings.TrimSuffix(strings.Repeat(`{"a":1,"b":[true,false,null],"c":"x"},`, 30), ",") + `]}}}`
	typical := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","include_legs":true}}}`
	for _, tc := range []struct{ name, msg string }{{"typical", typical}, {"2KB", large}} {
		msg := []byte(tc.msg)
		for _, r := range []struct {
			name string
			read func([]byte) error
		}{{"Validate", Validate}, {"jsontext", strictError}} {
			b.Run("message="+tc.name+"/reader="+r.name, func(b *testing.B) {
				b.SetBytes(int64(len(msg)))
				b.ReportAllocs()
				for b.Loop() {
					if err := r.read(msg); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzQuote holds AppendQuote to jsontext's on any string, and checks
// that Validate accepts what it writes; and AppendQuoteAsSlog to the
// string log/slog's JSON handler writes.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\s/", "\b\f\n\r\t\x00\x1f\x7f", "é😀", "\xff\xc3(", "\u2028\u2029<>&",
		// Longer than a word, with specials at every offset of one.
		"0123456789abcdef\"0123456\\012345\n01234é0123\x000123456789abcdef\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendQuote(nil, s)
		want, _ := jsontext.AppendQuote(nil, s)
		if !bytes.Equal(got, want) {
			t.Errorf("AppendQuote(%q) = %s, jsontext writes %s", s, got, want)
		}
		if err := Validate(got); err != nil {
			t.Errorf("AppendQuote(%q) = %s, which Validate refuses: %v", s, got, err)
		}
		var line bytes.Buffer
		h := slog.NewJSONHandler(&line, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key != slog.MessageKey {
				return slog.Attr{}
			}
			return a
		}})
		if err := h.Handle(context.Background(), slog.NewRecord(time.Time{}, slog.LevelInfo, s, 0)); err != nil {
			t.Fatal(err)
		}
		slogs := bytes.TrimSuffix(bytes.TrimPrefix(line.Bytes(), []byte(`{"msg":`)), []byte("}\n"))
		if got := AppendQuoteAsSlog(nil, s); !bytes.Equal(got, slogs) {
			t.Errorf("AppendQuoteAsSlog(%q) = %s, slog writes %s", s, got, slogs)
		}
	})
}

// TestNameBitsOfEqualNames: a name's bits do not depend on where it lies
// (how much input follows it, which decides how it is read), and two
// repeated short names at the very end of a text are found.
func TestNameBitsOfEqualNames(t *testing.T) {
	for _, name := range []string{"", "a", "ab", "abcdefg", "abcdefgh", "abcdefghijklmnop", "é", "x\x7f"} {
		want := nameBits([]byte(name), false)
		for pad := 0; pad <= 12; pad++ {
			buf := append([]byte(name), bytes.Repeat([]byte{'"'}, pad)...)
			if got := nameBits(buf[:len(name)], false); got != want {
				t.Errorf("%q with %d bytes after it: bits %#x, want %#x", name, pad, got, want)
			}
		}
	}
	for _, text := range []string{`{"a":1,"a":2}`, `{"ab":1,"ab":2}`, `{"abcdefg":1,"abcdefg":2}`} {
		if err := Validate([]byte(text)); !errors.Is(err, ErrDuplicateName) {
			t.Errorf("Validate(%s) = %v, want a repeated name", text, err)
		}
	}
}

// TestHasSpace holds hasSpace, which reads words, to a byte-at-a-time
// search for a byte below 0x21, on random texts with such a byte, if any,
// at every offset.
func TestHasSpace(t *testing.T) {
	pool := []byte{'a', '"', '{', 0x21, 0x22, 0x7e, 0x80, 0xff}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100_000 {
		data := make([]byte, rng.IntN(40))
		for i := range data {
			data[i] = pool[rng.IntN(len(pool))]
		}
		if len(data) > 0 && rng.IntN(2) == 0 {
			data[rng.IntN(len(data))] = []byte{' ', '\t', '\n', '\r', 0x20}[rng.IntN(5)]
		}
		want := bytes.ContainsFunc(data, func(r rune) bool { return r < 0x21 })
		if got := hasSpace(data); got != want {
			t.Fatalf("hasSpace(%q) = %v", data, got)
		}
	}
}
