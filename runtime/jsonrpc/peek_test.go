package jsonrpc_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// PeekRequest names a request's id and method as Decode reads them, reads
// no further than both, and leaves to Decode whatever it cannot read
// without checking.
func TestPeekRequest(t *testing.T) {
	for _, tc := range []struct {
		msg, id, method string // id "" means not ok
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","arguments":{"s":"}\"{","n":[1,{"x":[]}]}}}`, "7", "tools/call"},
		{` { "method" : "ping" , "id" : "req-1" , "jsonrpc" : "2.0" } `, `"req-1"`, "ping"},
		{`{"id":0,"method":"ping","jsonrpc":"2.0"}`, "0", "ping"},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"error":{},"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","error":{}}`, "1", "ping"}, // for Decode to refuse
		{`{"jsonrpc":"2.0","id":-1,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":01,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":"\u0061","method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":"é","method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, "", ""},
		{`{"jsonrpc":"2.0","\u0069d":1,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, "", ""},
		{`{"jsonrpc":"2.0","method":"ping","method":"x","id":1}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","method":"x"}`, "1", "ping"},    // for Decode to refuse
		{`{"jsonrpc":"2.0","id":1,"method":"ping"} x`, "1", "ping"},               // for Decode to refuse
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[}`, "1", "ping"}, // for Decode to refuse
		{`{"jsonrpc":"2.0","id":1}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"params":{"a":[}`, "", ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "", ""},
		{`{}`, "", ""},
	} {
		id, method, ok := jsonrpc.PeekRequest([]byte(tc.msg))
		if ok != (tc.id != "") || ok && (id.String() != tc.id || method != tc.method) {
			t.Errorf("PeekRequest(%s) = %s, %q, %v; want %s, %q", tc.msg, id, method, ok, tc.id, tc.method)
		}
	}
}

// Whatever the text, a request PeekRequest names is one Decode refuses or
// reads with the same id and method.
func FuzzPeekRequest(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","arguments":{"s":"}\"{"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"ping"}`, `{"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[}`, `{"jsonrpc":"1.0","id":2,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","a":1,"a":2}`, `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id, method, ok := jsonrpc.PeekRequest(data)
		if !ok {
			return
		}
		m, err := jsonrpc.Decode(data)
		if err != nil {
			return
		}
		if !m.IsRequest() || m.ID != id || m.Method != method {
			t.Fatalf("PeekRequest read %s %q; Decode %s %q (request %v)", id, method, m.ID, m.Method, m.IsRequest())
		}
	})
}

// BenchmarkPeekRequest reads a typical tools/call's id and method, as the
// SDKs' clients write it (usual) and with its members in another order
// (walked): the part of a pipelined line its reading goroutine reads.
func BenchmarkPeekRequest(b *testing.B) {
	for _, tc := range []struct{ name, msg string }{
		{"usual", `{"jsonrpc":"2.0","id":1234,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-01-01"}}}`},
		{"walked", `{"method":"tools/call","jsonrpc":"2.0","id":1234,"params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-01-01"}}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			data := []byte(tc.msg)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, ok := jsonrpc.PeekRequest(data); !ok {
					b.Fatal("not read")
				}
			}
		})
	}
}
