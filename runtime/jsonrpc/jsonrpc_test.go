package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

func TestDecodeRequest(t *testing.T) {
	m, err := jsonrpc.Decode([]byte(` {"method":"tools/call","params":{"name":"x"},"id":7,"jsonrpc":"2.0"} `))
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsRequest() || m.IsNotification() || m.IsResponse() {
		t.Errorf("kind: request=%v notification=%v response=%v", m.IsRequest(), m.IsNotification(), m.IsResponse())
	}
	if m.Method != "tools/call" || string(m.Params) != `{"name":"x"}` || m.ID.String() != "7" {
		t.Errorf("got method %q params %s id %s", m.Method, m.Params, m.ID)
	}
	if n, ok := m.ID.Int(); !ok || n != 7 {
		t.Errorf("Int() = %d, %v", n, ok)
	}
}

func TestDecodeNotification(t *testing.T) {
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsNotification() || !m.ID.IsZero() || m.Params != nil {
		t.Errorf("got %+v", m)
	}
}

func TestStringIDsAreCanonical(t *testing.T) {
	a, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"a\u0062<","method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != jsonrpc.StringID("ab<") || a.ID.String() != `"ab<"` {
		t.Errorf("id = %s", a.ID)
	}
	if s, ok := a.ID.Str(); !ok || s != "ab<" {
		t.Errorf("Str() = %q, %v", s, ok)
	}
	if jsonrpc.StringID("7") == jsonrpc.IntID(7) {
		t.Error(`"7" and 7 must be different ids`)
	}
}

func TestBigIntegerIDIsKeptExactly(t *testing.T) {
	const big = "123456789012345678901234567890"
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":` + big + `,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jsonrpc.EncodeResult(m.ID, nil)
	if want := `{"jsonrpc":"2.0","id":` + big + `,"result":{}}`; string(out) != want {
		t.Errorf("got %s", out)
	}
}

