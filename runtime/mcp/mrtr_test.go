package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// Asking the client for input (docs/concepts.md#asking-the-client): one
// handler, a session's request in the handshake era, an input_required
// result and a sealed requestState in the stateless one.

var confirmSchema = map[string]any{"type": "object",
	"properties": map[string]any{"confirm": map[string]any{"type": "boolean"}}, "required": []any{"confirm"}}

// releaser confirms through elicitation before it acts, as a destructive
// tool should; acted counts what it did.
func releaser(acted *atomic.Int64) mcp.Handler {
	return func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		answer, err := c.Elicit(ctx, mcp.ElicitRequest{Name: "confirm", Message: "Release PMT-771?", RequestedSchema: confirmSchema})
		if err != nil {
			return nil, err
		}
		if answer.Action != mcp.ElicitAccept || answer.Content["confirm"] != true {
			return mcp.ErrorResult("not confirmed: " + string(answer.Action)), nil
		}
		acted.Add(1)
		return mcp.TextResult("released " + fmt.Sprint(c.Arguments()["reference"])), nil
	}
}

// statelessCall is a 2026-07-28 tools/call of "t" with args, declaring
// caps, with more params members (",..." or "").
func statelessCall(id int, caps, args, more string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":%s%s,`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":%s}}}`, id, args, more, caps)
}

// retry is the params members of a retry: the answers and the state.
func retry(responses, state string) string {
	return `,"inputResponses":` + responses + `,"requestState":"` + state + `"`
}

const (
	elicitCaps = `{"elicitation":{}}`
	pmt771     = `{"reference":"PMT-771"}`
	accepted   = `{"confirm":{"action":"accept","content":{"confirm":true}}}`
)

// askedState checks that got is an input_required result asking exactly
// names, and returns its requestState.
func askedState(t *testing.T, got string, names string) string {
	t.Helper()
	if jget(t, got, "result", "resultType") != "input_required" || keys(jget(t, got, "result", "inputRequests")) != names {
		t.Fatalf("want input_required asking %s, got %s", names, got)
	}
	if keys(jget(t, got, "result")) != "_meta,inputRequests,requestState,resultType" {
		t.Errorf("input_required result members: %s", got)
	}
	state, _ := jget(t, got, "result", "requestState").(string)
	if state == "" {
		t.Fatalf("no requestState: %s", got)
	}
	return state
}

func TestInputRequiredRoundTrip(t *testing.T) {
	var acted atomic.Int64
	w := serve(t, callServer(t, releaser(&acted)), investigator)

	got := w.call(statelessCall(1, elicitCaps, pmt771, ""))
	state := askedState(t, got, "confirm")
	want := `{"method":"elicitation/create","params":{"message":"Release PMT-771?","mode":"form","requestedSchema":{"properties":{"confirm":{"type":"boolean"}},"required":["confirm"],"type":"object"}}}`
	if asked := strings.SplitN(strings.SplitN(got, `"inputRequests":{"confirm":`, 2)[1], `},"requestState"`, 2)[0]; asked != want {
		t.Errorf("the question\n got %s\nwant %s", asked, want)
	}
	if acted.Load() != 0 {
		t.Fatal("the tool acted before it was confirmed")
	}

	// The client answers: the handler runs again, and Elicit returns the
	// answer. The arguments' members in another order are the same call.
	got = w.call(statelessCall(2, elicitCaps, `{ "reference" : "PMT-771" }`, retry(accepted, state)))
	if jget(t, got, "result", "resultType") != "complete" || jget(t, got, "result", "content", 0, "text") != "released PMT-771" || acted.Load() != 1 {
		t.Fatalf("confirmed retry: %s (acted %d)", got, acted.Load())
	}

	// A decline reaches the handler as a decline: nothing happens.
	got = w.call(statelessCall(3, elicitCaps, pmt771, retry(`{"confirm":{"action":"decline"}}`, state)))
	if jget(t, got, "result", "content", 0, "text") != "not confirmed: decline" || acted.Load() != 1 {
		t.Errorf("declined retry: %s", got)
	}

	// A retry without the answer is asked again, as MCP recommends.
	got = w.call(statelessCall(4, elicitCaps, pmt771, retry(`{"other":{"action":"accept"}}`, state)))
	askedState(t, got, "confirm")

	// Answers without a requestState answer nothing: a client cannot
	// confirm what it was never asked.
	got = w.call(statelessCall(5, elicitCaps, pmt771, `,"inputResponses":`+accepted))
	askedState(t, got, "confirm")
	if acted.Load() != 1 {
		t.Errorf("acted %d times", acted.Load())
	}
}

// TestSameHandlerInBothEras: the handler of TestInputRequiredRoundTrip,
// unchanged, asks a handshake-era client with elicitation/create and waits.
func TestSameHandlerInBothEras(t *testing.T) {
	var acted atomic.Int64
	w := serve(t, callServer(t, releaser(&acted)), investigator)
	w.handshakeWith(mcp.Revision20251125, elicitCaps)
	w.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t","arguments":` + pmt771 + `}}`)
	if req := w.recv(); jget(t, req, "method") != "elicitation/create" || jget(t, req, "params", "mode") != "form" {
		t.Fatalf("request: %s", req)
	}
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"confirm":true}}}`)
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "released PMT-771" || acted.Load() != 1 {
		t.Errorf("result: %s", got)
	}
}

// TestInputRequiredAcrossRounds: a handler that asks one question after
// another gets, in its last round, the answers of every earlier one, which
// the requestState carried.
func TestInputRequiredAcrossRounds(t *testing.T) {
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		who, err := c.Elicit(ctx, mcp.ElicitRequest{Message: "Who approves?", RequestedSchema: map[string]any{"type": "object"}})
		if err != nil {
			return nil, err
		}
		roots, err := c.Roots(ctx)
		if err != nil {
			return nil, err
		}
		model, err := c.Sample(ctx, mcp.SamplingRequest{Name: "summary",
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent("Summarise")}}, MaxTokens: 10})
		if err != nil {
			return nil, err
		}
		return mcp.TextResult(fmt.Sprintf("%v %s %s", who.Content["name"], roots[0].URI, model.Content.Text)), nil
	})
	w := serve(t, srv, investigator)
	caps := `{"elicitation":{},"roots":{},"sampling":{}}`
	state := askedState(t, w.call(statelessCall(1, caps, `{}`, "")), "elicitation-1")
	got := w.call(statelessCall(2, caps, `{}`, retry(`{"elicitation-1":{"action":"accept","content":{"name":"Ada"}}}`, state)))
	state = askedState(t, got, "roots-1")
	if jget(t, got, "result", "inputRequests", "roots-1", "method") != "roots/list" {
		t.Errorf("roots question: %s", got)
	}
	state = askedState(t, w.call(statelessCall(3, caps, `{}`, retry(`{"roots-1":{"roots":[{"uri":"file:///ledger"}]}}`, state))), "summary")
	got = w.call(statelessCall(4, caps, `{}`, retry(`{"summary":{"role":"assistant","model":"m","content":{"type":"text","text":"ok"}}}`, state)))
	if jget(t, got, "result", "content", 0, "text") != "Ada file:///ledger ok" {
		t.Errorf("last round: %s", got)
	}
}

func TestRequestStateRefusals(t *testing.T) {
	var acted atomic.Int64
	now := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	srv := callServer(t, releaser(&acted))
	mcp.SetClock(srv, func() time.Time { return *clock.Load() })
	w := serve(t, srv, investigator)
	state := askedState(t, w.call(statelessCall(1, elicitCaps, pmt771, "")), "confirm")

	forged := []byte(state)
	forged[len(forged)/2] ^= 1
	if forged[len(forged)/2] == '-'+1 || forged[len(forged)/2] == '_'+1 {
		forged[len(forged)/2] = 'A'
	}
	refusals := []struct{ name, line, message string }{
		{"forged", statelessCall(2, elicitCaps, pmt771, retry(accepted, string(forged))),
			"requestState was not issued by this service or has been altered"},
		{"not base64", statelessCall(3, elicitCaps, pmt771, retry(accepted, "not*state")),
			"requestState was not issued by this service or has been altered"},
		{"other arguments", statelessCall(4, elicitCaps, `{"reference":"PMT-772"}`, retry(accepted, state)),
			"requestState was issued for other arguments"},
		{"not a string", statelessCall(5, elicitCaps, pmt771, `,"requestState":7`),
			"requestState must be a string"},
		{"inputResponses not an object", statelessCall(6, elicitCaps, pmt771, `,"inputResponses":[],"requestState":"`+state+`"`),
			"inputResponses must be an object"},
		{"a malformed answer", statelessCall(7, elicitCaps, pmt771, retry(`{"confirm":{"action":"maybe"}}`, state)),
			`inputResponses.confirm: the client's elicitation result has action \"maybe\" (want accept, decline or cancel)`},
	}
	for _, r := range refusals {
		got := w.call(r.line)
		if want := `"error":{"code":-32602,"message":"` + r.message + `"}}`; !strings.HasSuffix(got, want) {
			t.Errorf("%s:\n got %s\nwant …%s", r.name, got, want)
		}
	}

	// Another caller holding the state cannot use it.
	other := estate.Principal{AgentID: "payments-investigator", Tenant: "retail", Scopes: []string{"payments.read"}, MaxClassification: estate.Confidential}
	got := serve(t, srv, other).call(statelessCall(8, elicitCaps, pmt771, retry(accepted, state)))
	if !strings.HasSuffix(got, `"error":{"code":-32602,"message":"requestState was issued to another caller"}}`) {
		t.Errorf("another caller: %s", got)
	}

	// Nor another tool.
	if err := srv.Bind(freeTool("u", estate.Irreversible), mcp.Tool{Handler: releaser(&acted)}); err != nil {
		t.Fatal(err)
	}
	got = w.call(strings.Replace(statelessCall(9, elicitCaps, pmt771, retry(accepted, state)), `"name":"t"`, `"name":"u"`, 1))
	if !strings.HasSuffix(got, `"error":{"code":-32602,"message":"requestState was issued for another tool or version"}}`) {
		t.Errorf("another tool: %s", got)
	}

	// Nor anyone once it has expired.
	later := now.Add(mcp.DefaultRequestStateTTL)
	clock.Store(&later)
	got = w.call(statelessCall(10, elicitCaps, pmt771, retry(accepted, state)))
	if !strings.HasSuffix(got, `"error":{"code":-32602,"message":"requestState has expired: call again without it"}}`) {
		t.Errorf("expired: %s", got)
	}
	if acted.Load() != 0 {
		t.Errorf("the tool acted %d times on refused states", acted.Load())
	}
}

