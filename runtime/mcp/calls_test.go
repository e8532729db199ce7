package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// The tests of what a handler sends the client through its *Call:
// progress, log messages, sampling and elicitation requests.

// callServer is a server with one free tool, "t", running h.
func callServer(t *testing.T, h mcp.Handler) *mcp.Server {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{Name: "calls", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.Bind(freeTool("t", estate.Read), mcp.Tool{Handler: h}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// handshakeWith initializes a wire declaring the client capabilities caps
// (a JSON object).
func (w *wire) handshakeWith(rev mcp.Revision, caps string) {
	w.t.Helper()
	got := w.call(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + string(rev) + `","capabilities":` + caps + `,"clientInfo":{"name":"test","version":"1"}}}`)
	if jget(w.t, got, "result", "protocolVersion") != string(rev) {
		w.t.Fatalf("initialize: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func TestProgressIsSentOnlyWhenAskedAndOnlyIncreasing(t *testing.T) {
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		var errs []string
		for _, p := range []float64{0, 50, 50, 100} {
			if err := c.Progress(ctx, p, 100, fmt.Sprintf("step %v", p)); err != nil {
				errs = append(errs, err.Error())
			}
		}
		return mcp.TextResult(strings.Join(errs, ";")), nil
	})
	for _, tc := range []struct {
		rev   mcp.Revision
		token string
	}{{mcp.Revision20250618, `"tok-1"`}, {mcp.Revision20241105, `7`}} {
		w := serve(t, srv, investigator)
		w.handshake(tc.rev)
		got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":` + tc.token + `}}}`)
		if text := jget(t, got, "result", "content", 0, "text"); text != "mcp: progress 50 does not exceed the last report, 50" {
			t.Errorf("%s: the repeated report was not refused: %s", tc.rev, got)
		}
		message := func(p string) string {
			if tc.rev == mcp.Revision20241105 {
				return "" // no message member before 2025-03-26
			}
			return `,"message":"step ` + p + `"`
		}
		want := []string{
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":0,"total":100` + message("0") + `}}`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":50,"total":100` + message("50") + `}}`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":100,"total":100` + message("100") + `}}`,
		}
		if strings.Join(w.notes, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: progress notifications:\n%s\nwant\n%s", tc.rev, strings.Join(w.notes, "\n"), strings.Join(want, "\n"))
		}
		// Without a token, nothing.
		w.notes = nil
		w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`)
		if len(w.notes) != 0 {
			t.Errorf("%s: progress without a token: %v", tc.rev, w.notes)
		}
	}
}

func TestLogMessagesHonourTheClientsLevel(t *testing.T) {
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		for _, l := range []mcp.LogLevel{mcp.LogDebug, mcp.LogInfo, mcp.LogWarning, mcp.LogError} {
			if err := c.Log(ctx, l, map[string]any{"at": string(l)}); err != nil {
				return nil, err
			}
		}
		if err := c.Log(ctx, "loud", "x"); err == nil {
			return mcp.ErrorResult("an unknown level was accepted"), nil
		}
		return mcp.TextResult("logged"), nil
	})
	levels := func(notes []string) string {
		var out []string
		for _, n := range notes {
			if jget(t, n, "method") != "notifications/message" || jget(t, n, "params", "logger") != "t" {
				t.Errorf("not a log message of tool t: %s", n)
			}
			out = append(out, jget(t, n, "params", "data", "at").(string))
		}
		return strings.Join(out, ",")
	}

	w := serve(t, srv, investigator)
	w.handshake(mcp.Revision20251125)
	// Before logging/setLevel, every level is sent.
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`); jget(t, got, "result", "isError") != false {
		t.Fatal(got)
	}
	if got := levels(w.notes); got != "debug,info,warning,error" {
		t.Errorf("before setLevel: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}`); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("setLevel: %s", got)
	}
	w.notes = nil
	w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}`)
	if got := levels(w.notes); got != "warning,error" {
		t.Errorf("after setLevel warning: %s", got)
	}
	for _, params := range []string{`{"level":"loud"}`, `{}`, `{"level":1}`} {
		if got := w.call(`{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":` + params + `}`); code(t, got) != "-32602" {
			t.Errorf("setLevel %s: %s", params, got)
		}
	}

	// Stateless: only a request that asks receives messages, at its level.
	s := serve(t, srv, investigator)
	for meta, want := range map[string]string{
		`{}`: "",
		`{"io.modelcontextprotocol/logLevel":"error"}`: "error",
		`{"io.modelcontextprotocol/logLevel":"debug"}`: "debug,info,warning,error",
	} {
		s.notes = nil
		got := s.call(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":` + withStatelessMeta(`{"name":"t","_meta":`+meta+`}`) + `}`)
		if jget(t, got, "result", "isError") != false || levels(s.notes) != want {
			t.Errorf("stateless %s: %s, notes %v", meta, got, s.notes)
		}
	}
	if got := s.call(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":` + withStatelessMeta(`{"name":"t","_meta":{"io.modelcontextprotocol/logLevel":"banana"}}`) + `}`); code(t, got) != "-32602" {
		t.Errorf("unknown per-request level: %s", got)
	}
	if got := s.call(`{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":` + withStatelessMeta(`{"level":"info"}`) + `}`); code(t, got) != "-32601" {
		t.Errorf("setLevel in the stateless era: %s", got)
	}
}

// sampler is a tool that asks the client's model and reports the answer,
// or the error's text and whether it is ErrUnavailable.
func sampler(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
	res, err := c.Sample(ctx, mcp.SamplingRequest{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent("What is 2+2?")}},
		MaxTokens: 100,
	})
	if err != nil {
		return mcp.ErrorResult(fmt.Sprintf("unavailable=%v: %v", errors.Is(err, mcp.ErrUnavailable), err)), nil
	}
	return mcp.TextResult(res.Role + "/" + res.Model + ": " + res.Content.Text), nil
}