// Every way an envelope can be wrong, with the code and the id it is
// answered under.
func TestDecodeEnvelopeErrors(t *testing.T) {
	cases := []struct {
		name, in string
		code     int
		id       string // the id the error must be answered under
		message  string // a fragment of the message
	}{
		{"not json", `{"jsonrpc":`, jsonrpc.CodeParseError, "null", "parse error"},
		{"empty", ``, jsonrpc.CodeParseError, "null", "unexpected end of input"},
		{"garbage", `hello`, jsonrpc.CodeParseError, "null", "parse error"},
		{"trailing data", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, jsonrpc.CodeParseError, "null", "after the JSON value"},
		{"invalid utf-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", jsonrpc.CodeParseError, "null", "UTF-8"},
		{"lone surrogate", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\ud800"}}`, jsonrpc.CodeParseError, "null", "surrogate"},
		{"duplicate top-level key", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}`, jsonrpc.CodeParseError, "null", "duplicate"},
		{"duplicate nested key", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"b":1,"b":2}}}`, jsonrpc.CodeParseError, "null", "duplicate"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null", "batch"},
		{"broken batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}`, jsonrpc.CodeParseError, "null", "parse error"},
		{"string message", `"ping"`, jsonrpc.CodeInvalidRequest, "null", "JSON object"},
		{"null message", `null`, jsonrpc.CodeInvalidRequest, "null", "JSON object"},
		{"missing jsonrpc", `{"id":1,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "1", "jsonrpc"},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, `"a"`, "jsonrpc"},
		{"numeric jsonrpc", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "1", "jsonrpc"},
		{"no method", `{"jsonrpc":"2.0","id":1}`, jsonrpc.CodeInvalidRequest, "1", "method"},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, jsonrpc.CodeInvalidRequest, "1", "method"},
		{"numeric method", `{"jsonrpc":"2.0","id":1,"method":5}`, jsonrpc.CodeInvalidRequest, "1", "method"},
		{"case-folded member", `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, jsonrpc.CodeInvalidRequest, "1", "method"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"integral float id", `{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"bad id and bad version", `{"jsonrpc":"1.0","id":1.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null", "jsonrpc"},
		{"array params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`, jsonrpc.CodeInvalidRequest, "1", "params"},
		{"null params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, jsonrpc.CodeInvalidRequest, "1", "params"},
		{"string params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, jsonrpc.CodeInvalidRequest, "1", "params"},
		{"request with result", `{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`, jsonrpc.CodeInvalidRequest, "1", "both"},
		{"response with both", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, jsonrpc.CodeInvalidRequest, "1", "exactly one"},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"result with null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, jsonrpc.CodeInvalidRequest, "null", "id"},
		{"malformed error object", `{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}`, jsonrpc.CodeInvalidRequest, "1", "error"},
		{"fractional error code", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`, jsonrpc.CodeInvalidRequest, "1", "error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonrpc.Decode([]byte(c.in))
			if err == nil {
				t.Fatalf("accepted: %+v", m)
			}
			if err.Code != c.code {
				t.Errorf("code %d, want %d (%s)", err.Code, c.code, err.Message)
			}
			if m.ID.String() != c.id {
				t.Errorf("answered under id %s, want %s", m.ID, c.id)
			}
			if !strings.Contains(err.Message, c.message) {
				t.Errorf("message %q lacks %q", err.Message, c.message)
			}
		})
	}
}

func TestDecodeResponses(t *testing.T) {
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"r","result":{"ok":true}}`))
	if err != nil || !m.IsResponse() || string(m.Result) != `{"ok":true}` || m.Error != nil {
		t.Fatalf("result response: %+v %v", m, err)
	}
	m, err = jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error","data":{"x":[1]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsResponse() || m.Error == nil || m.Error.Code != -32700 || m.Error.Message != "parse error" {
		t.Fatalf("error response: %+v", m)
	}
	data, _ := m.Error.DataJSON()
	if string(data) != `{"x":[1]}` {
		t.Errorf("data = %s", data)
	}
}

func TestEncodeRoundTrips(t *testing.T) {
	req, err := jsonrpc.EncodeRequest(jsonrpc.IntID(3), "tools/list", map[string]any{"b": 1, "a": "<x>"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"a":"<x>","b":1}}`; string(req) != want {
		t.Errorf("request:\n got %s\nwant %s", req, want)
	}
	note, _ := jsonrpc.EncodeNotification("notifications/initialized", nil)
	if want := `{"jsonrpc":"2.0","method":"notifications/initialized"}`; string(note) != want {
		t.Errorf("notification: %s", note)
	}
	e := jsonrpc.EncodeError(jsonrpc.StringID("q"), &jsonrpc.Error{Code: -32602, Message: `bad "x"`, Data: map[string]any{"errors": []string{"$.a: b"}}})
	if want := `{"jsonrpc":"2.0","id":"q","error":{"code":-32602,"message":"bad \"x\"","data":{"errors":["$.a: b"]}}}`; string(e) != want {
		t.Errorf("error:\n got %s\nwant %s", e, want)
	}
	null := jsonrpc.EncodeError(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeParseError, "parse error"))
	if want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`; string(null) != want {
		t.Errorf("null id error: %s", null)
	}
	for _, b := range [][]byte{req, note, e, null} {
		if m, err := jsonrpc.Decode(b); err != nil {
			t.Errorf("%s does not decode: %v (%+v)", b, err, m)
		}
	}
}

func TestEncodeErrorDropsUnencodableData(t *testing.T) {
	b := jsonrpc.EncodeError(jsonrpc.IntID(1), &jsonrpc.Error{Code: 1, Message: "m", Data: make(chan int)})
	if want := `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`; string(b) != want {
		t.Errorf("got %s", b)
	}
}

func TestErrorIsAnError(t *testing.T) {
	var err error = jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "unknown tool: x")
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
		t.Fatal("errors.As failed")
	}
	if err.Error() != "jsonrpc error -32601: unknown tool: x" {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestForEachMember(t *testing.T) {
	var names []string
	var values []string
	err := jsonrpc.ForEachMember(json.RawMessage(` { "b" : [1, 2] , "a":{"x":null} } `), func(name string, v json.RawMessage) error {
		names = append(names, name)
		values = append(values, string(v))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "b,a" || strings.Join(values, "|") != `[1, 2]|{"x":null}` {
		t.Errorf("got %v %v", names, values)
	}
	for _, bad := range []string{`[1]`, `{"a":1,"a":2}`, `{"a":}`, `{} x`} {
		if err := jsonrpc.ForEachMember(json.RawMessage(bad), func(string, json.RawMessage) error { return nil }); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	stop := errors.New("stop")
	if err := jsonrpc.ForEachMember(json.RawMessage(`{"a":1,"b":2}`), func(string, json.RawMessage) error { return stop }); err != stop {
		t.Errorf("fn's error not returned: %v", err)
	}
}

func TestIDJSON(t *testing.T) {
	var ids []jsonrpc.ID
	if err := json.Unmarshal([]byte(`[1,"x",null]`), &ids); err != nil {
		t.Fatal(err)
	}
	if ids[0] != jsonrpc.IntID(1) || ids[1] != jsonrpc.StringID("x") || !ids[2].IsZero() {
		t.Errorf("got %v", ids)
	}
	var id jsonrpc.ID
	if err := json.Unmarshal([]byte(`1.5`), &id); err == nil {
		t.Error("1.5 accepted as an id")
	}
	b, _ := json.Marshal(ids)
	if string(b) != `[1,"x",null]` {
		t.Errorf("marshal: %s", b)
	}
}

// hardMessages are seeds for FuzzDecode: duplicates at every depth (also
// spelled with escapes), escaped surrogates, invalid UTF-8, large objects,
// batches, scalars, trailing data, ids of every kind.
var hardMessages = []string{
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

func FuzzDecode(f *testing.F) {
	for _, s := range append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m","data":[]}}`,
		`[{"jsonrpc":"2.0"}]`, `{"id":1.5}`, "\xff", `{"a":1,"a":2}`,
	}, hardMessages...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeParams(t, data)
		m, err := jsonrpc.Decode(data)
		if err != nil {
			// Whatever the input, the error answer is itself a valid message.
			if _, e := jsonrpc.Decode(jsonrpc.EncodeError(m.ID, err)); e != nil {
				t.Fatalf("error answer does not decode: %v", e)
			}
			return
		}
		if m.IsRequest() || m.IsNotification() {
			out, encErr := jsonrpc.EncodeRequest(m.ID, m.Method, m.Params)
			if m.IsNotification() {
				out, encErr = jsonrpc.EncodeNotification(m.Method, m.Params)
			}
			if encErr != nil {
				t.Fatal(encErr)
			}
			back, e := jsonrpc.Decode(out)
			if e != nil || back.Method != m.Method || back.ID != m.ID {
				t.Fatalf("re-encoded message differs: %s (%v)", out, e)
			}
		}
	})
}

// BenchmarkDecode reads the envelope of a typical tools/call, and of one
// whose arguments make it 2 KB (long strings, an array of objects): what
// the strict reading costs as a message grows.
func BenchmarkDecode(b *testing.B) {
	large := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"payments.search","arguments":{"q":"` +
		strings.Repeat("abcdé fgh ", 100) + `","items":[` +
		strings.TrimSuffix(strings.Repeat(`{"a":1,"b":[true,false,null],"c":"x"},`, 30), ",") + `]}}}`
	for _, tc := range []struct{ name, msg string }{{"typical", hardMessages[0]}, {"2KB", large}} {
		b.Run("message="+tc.name, func(b *testing.B) {
			msg := []byte(tc.msg)
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonrpc.Decode(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecodeKeepsLittleForManyNames: a message whose params hold a hundred
// thousand short member names (at any depth) is decoded, its names checked
// for repeats, allocating less than twice its size in all. A strict
// jsontext decoder kept over a hundred bytes per name.
func TestDecodeKeepsLittleForManyNames(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strconv.FormatInt(int64(i), 36) + `":0`)
	}
	b.WriteString(`},"deep":[{"a":{"b":[{"c":1}]}}]}}`)
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := jsonrpc.Decode(data)
	runtime.ReadMemStats(&after)
	if err != nil || m.Method != "x" {
		t.Fatalf("decode: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*uint64(len(data)) {
		t.Errorf("decoding %d bytes allocated %d bytes (%.1f times)", len(data), alloc, float64(alloc)/float64(len(data)))
	}
	// The same message with one name repeated is refused, naming it.
	dup := append(append([]byte{}, data[:len(data)-len(`},"deep":[{"a":{"b":[{"c":1}]}}]}}`)]...), `,"0":1}}}`...)
	if _, err := jsonrpc.Decode(dup); err == nil || err.Code != jsonrpc.CodeParseError || !strings.Contains(err.Message, `duplicate object member name "0" within "/params/_meta"`) {
		t.Errorf("a repeated name: %v", err)
	}
}

// member is a member as DecodeParams and EachMember hand it.
type member struct{ name, value string }

// checkDecodeParams holds DecodeParams to Decode, and the members it hands
// to EachMember's over the params Decode returns: the same, in order, and
// none for a message refused or without params.
func checkDecodeParams(t *testing.T, data []byte) {
	t.Helper()
	var got, want []member
	m, err := jsonrpc.DecodeParams(data, func(name []byte, value json.RawMessage) {
		got = append(got, member{string(name), string(value)})
	})
	wantM, wantErr := jsonrpc.Decode(data)
	if fmt.Sprint(m) != fmt.Sprint(wantM) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: DecodeParams %v, %v; Decode %v, %v", data, m, err, wantM, wantErr)
	}
	if wantErr == nil && wantM.Params != nil {
		jsonrpc.EachMember(wantM.Params, func(name []byte, value json.RawMessage) {
			want = append(want, member{string(name), string(value)})
		})
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%q: DecodeParams hands %q, EachMember %q", data, got, want)
	}
}

// TestDecodeParams: the params' members of requests, notifications and
// anything else, split in the pass that checks the text or, where that
// pass does not split them, walked; and nothing allocated for a request's.
func TestDecodeParams(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"jsonrpc":"2.0","id":1,"method":"m","params":{`)
	for i := range 20 {
		if i > 0 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, `"k%d":[%d]`, i, i)
	}
	many.WriteString(`}}`)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":{"b":[1,"c"]}},"_meta":{"k":1}}}`)
	for _, in := range append([]string{
		string(call), many.String(),
		` { "params" : { "a" : 1 } , "jsonrpc" : "2.0" , "method" : "m" } `,
		`{"jsonrpc":"2.0","method":"m","p\u0061rams":{"a":1,"b":2}}`,
		`{"jsonrpc":"2.0","method":"m","params":{"\u0061":1,"b\n":2}}`,
		`{"jsonrpc":"2.0","method":"m","params":{}}`, `{"jsonrpc":"2.0","method":"m"}`,
		`{"jsonrpc":"2.0","method":"m","params":[1]}`, `{"jsonrpc":"2.0","id":1,"result":{"a":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}`, `{"jsonrpc":"1.0","method":"m","params":{"a":1}}`,
	}, hardMessages...) {
		checkDecodeParams(t, []byte(in))
	}
	var n int
	count := func([]byte, json.RawMessage) { n++ }
	jsonrpc.RegisterNames("tools/call") // as a server does: its methods are not each a new string
	if testenv.RaceEnabled {
		return
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = jsonrpc.DecodeParams(call, count) }); allocs != 0 {
		t.Errorf("decoding a tools/call and its params allocated %v times", allocs)
	}
	if n == 0 {
		t.Error("no member handed")
	}
}

// UnquoteEqual answers what comparing Unquote's string would, for strings
// with and without escapes and for values that are not strings, and makes
// no string for one without an escape.
func TestUnquoteEqual(t *testing.T) {
	values := []string{`"payments.lookup"`, `"pay\u006dents.lookup"`, `"a\"b"`, `""`, `12`, `null`, `{}`, ``}
	candidates := []string{"payments.lookup", `a"b`, "", "12", "payments.looku"}
	for _, v := range values {
		want, _ := jsonrpc.Unquote([]byte(v))
		for _, s := range candidates {
			if got := jsonrpc.UnquoteEqual([]byte(v), s); got != (want == s) {
				t.Errorf("UnquoteEqual(%s, %q) = %v, Unquote read %q", v, s, got, want)
			}
		}
	}
	if testenv.RaceEnabled {
		return // allocations are counted without the race detector
	}
	v := []byte(`"payments.lookup"`)
	if n := testing.AllocsPerRun(100, func() { jsonrpc.UnquoteEqual(v, "payments.lookup") }); n != 0 {
		t.Errorf("comparing a string without escapes: %v allocations, want 0", n)
	}
}