// TestInputRequiredAcrossReplicas: over Streamable HTTP in stateless mode,
// a call that one replica asked is continued by another that shares its
// key, and refused by one that does not.
func TestInputRequiredAcrossReplicas(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	var acted atomic.Int64
	replica := func(key []byte) string {
		srv, err := mcp.NewServer(mcp.Options{RequestStateKey: key})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		if err := srv.Bind(freeTool("t", estate.Irreversible), mcp.Tool{Handler: releaser(&acted)}); err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(mcphttp.NewHandler(srv, mcphttp.Options{Authenticator: auth.Static{Principal: investigator}, Stateless: true}))
		t.Cleanup(ts.Close)
		return ts.URL
	}
	a, b, stranger := replica(key), replica(key), replica(nil)
	post := func(url, body string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(mcphttp.HeaderProtocolVersion, "2026-07-28")
		req.Header.Set(mcphttp.HeaderMethod, "tools/call")
		req.Header.Set(mcphttp.HeaderName, "t")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return string(data)
	}
	state := askedState(t, post(a, statelessCall(1, elicitCaps, pmt771, "")), "confirm")
	if got := post(stranger, statelessCall(2, elicitCaps, pmt771, retry(accepted, state))); !strings.Contains(got, `"message":"requestState was not issued by this service or has been altered"`) {
		t.Errorf("a replica with another key: %s", got)
	}
	if got := post(b, statelessCall(3, elicitCaps, pmt771, retry(accepted, state))); jget(t, got, "result", "content", 0, "text") != "released PMT-771" {
		t.Errorf("a replica with the key: %s", got)
	}
	if acted.Load() != 1 {
		t.Errorf("acted %d times", acted.Load())
	}
	if _, err := mcp.NewServer(mcp.Options{RequestStateKey: key[:16]}); err == nil || !strings.Contains(err.Error(), "16 bytes, want 32") {
		t.Errorf("a short key: %v", err)
	}
}