func TestSamplingRoundTrip(t *testing.T) {
	srv := callServer(t, sampler)
	w := serve(t, srv, investigator)
	w.handshakeWith(mcp.Revision20250618, `{"sampling":{}}`)
	w.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"t"}}`)
	req := w.recv()
	if req != `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is 2+2?"}}],"maxTokens":100}}` {
		t.Fatalf("sampling request: %s", req)
	}
	// A response to nothing pending is dropped, and does not answer ours.
	w.send(`{"jsonrpc":"2.0","id":99,"result":{"role":"assistant","content":{"type":"text","text":"5"},"model":"m"}}`)
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"test-model","stopReason":"endTurn"}}`)
	if got := w.response(); got != `{"jsonrpc":"2.0","id":"c1","result":{"content":[{"type":"text","text":"assistant/test-model: 4"}],"isError":false}}` {
		t.Errorf("tool result: %s", got)
	}

	// The client's error response reaches the tool as a *jsonrpc.Error.
	w.send(`{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"t"}}`)
	if req := w.recv(); jget(t, req, "id") == nil || jget(t, req, "method") != "sampling/createMessage" {
		t.Fatalf("second request: %s", req)
	}
	w.send(`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"User rejected sampling request"}}`)
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "unavailable=false: jsonrpc error -1: User rejected sampling request" {
		t.Errorf("refused sampling: %s", got)
	}
}

func TestClientRequestsNeedCapabilityAndRevision(t *testing.T) {
	elicitor := func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		_, err := c.Elicit(ctx, mcp.ElicitRequest{Message: "Who?", RequestedSchema: map[string]any{"type": "object"}})
		return mcp.ErrorResult(fmt.Sprintf("unavailable=%v: %v", errors.Is(err, mcp.ErrUnavailable), err)), nil
	}
	for _, tc := range []struct {
		name string
		h    mcp.Handler
		rev  mcp.Revision
		caps string
		want string
	}{
		{"sampling undeclared", sampler, mcp.Revision20251125, `{"elicitation":{}}`,
			"unavailable=true: mcp: cannot send sampling/createMessage: the client did not declare the sampling capability"},
		{"elicitation undeclared", elicitor, mcp.Revision20251125, `{"sampling":{}}`,
			"unavailable=true: mcp: cannot send elicitation/create: the client did not declare the elicitation capability"},
		{"elicitation before 2025-06-18", elicitor, mcp.Revision20250326, `{"elicitation":{}}`,
			"unavailable=true: mcp: cannot send elicitation/create: protocol revision 2025-03-26 has no elicitation"},
		{"url mode only", elicitor, mcp.Revision20251125, `{"elicitation":{"url":{}}}`,
			"unavailable=true: mcp: cannot send elicitation/create: the client does not accept form elicitation"},
	} {
		w := serve(t, callServer(t, tc.h), investigator)
		w.handshakeWith(tc.rev, tc.caps)
		if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`); jget(t, got, "result", "content", 0, "text") != tc.want {
			t.Errorf("%s: %s", tc.name, got)
		}
	}
	// The stateless era asks through the call's result, and only for what
	// the request's _meta declares.
	w := serve(t, callServer(t, sampler), investigator)
	params := strings.Replace(withStatelessMeta(`{"name":"t"}`), `clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`); jget(t, got, "result", "content", 0, "text") !=
		"unavailable=true: mcp: cannot send sampling/createMessage: the client did not declare the sampling capability" {
		t.Errorf("stateless: %s", got)
	}
	// A transport without a sink for server messages cannot carry them.
	srv := callServer(t, sampler)
	sess := srv.NewSession(investigator, nil)
	defer sess.Close()
	ctx := context.Background()
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}}}}`))
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	got := string(sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`)))
	if jget(t, got, "result", "content", 0, "text") != "unavailable=true: mcp: cannot send sampling/createMessage: this transport cannot carry requests to the client" {
		t.Errorf("no sink: %s", got)
	}
}

