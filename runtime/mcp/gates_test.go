package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// The five gates (docs/concepts.md#the-gates), each on the wire.

func TestGate1EveryBadEnvelopeIsAnswered(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	cases := []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: unexpected end of input"}}`},
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character*`},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid UTF-8*`},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: duplicate object member name \"id\""}}`},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch requests are not supported"}}`},
		{`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch requests are not supported"}}`},
		{`42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a message must be a JSON object"}}`},
		{`{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"jsonrpc must be '2.0'"}}`},
		{`{"jsonrpc":"1.0","id":"x","method":"ping"}`, `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"jsonrpc must be '2.0'"}}`},
		{`{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"method must be a non-empty string"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"method must be a non-empty string"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":["ping"]}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"method must be a non-empty string"}}`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":2.0,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":false,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a string or an integer"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":[]}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"params must be an object"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":"p"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"params must be an object"}}`},
		// A bad envelope is answered even when it would be a notification.
		{`{"jsonrpc":"1.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"jsonrpc must be '2.0'"}}`},
	}
	for _, c := range cases {
		// A trailing * leaves the rest of the library's wording open.
		got := w.call(c.in)
		if prefix, open := strings.CutSuffix(c.want, "*"); open && strings.HasPrefix(got, prefix) {
			continue
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	// The session survived all of it.
	w.handshake(mcp.Revision20250618)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"ping"}`); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("ping: %s", got)
	}
}

func TestGate1OversizedLineIsRefusedAndSkipped(t *testing.T) {
	b := newBank(t, mcp.Options{MaxMessageBytes: 64})
	w := serve(t, b.srv, investigator)
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 200) + `"}}`
	if got := w.call(long); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message exceeds the limit of 64 bytes"}}` {
		t.Errorf("got %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"ping"}`); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"server not initialized"}}` {
		t.Errorf("the next line: %s", got)
	}
}

func TestGate2NotificationsAreHandledBeforeTheIDGate(t *testing.T) {
	// notifications/initialized has no id: were gate 3 first, it would be
	// dropped and the session would never go live.
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code(t, got) != "-32600" {
		t.Fatalf("before notifications/initialized: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); code(t, got) != "" {
		t.Fatalf("after notifications/initialized: %s", got)
	}
}

func TestGate3RequestWithoutIDIsNotAnswered(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.send(`{"jsonrpc":"2.0","method":"tools/list"}`)
	w.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`)
	w.send(`{"jsonrpc":"2.0","method":"no/such/method"}`)
	w.send(`{"jsonrpc":"2.0","method":"tools/list",` + `"params":{` + statelessMeta + `}}`)
	w.quiet()
	if n := b.called("payments.lookup@1.0.0"); n != 0 {
		t.Errorf("a request without id ran a handler %d times", n)
	}
}

func TestGate4NothingButInitializeBeforeInitialized(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	notLive := `{"code":-32600,"message":"server not initialized"}`
	for _, m := range []string{"tools/list", "ping", "no/such/method", "resources/list", "prompts/get"} {
		if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"` + m + `"}`); !strings.Contains(got, notLive) {
			t.Errorf("%s before initialize: %s", m, got)
		}
	}
	w.call(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`)
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"ping"}`); !strings.Contains(got, notLive) {
		t.Errorf("ping between initialize and initialized: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := w.call(`{"jsonrpc":"2.0","id":4,"method":"ping"}`); got != `{"jsonrpc":"2.0","id":4,"result":{}}` {
		t.Errorf("ping when live: %s", got)
	}
	// A second handshake is refused; the session stays as negotiated.
	if got := w.call(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`); code(t, got) != "-32600" {
		t.Errorf("second initialize: %s", got)
	}
}

func TestGate5UnknownMethod(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20251125)
	for _, m := range []string{"tools/delete", "server/discover", "subscriptions/listen", "Tools/List"} {
		got := w.call(`{"jsonrpc":"2.0","id":"u","method":"` + m + `"}`)
		if m == "server/discover" || m == "subscriptions/listen" {
			// Methods of the stateless era without its _meta: -32602.
			if code(t, got) != "-32602" {
				t.Errorf("%s: %s", m, got)
			}
			continue
		}
		if want := `{"jsonrpc":"2.0","id":"u","error":{"code":-32601,"message":"unknown method: ` + m + `"}}`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", m, got, want)
		}
	}
}

func TestResponsesFromTheClientAreIgnored(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	w.send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	w.quiet()
}

func TestDuplicateIDInFlightIsRefused(t *testing.T) {
	b := newBank(t, mcp.Options{})
	started, release := make(chan struct{}), make(chan struct{})
	b.bind(t, freeTool("slow", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		close(started)
		<-release
		return mcp.TextResult("done"), nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	slow := `{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"slow"}}`
	w.send(slow)
	<-started
	if got := w.call(slow); got != `{"jsonrpc":"2.0","id":"s","error":{"code":-32600,"message":"request id \"s\" is already in flight"}}` {
		t.Errorf("duplicate: %s", got)
	}
	close(release)
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "done" {
		t.Errorf("the first request: %s", got)
	}
}

// FuzzSessionHandle feeds arbitrary bytes to a session: nothing panics, and
// every answer is one valid JSON-RPC response.
func FuzzSessionHandle(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-1"},"_meta":{"version":"^1","schemaHash":"x"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + statelessMeta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"investigate","arguments":{"reference":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`,
		`[1]`, `{"id":1e999}`, "\x00",
	} {
		f.Add([]byte(s))
	}
	srv, err := mcp.NewServer(mcp.Options{Prompts: []mcp.Prompt{investigatePrompt}, Resources: []mcp.Resource{holdPolicy}})
	if err != nil {
		f.Fatal(err)
	}
	srv.Bind(lookupSpec("1.0.0", lookupSchema), mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return nil, nil }})
	f.Fuzz(func(t *testing.T, data []byte) {
		sess := srv.NewSession(investigator, func([]byte) {})
		defer sess.Close()
		// Live for handshake-era requests too.
		sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`))
		sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		// A cancelled context: a subscriptions/listen request (however its
		// method is spelled) ends at once instead of waiting for its end.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		out := sess.Handle(ctx, data)
		if out == nil {
			return
		}
		if m, err := jsonrpc.Decode(out); err != nil || !m.IsResponse() {
			t.Fatalf("answer is not a JSON-RPC response: %s (%v)", out, err)
		}
	})
}