func TestURLElicitation(t *testing.T) {
	srv := callServer(t, func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		answer, err := c.ElicitURL(ctx, mcp.ElicitURLRequest{Message: "Approve the release at the bank", URL: "https://approve.bank.example/r/42", ElicitationID: "r-42"})
		if err != nil {
			return mcp.ErrorResult(fmt.Sprintf("unavailable=%v: %v", errors.Is(err, mcp.ErrUnavailable), err)), nil
		}
		if err := c.NotifyElicitationComplete(ctx, "r-42"); err != nil {
			return nil, err
		}
		return mcp.TextResult(string(answer.Action)), nil
	})

	w := serve(t, srv, investigator)
	w.handshakeWith(mcp.Revision20251125, `{"elicitation":{"form":{},"url":{}}}`)
	w.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}`)
	if req := w.recv(); req != `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"elicitationId":"r-42","message":"Approve the release at the bank","mode":"url","url":"https://approve.bank.example/r/42"}}` {
		t.Fatalf("request: %s", req)
	}
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}`)
	if note := w.recv(); note != `{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"r-42"}}` {
		t.Errorf("completion: %s", note)
	}
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "accept" {
		t.Errorf("result: %s", got)
	}

	for _, tc := range []struct {
		rev        mcp.Revision
		caps, want string
	}{
		{mcp.Revision20251125, `{"elicitation":{}}`, "unavailable=true: mcp: cannot send elicitation/create: the client does not accept url elicitation"},
		{mcp.Revision20250618, `{"elicitation":{"url":{}}}`, "unavailable=true: mcp: cannot send elicitation/create: protocol revision 2025-06-18 has no URL elicitation"},
	} {
		w := serve(t, srv, investigator)
		w.handshakeWith(tc.rev, tc.caps)
		if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`); jget(t, got, "result", "content", 0, "text") != tc.want {
			t.Errorf("%s %s: %s", tc.rev, tc.caps, got)
		}
	}

	// In the stateless era the URL is a question of the result.
	got := serve(t, srv, investigator).call(statelessCall(1, `{"elicitation":{"url":{}}}`, `{}`, ""))
	askedState(t, got, "elicitation-1")
	if jget(t, got, "result", "inputRequests", "elicitation-1", "params", "url") != "https://approve.bank.example/r/42" {
		t.Errorf("stateless URL question: %s", got)
	}
}