func TestElicitationRoundTripPerRevision(t *testing.T) {
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		res, err := c.Elicit(ctx, mcp.ElicitRequest{
			Message: "Your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
				"name": map[string]any{"type": "string"}}},
		})
		if err != nil {
			return nil, err
		}
		return mcp.TextResult(fmt.Sprintf("%s %v", res.Action, res.Content)), nil
	})
	for _, tc := range []struct {
		rev  mcp.Revision
		mode string
	}{{mcp.Revision20250618, ``}, {mcp.Revision20251125, `"mode":"form",`}} {
		w := serve(t, srv, investigator)
		w.handshakeWith(tc.rev, `{"elicitation":{}}`)
		w.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}`)
		want := `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?",` + tc.mode +
			`"requestedSchema":{"properties":{"name":{"type":"string"}},"type":"object"}}}`
		if req := w.recv(); req != want {
			t.Errorf("%s: request\n got %s\nwant %s", tc.rev, req, want)
		}
		w.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada","age":36}}}`)
		if got := w.response(); jget(t, got, "result", "content", 0, "text") != "accept map[age:36 name:Ada]" {
			t.Errorf("%s: %s", tc.rev, got)
		}
		w.send(`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"t"}}`)
		w.recv()
		w.send(`{"jsonrpc":"2.0","id":2,"result":{"action":"maybe"}}`)
		if got := w.response(); jget(t, got, "result", "isError") != true ||
			jget(t, got, "result", "content", 0, "text") != `mcp: the client's elicitation result has action "maybe" (want accept, decline or cancel)` {
			t.Errorf("%s: a bad action: %s", tc.rev, got)
		}
	}
}

func TestClientRequestEndsWithTheCall(t *testing.T) {
	waiting := make(chan error, 1)
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		_, err := c.Sample(ctx, mcp.SamplingRequest{
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent("?")}}, MaxTokens: 1,
		})
		waiting <- err
		return nil, err
	})

	// The client cancels the tool call: the server cancels its request.
	w := serve(t, srv, investigator)
	w.handshakeWith(mcp.Revision20250618, `{"sampling":{}}`)
	w.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}`)
	w.recv() // the sampling request, id 1
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}`)
	if err := <-waiting; !errors.Is(err, context.Canceled) {
		t.Errorf("the handler's request ended with %v", err)
	}
	if got := w.recv(); got != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"context canceled","requestId":1}}` {
		t.Errorf("the server did not cancel its request: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}}`)
	w.quiet() // the late answer, and the cancelled call, are not answered

	// The input ends while the handler waits: ServeStream still returns.
	w = serve(t, srv, investigator)
	w.handshakeWith(mcp.Revision20250618, `{"sampling":{}}`)
	w.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}`)
	w.recv()
	rest, err := w.finish()
	if werr := <-waiting; !errors.Is(werr, mcp.ErrSessionClosed) || err != nil {
		t.Errorf("end of input: handler %v, ServeStream %v", werr, err)
	}
	// The call itself is still answered, as every request in flight is.
	if len(rest) != 1 || jget(t, rest[0], "result", "content", 0, "text") != mcp.ErrSessionClosed.Error() {
		t.Errorf("after the end of input: %v", rest)
	}
}

func TestContentBlocksOnTheWire(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G'}
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		return &mcp.Result{Content: []mcp.Content{
			mcp.TextContent(""),
			mcp.ImageContent("image/png", png),
			mcp.AudioContent("audio/wav", []byte("RIFF")),
			mcp.ResourceContent(mcp.TextContents("test://r", "text/plain", "body")),
			mcp.ResourceContent(mcp.BlobContents("test://b", "image/png", png)),
		}}, nil
	})
	w := serve(t, srv, investigator)
	w.handshake(mcp.Revision20250618)
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[` +
		`{"type":"text","text":""},` +
		`{"type":"image","data":"iVBORw==","mimeType":"image/png"},` +
		`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},` +
		`{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"body"}},` +
		`{"type":"resource","resource":{"uri":"test://b","mimeType":"image/png","blob":"iVBORw=="}}` +
		`],"isError":false}}`
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestContentDecodesWhatItEncodes(t *testing.T) {
	for _, c := range []mcp.Content{
		mcp.TextContent("hi"),
		mcp.ImageContent("image/png", []byte{1, 2}),
		mcp.ResourceContent(mcp.BlobContents("x://y", "application/octet-stream", []byte{3})),
		{Type: "resource_link", Text: "kept"},
	} {
		enc, err := jsonrpc.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back mcp.Content
		if err := back.UnmarshalJSON(enc); err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		again, _ := jsonrpc.Marshal(back)
		if string(again) != string(enc) {
			t.Errorf("round trip: %s became %s", enc, again)
		}
	}
	var c mcp.Content
	if err := c.UnmarshalJSON([]byte(`{"text":"no type"}`)); err == nil {
		t.Error("a block without type was accepted")
	}
	if _, err := jsonrpc.Marshal(mcp.Content{Type: mcp.ContentResource}); err == nil {
		t.Error("a resource block without a resource encoded")
	}
}

// TestInitializeCapabilitiesAreBounded: a session keeps its client's
// capabilities for its whole life, so initialize refuses more than
// MaxCapabilitiesBytes of them; the session can then initialize with
// fewer, and the capabilities it keeps are the ones it declared.
func TestInitializeCapabilitiesAreBounded(t *testing.T) {
	srv := callServer(t, sampler)
	w := serve(t, srv, investigator)
	huge := `{"experimental":{"x":"` + strings.Repeat("x", mcp.MaxCapabilitiesBytes) + `"}}`
	got := w.call(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + huge + `,"clientInfo":{"name":"test","version":"1"}}}`)
	if !strings.Contains(got, `"code":-32602,"message":"capabilities exceed the limit of 65536 bytes"`) {
		t.Fatalf("initialize with %d bytes of capabilities: %.300s", len(huge), got)
	}
	w.handshakeWith(mcp.Revision20250618, `{"sampling":{}}`)
	w.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"t"}}`)
	if req := w.recv(); jget(t, req, "method") != "sampling/createMessage" {
		t.Fatalf("the declared capability was not kept: %s", req)
	}
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m"}}`)
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "assistant/m: 4" {
		t.Errorf("tool result: %s", got)
	}
}

// TestClientAnswersAreReadAtTheBound: with every place for a request in
// flight taken by handlers waiting for the client's answer to sampling,
// the client's answers (responses, which need no place) are still read,
// and the calls complete.
func TestClientAnswersAreReadAtTheBound(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Options{MaxInFlight: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.Bind(freeTool("t", estate.Read), mcp.Tool{Handler: sampler}); err != nil {
		t.Fatal(err)
	}
	w := serve(t, srv, investigator)
	w.handshakeWith(mcp.Revision20250618, `{"sampling":{}}`)
	w.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"t"}}`)
	w.send(`{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"t"}}`)
	// Both handlers wait for the client, holding both places.
	var ids []any
	for range 2 {
		req := w.recv()
		if jget(t, req, "method") != "sampling/createMessage" {
			t.Fatalf("got %s", req)
		}
		ids = append(ids, jget(t, req, "id"))
	}
	for _, id := range ids {
		w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m"}}`, id))
	}
	for range 2 {
		if got := w.response(); jget(t, got, "result", "content", 0, "text") != "assistant/m: 4" {
			t.Errorf("tool result: %s", got)
		}
	}
}
