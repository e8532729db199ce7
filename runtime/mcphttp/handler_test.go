package mcphttp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

var (
	investigator = estate.Principal{AgentID: "investigator", Tenant: "wholesale", Scopes: []string{"payments.read"}, MaxClassification: estate.Confidential}
	teller       = estate.Principal{AgentID: "teller", Tenant: "retail", MaxClassification: estate.Internal}
)

// tokens is a test authenticator: bearer "inv" is the investigator,
// "teller" the teller; anything else is refused.
type tokens struct{}

func (tokens) Authenticate(r *http.Request) (estate.Principal, error) {
	tok, err := auth.BearerToken(r)
	if err != nil {
		return estate.Principal{}, err
	}
	switch tok {
	case "inv":
		return investigator, nil
	case "teller":
		return teller, nil
	}
	return estate.Principal{}, &auth.Error{Code: auth.CodeInvalidToken, Description: "unknown token"}
}

// newMCPServer serves payments.lookup (confidential, payments.read) and
// status.ping (public, no scope).
func newMCPServer(t testing.TB) *mcp.Server {
	t.Helper()
	return newMCPServerWith(t, func(*mcp.Options) {})
}

// newMCPServerWith is newMCPServer with its options as set changes them.
func newMCPServerWith(t testing.TB, set func(*mcp.Options)) *mcp.Server {
	t.Helper()
	opts := mcp.Options{Name: "payments", Version: "1.0.0"}
	set(&opts)
	srv, err := mcp.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	bind := func(spec estate.ToolSpec, h mcp.Handler) {
		if err := srv.Bind(spec, mcp.Tool{Handler: h}); err != nil {
			t.Fatal(err)
		}
	}
	bind(estate.ToolSpec{
		Name: "payments.lookup", Version: estate.MustParseVersion("1.0.0"), Title: "Look up a payment", Description: "Status of a payment.",
		InputSchema: schema.MustParseJSON(`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"}},"required":["reference"],"additionalProperties":false}`),
		SideEffect:  estate.Read, RequiredScopes: []string{"payments.read"}, DataClassification: estate.Confidential, Owner: "payments",
	}, func(ctx context.Context, call *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(call.Arguments()["reference"].(string) + ": HELD"), nil
	})
	bind(estate.ToolSpec{
		Name: "status.ping", Version: estate.MustParseVersion("1.0.0"), Title: "Ping", Description: "Liveness.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("pong"), nil })
	return srv
}

// endpoint serves a handler on a loopback test server.
func endpoint(t *testing.T, srv *mcp.Server, opts mcphttp.Options) (*mcphttp.Handler, string) {
	t.Helper()
	h := mcphttp.NewHandler(srv, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	return h, ts.URL + "/mcp"
}

type response struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func do(t *testing.T, method, url string, headers map[string]string, body string) response {
	t.Helper()
	return send(t, method, url, headers, strings.NewReader(body), body != "")
}

// send is do with the body as a reader, JSON when isJSON: a reader net/http
// cannot measure (not a strings.Reader) goes in chunks, with no length
// stated.
func send(t *testing.T, method, url string, headers map[string]string, body io.Reader, isJSON bool) response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if isJSON {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, raw: string(raw)}
	// An object is decoded into body; an array (a batch's answer) is
	// left in raw.
	if len(raw) > 0 && raw[0] == '{' && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			t.Fatalf("%s", raw)
		}
	}
	return r
}

func (r response) errorCode() float64 {
	e, _ := r.body["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

func (r response) result() map[string]any {
	res, _ := r.body["result"].(map[string]any)
	return res
}

func toolNames(r response) []string {
	var names []string
	tools, _ := r.result()["tools"].([]any)
	for _, tool := range tools {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// open initializes a handshake-era session and returns its id.
func open(t *testing.T, url string, headers map[string]string) string {
	t.Helper()
	r := do(t, http.MethodPost, url, headers, initialize)
	id := r.header.Get(mcphttp.HeaderSessionID)
	if r.status != http.StatusOK || id == "" || r.result()["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize: %d %s %s", r.status, id, r.raw)
	}
	h := map[string]string{mcphttp.HeaderSessionID: id}
	for k, v := range headers {
		h[k] = v
	}
	if r := do(t, http.MethodPost, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted || r.raw != "" {
		t.Fatalf("initialized: %d %s", r.status, r.raw)
	}
	return id
}

func TestHandshakeSession(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}})
	bearer := map[string]string{"Authorization": "Bearer inv"}
	id := open(t, url, bearer)
	with := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderSessionID: id, mcphttp.HeaderProtocolVersion: "2025-11-25"}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

	r := do(t, http.MethodPost, url, with, list)
	if r.status != http.StatusOK || strings.Join(toolNames(r), ",") != "payments.lookup,status.ping" {
		t.Fatalf("tools/list: %d %s", r.status, r.raw)
	}
	// Any revision the server speaks is accepted in the header.
	with[mcphttp.HeaderProtocolVersion] = "2025-03-26"
	if r := do(t, http.MethodPost, url, with, list); r.status != http.StatusOK {
		t.Errorf("older header: %d %s", r.status, r.raw)
	}
	for _, v := range []string{"2000-01-01", "not-a-version"} {
		with[mcphttp.HeaderProtocolVersion] = v
		if r := do(t, http.MethodPost, url, with, list); r.status != http.StatusBadRequest {
			t.Errorf("header %s: %d %s", v, r.status, r.raw)
		}
	}
	delete(with, mcphttp.HeaderProtocolVersion)

	if r := do(t, http.MethodPost, url, bearer, list); r.status != http.StatusBadRequest || r.errorCode() != -32600 {
		t.Errorf("without a session id: %d %s", r.status, r.raw)
	}
	if r := do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderSessionID: "nope"}, list); r.status != http.StatusNotFound {
		t.Errorf("unknown session: %d %s", r.status, r.raw)
	}
	// The session is bound to its principal: another caller's token does
	// not reach it.
	if r := do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer teller", mcphttp.HeaderSessionID: id}, list); r.status != http.StatusNotFound {
		t.Errorf("another principal on the session: %d %s", r.status, r.raw)
	}
	// The teller's own session lists what the teller may see.
	tellerID := open(t, url, map[string]string{"Authorization": "Bearer teller"})
	r = do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer teller", mcphttp.HeaderSessionID: tellerID}, list)
	if strings.Join(toolNames(r), ",") != "status.ping" {
		t.Errorf("teller's tools: %s", r.raw)
	}

	if r := do(t, http.MethodDelete, url, with, ""); r.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.status, r.raw)
	}
	if r := do(t, http.MethodPost, url, with, list); r.status != http.StatusNotFound {
		t.Errorf("after DELETE: %d %s", r.status, r.raw)
	}
}

func TestAuthenticationChallenge(t *testing.T) {
	meta := "https://payments.example/.well-known/oauth-protected-resource/mcp"
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, ResourceMetadataURL: meta})
	r := do(t, http.MethodPost, url, nil, initialize)
	if r.status != http.StatusUnauthorized || r.header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+meta+`"` {
		t.Errorf("no token: %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}
	r = do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer forged-token-value"}, initialize)
	challenge := r.header.Get("WWW-Authenticate")
	if r.status != http.StatusUnauthorized || !strings.Contains(challenge, `error="invalid_token"`) || !strings.Contains(challenge, `resource_metadata="`+meta+`"`) {
		t.Errorf("bad token: %d %q", r.status, challenge)
	}
	if strings.Contains(r.raw+challenge, "forged-token-value") {
		t.Error("the answer quotes the token")
	}
}

func TestStatelessRequests(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}})
	body := func(method, params string) string {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		if params != "" {
			meta = params + "," + meta
		}
		return `{"jsonrpc":"2.0","id":"r","method":"` + method + `","params":{` + meta + `}}`
	}
	headers := func(method, name string) map[string]string {
		h := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: method}
		if name != "" {
			h[mcphttp.HeaderName] = name
		}
		return h
	}

	r := do(t, http.MethodPost, url, headers("tools/list", ""), body("tools/list", ""))
	if r.status != http.StatusOK || r.result()["resultType"] != "complete" || r.result()["cacheScope"] != "private" || len(toolNames(r)) != 2 {
		t.Fatalf("tools/list: %d %s", r.status, r.raw)
	}
	if r.header.Get(mcphttp.HeaderSessionID) != "" {
		t.Error("a stateless request got a session")
	}
	call := body("tools/call", `"name":"payments.lookup","arguments":{"reference":"PMT-771"}`)
	r = do(t, http.MethodPost, url, headers("tools/call", "payments.lookup"), call)
	if r.status != http.StatusOK || !strings.Contains(r.raw, "PMT-771: HELD") {
		t.Fatalf("tools/call: %d %s", r.status, r.raw)
	}
	if n := r.header.Get("Content-Length"); n != strconv.Itoa(len(r.raw)) {
		t.Errorf("tools/call: Content-Length %q for a body of %d bytes", n, len(r.raw))
	}
	// Mcp-Name in the Base64 sentinel form.
	if r := do(t, http.MethodPost, url, headers("tools/call", "=?base64?cGF5bWVudHMubG9va3Vw?="), call); r.status != http.StatusOK || !strings.Contains(r.raw, "HELD") {
		t.Errorf("base64 Mcp-Name: %d %s", r.status, r.raw)
	}
	// A name written with an escape is compared as it reads.
	escaped := body("tools/call", `"name":"payments\u002elookup","arguments":{"reference":"PMT-771"}`)
	if r := do(t, http.MethodPost, url, headers("tools/call", "payments.lookup"), escaped); r.status != http.StatusOK || !strings.Contains(r.raw, "HELD") {
		t.Errorf("escaped name: %d %s", r.status, r.raw)
	}
	// Each request is its own principal's.
	teller := headers("tools/list", "")
	teller["Authorization"] = "Bearer teller"
	if r := do(t, http.MethodPost, url, teller, body("tools/list", "")); strings.Join(toolNames(r), ",") != "status.ping" {
		t.Errorf("teller's tools: %s", r.raw)
	}

	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		code    float64
	}{
		{"no version header", map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderMethod: "tools/list"}, body("tools/list", ""), 400, -32020},
		{"header and body differ", map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "tools/list"},
			strings.Replace(body("tools/list", ""), `protocolVersion":"2026-07-28"`, `protocolVersion":"2099-01-01"`, 1), 400, -32020},
		{"header without _meta", headers("tools/list", ""), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400, -32020},
		{"no method header", map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2026-07-28"}, body("tools/list", ""), 400, -32020},
		{"method header differs", headers("prompts/list", ""), body("tools/list", ""), 400, -32020},
		{"no name header", headers("tools/call", ""), call, 400, -32020},
		{"name header differs", headers("tools/call", "status.ping"), call, 400, -32020},
		{"bad base64 name", headers("tools/call", "=?base64?***?="), call, 400, -32020},
		{"unsupported revision", map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2099-01-01", mcphttp.HeaderMethod: "tools/list"},
			strings.Replace(body("tools/list", ""), "2026-07-28", "2099-01-01", 1), 400, -32022},
		{"method of the other era", headers("initialize", ""), body("initialize", `"protocolVersion":"2026-07-28"`), 404, -32601},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, http.MethodPost, url, tc.headers, tc.body)
			if r.status != tc.status || r.errorCode() != tc.code {
				t.Errorf("got %d %s, want %d with %v", r.status, r.raw, tc.status, tc.code)
			}
		})
	}
}

// event reads the next SSE "message" event's data, skipping comments.
func event(t *testing.T, br *bufio.Reader) map[string]any {
	t.Helper()
	var data string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended: %v", err)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "data: "):
			data += strings.TrimPrefix(line, "data: ")
		case line == "" && data != "":
			var m map[string]any
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			return m
		}
	}
}

func stream(t *testing.T, method, url string, headers map[string]string, body string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s: %d %s", method, res.StatusCode, b)
	}
	return res, bufio.NewReader(res.Body)
}

func retire(t *testing.T, srv *mcp.Server) {
	t.Helper()
	if err := srv.Registry().Retire("status.ping", "1.0.0"); err != nil {
		t.Fatal(err)
	}
}

// The GET stream carries list_changed; one sent before it opened is kept
// for it; a second GET is refused.
func TestGetStream(t *testing.T) {
	srv := newMCPServer(t)
	_, url := endpoint(t, srv, mcphttp.Options{})
	id := open(t, url, nil)
	retire(t, srv) // before the stream opens
	sid := map[string]string{mcphttp.HeaderSessionID: id}
	_, br := stream(t, http.MethodGet, url, sid, "")
	if m := event(t, br); m["method"] != "notifications/tools/list_changed" {
		t.Fatalf("pending notification: %v", m)
	}
	if r := do(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id, "Accept": "text/event-stream"}, ""); r.status != http.StatusConflict {
		t.Errorf("second GET: %d %s", r.status, r.raw)
	}
	if err := srv.Registry().Deprecate("payments.lookup", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	if m := event(t, br); m["method"] != "notifications/tools/list_changed" {
		t.Fatalf("live notification: %v", m)
	}
	if r := do(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id, "Accept": "application/json"}, ""); r.status != http.StatusNotAcceptable {
		t.Errorf("GET without event-stream: %d", r.status)
	}
	for v, status := range map[string]int{"2099-01-01": http.StatusBadRequest, "2026-07-28": http.StatusMethodNotAllowed} {
		if r := do(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id, "Accept": "text/event-stream", mcphttp.HeaderProtocolVersion: v}, ""); r.status != status {
			t.Errorf("GET with %s: %d, want %d", v, r.status, status)
		}
	}
}

// openListen opens a stateless subscriptions/listen stream with id "L",
// following tool list changes, and reads its acknowledgement.
func openListen(t *testing.T, url string) *bufio.Reader {
	t.Helper()
	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	_, br := stream(t, http.MethodPost, url, map[string]string{mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "subscriptions/listen"}, listen)
	if m := event(t, br); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first event: %v", m)
	}
	return br
}

// subscriptions/listen streams its acknowledgement and the changes, and is
// answered when the server shuts down.
func TestListen(t *testing.T) {
	srv := newMCPServer(t)
	_, url := endpoint(t, srv, mcphttp.Options{})
	br := openListen(t, url)
	retire(t, srv)
	m := event(t, br)
	meta, _ := m["params"].(map[string]any)["_meta"].(map[string]any)
	if m["method"] != "notifications/tools/list_changed" || meta["io.modelcontextprotocol/subscriptionId"] != "L" {
		t.Fatalf("change: %v", m)
	}
	srv.Close()
	if m := event(t, br); m["id"] != "L" || m["result"] == nil {
		t.Fatalf("final answer: %v", m)
	}
}

// Closing the handler ends a stateless subscriptions/listen stream, whose
// request would otherwise hold its connection past the handler's end.
func TestHandlerCloseEndsListen(t *testing.T) {
	h, url := endpoint(t, newMCPServer(t), mcphttp.Options{})
	br := openListen(t, url)
	ended := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(br)
		ended <- err
	}()
	h.Close()
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the stream ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream was still open 10 s after the handler closed")
	}
}

// A client that accepts only event streams gets each answer as one.
func TestEventStreamOnlyClient(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{})
	_, br := stream(t, http.MethodPost, url, nil, initialize)
	if m := event(t, br); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("%v", m)
	}
}

// In stateless mode the handler keeps nothing between requests, so two
// replicas answer one client's requests alike; the handshake era is
// refused as a modern-only server refuses it.
func TestStatelessModeReplicas(t *testing.T) {
	var urls []string
	for range 2 {
		_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Stateless: true, Authenticator: tokens{}})
		urls = append(urls, url)
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for i := range 4 {
		url := urls[i%2]
		h := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "tools/call", mcphttp.HeaderName: "payments.lookup"}
		r := do(t, http.MethodPost, url, h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-77`+string(rune('0'+i))+`"},`+meta+`}}`)
		if r.status != http.StatusOK || !strings.Contains(r.raw, "HELD") {
			t.Fatalf("replica %d: %d %s", i%2, r.status, r.raw)
		}
	}
	// server/discover lists only the revisions a stateless handler serves:
	// a client may not pick one it would be refused.
	discover := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "server/discover"}
	if r := do(t, http.MethodPost, urls[0], discover, `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+meta+`}}`); fmt.Sprint(r.result()["supportedVersions"]) != "[2026-07-28]" {
		t.Errorf("server/discover: %d %s", r.status, r.raw)
	}
	r := do(t, http.MethodPost, urls[0], map[string]string{"Authorization": "Bearer inv"}, initialize)
	data, _ := r.body["error"].(map[string]any)["data"].(map[string]any)
	if r.status != http.StatusBadRequest || r.errorCode() != -32022 || data["requested"] != "2025-11-25" {
		t.Errorf("initialize: %d %s", r.status, r.raw)
	}
	if r := do(t, http.MethodPost, urls[0], map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderSessionID: "x"}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.status != http.StatusBadRequest || r.errorCode() != -32020 {
		t.Errorf("handshake-era tools/list: %d %s", r.status, r.raw)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if r := do(t, m, urls[1], map[string]string{"Authorization": "Bearer inv", "Accept": "text/event-stream"}, ""); r.status != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d", m, r.status)
		}
	}
}

func TestDNSRebindingProtection(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{AllowedOrigins: []string{"https://console.bank.example"}})
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"evil.example:" + port, "http://evil.example:" + port, 403},
		{"evil.example:" + port, "", 403},
		{"", "http://evil.example", 403},
		{"", "null", 403},
		{"", "http://localhost:" + port, 200},
		{"localhost:" + port, "http://localhost:" + port, 200},
		{"[::1]:" + port, "http://[::1]:" + port, 200},
		// A Host of the default port names none.
		{"LocalHost", "", 200},
		{"[::1]", "", 200},
		{"127.0.0.1", "http://127.0.0.1", 200},
		{"evil.example", "", 403},
		{"[::1].evil.example", "", 403},
		{"", "https://console.bank.example", 200},
		{"", "", 200},
	} {
		h := map[string]string{"Origin": tc.origin}
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		if tc.host != "" {
			req.Host = tc.host
		}
		for k, v := range h {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("Host %q Origin %q: %d, want %d", tc.host, tc.origin, res.StatusCode, tc.status)
		}
	}

	_, url = endpoint(t, newMCPServer(t), mcphttp.Options{AllowedHosts: []string{"payments.bank.example"}})
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
	req.Host = "payments.bank.example"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("allowed host: %v %v", res, err)
	}
	req, _ = http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
	req.Host = "Payments.Bank.Example:8443"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("allowed host with a port: %v %v", res, err)
	}
	if r := do(t, http.MethodPost, url, nil, initialize); r.status != http.StatusForbidden {
		t.Errorf("loopback host not in the list: %d", r.status)
	}
}

func TestRequestLimits(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{MaxBodyBytes: 256})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`
	for _, tc := range []struct {
		name    string
		method  string
		headers map[string]string
		body    string
		status  int
	}{
		{"too large", http.MethodPost, nil, big, 413},
		{"not JSON", http.MethodPost, nil, `{"jsonrpc":`, 400},
		{"wrong content type", http.MethodPost, map[string]string{"Content-Type": "text/plain"}, initialize, 415},
		{"unacceptable", http.MethodPost, map[string]string{"Accept": "text/html"}, initialize, 406},
		{"PUT", http.MethodPut, nil, initialize, 405},
		{"notification", http.MethodPost, nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 400},
		{"response", http.MethodPost, nil, `{"jsonrpc":"2.0","id":9,"result":{}}`, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := do(t, tc.method, url, tc.headers, tc.body); r.status != tc.status {
				t.Errorf("%d %s, want %d", r.status, r.raw, tc.status)
			}
		})
	}
	// A body sent in chunks, with no length stated, is bounded as it is
	// read: past the limit it is refused, within it served. (A reader
	// net/http cannot measure makes the request go in chunks.)
	for body, status := range map[string]int{big: 413, initialize: 200} {
		if r := send(t, http.MethodPost, url, nil, io.MultiReader(strings.NewReader(body)), true); r.status != status {
			t.Errorf("a body of %d bytes in chunks: %d, want %d", len(body), r.status, status)
		}
	}
}

// An idle session expires; a session's requests are answered even when
// the handler is closed under them, and a closed handler refuses new ones.
func TestSessionExpiryAndClose(t *testing.T) {
	h, url := endpoint(t, newMCPServer(t), mcphttp.Options{SessionIdleTimeout: time.Nanosecond})
	id := do(t, http.MethodPost, url, nil, initialize).header.Get(mcphttp.HeaderSessionID)
	time.Sleep(time.Millisecond)
	if r := do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: id}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.status != http.StatusNotFound {
		t.Errorf("expired session: %d %s", r.status, r.raw)
	}
	h.Close()
	if r := do(t, http.MethodPost, url, nil, initialize); r.status != http.StatusServiceUnavailable {
		t.Errorf("after Close: %d", r.status)
	}
}

// A request the tool sends the client (sampling) streams ahead of the
// call's answer, and the client's answer, POSTed on the session, reaches
// the waiting tool.
func TestServerRequestRoundTrip(t *testing.T) {
	srv := newMCPServer(t)
	err := srv.Bind(estate.ToolSpec{
		Name: "ask.model", Version: estate.MustParseVersion("1.0.0"), Title: "Ask", Description: "Asks the client's model.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(ctx context.Context, call *mcp.Call) (*mcp.Result, error) {
		res, err := call.Sample(ctx, mcp.SamplingRequest{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent("hi")}}, MaxTokens: 10})
		if err != nil {
			return nil, err
		}
		return mcp.TextResult("model said " + res.Content.Text), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, url := endpoint(t, srv, mcphttp.Options{})
	r := do(t, http.MethodPost, url, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}}}}`)
	id := r.header.Get(mcphttp.HeaderSessionID)
	sid := map[string]string{mcphttp.HeaderSessionID: id}
	do(t, http.MethodPost, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	_, br := stream(t, http.MethodPost, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask.model","arguments":{}}}`)
	req := event(t, br)
	if req["method"] != "sampling/createMessage" || req["id"] == nil {
		t.Fatalf("first event: %v", req)
	}
	answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req["id"],
		"result": map[string]any{"role": "assistant", "model": "m", "content": map[string]any{"type": "text", "text": "hello"}}})
	if r := do(t, http.MethodPost, url, sid, string(answer)); r.status != http.StatusAccepted {
		t.Fatalf("answer: %d %s", r.status, r.raw)
	}
	res := event(t, br)
	if res["id"] != float64(2) || !strings.Contains(fmt.Sprint(res["result"]), "model said hello") {
		t.Fatalf("call's answer: %v", res)
	}
}

// TestRepeatedMcpHeaderIsRefused: a request naming a tool in Mcp-Name twice
// is refused, not checked against its first value while a gateway may read
// the last; so is any other Mcp-* header sent twice.
func TestRepeatedMcpHeaderIsRefused(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}})
	call := `{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"status.ping","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, tc := range []struct {
		name   string
		header [][2]string
		status int
	}{
		{"once", [][2]string{{mcphttp.HeaderName, "status.ping"}}, http.StatusOK},
		{"Mcp-Name twice", [][2]string{{mcphttp.HeaderName, "status.ping"}, {mcphttp.HeaderName, "payments.release"}}, http.StatusBadRequest},
		{"Mcp-Method twice", [][2]string{{mcphttp.HeaderName, "status.ping"}, {mcphttp.HeaderMethod, "tools/list"}}, http.StatusBadRequest},
		{"Mcp-Protocol-Version twice", [][2]string{{mcphttp.HeaderName, "status.ping"}, {mcphttp.HeaderProtocolVersion, "2026-07-28"}}, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer inv")
			req.Header.Set(mcphttp.HeaderProtocolVersion, "2026-07-28")
			req.Header.Set(mcphttp.HeaderMethod, "tools/call")
			for _, h := range tc.header {
				req.Header.Add(h[0], h[1])
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Errorf("got %d %s, want %d", res.StatusCode, body, tc.status)
			}
			if tc.status == http.StatusBadRequest && !strings.Contains(string(body), "is repeated") {
				t.Errorf("got %s", body)
			}
		})
	}
}

// TestCORS: a browser page of an allowed origin can call the endpoint: its
// preflight is answered without a token, and every answer (a 401
// included) names the origin and exposes the session id and the
// challenge. A foreign origin's preflight is refused.
func TestCORS(t *testing.T) {
	const console = "https://console.bank.example"
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, AllowedOrigins: []string{console}})
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, url, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, mcp-session-id")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := preflight(console)
	allowed := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != console ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(allowed, "authorization") || !strings.Contains(allowed, "mcp-session-id") {
		t.Errorf("preflight: %d %v", res.StatusCode, res.Header)
	}
	if res := preflight("https://evil.example"); res.StatusCode != http.StatusForbidden || res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a foreign preflight: %d %v", res.StatusCode, res.Header)
	}
	r := do(t, http.MethodPost, url, map[string]string{"Origin": console, "Authorization": "Bearer inv"}, initialize)
	if r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != console ||
		!strings.Contains(r.header.Get("Access-Control-Expose-Headers"), mcphttp.HeaderSessionID) {
		t.Errorf("initialize from the console: %d %v", r.status, r.header)
	}
	r = do(t, http.MethodPost, url, map[string]string{"Origin": console}, initialize)
	if r.status != http.StatusUnauthorized || r.header.Get("Access-Control-Allow-Origin") != console ||
		!strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("a 401 to the console: %d %v", r.status, r.header)
	}
}

// A tool call whose handler overruns its deadline is answered at the
// deadline, over the connection, while the handler still runs: the
// answer is written and flushed from the server's watch, not when the
// request's goroutine returns, and the connection is not offered for the
// next request (its goroutine is still the handler's). Both eras; JSON
// answers (read whole: the body must be complete) and event streams (read
// to the answer's event).
func TestOverrunningCallIsAnsweredAtItsDeadline(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Options{Name: "payments", Version: "1.0.0", CallTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	started, release := make(chan struct{}, 4), make(chan struct{})
	err = srv.Bind(estate.ToolSpec{
		Name: "status.linger", Version: estate.MustParseVersion("1.0.0"), Title: "Linger", Description: "Ignores its deadline.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		started <- struct{}{}
		<-release
		return mcp.TextResult("late"), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, url := endpoint(t, srv, mcphttp.Options{Authenticator: tokens{}})
	defer close(release)

	stateless := map[string]string{mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "tools/call", mcphttp.HeaderName: "status.linger"}
	statelessCall := `{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"status.linger","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	id := open(t, url, map[string]string{"Authorization": "Bearer inv"})
	session := map[string]string{mcphttp.HeaderSessionID: id, mcphttp.HeaderProtocolVersion: "2025-11-25"}
	sessionCall := `{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"status.linger","arguments":{}}}`
	type answer struct {
		contentType, text string
		closes            bool // the server closes the connection after it
		err               error
	}
	post := func(accept string, headers map[string]string, body string) (a answer) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer inv")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return answer{err: err}
		}
		defer res.Body.Close()
		a.contentType, a.closes = res.Header.Get("Content-Type"), res.Close
		if a.contentType == "application/json" {
			b, err := io.ReadAll(res.Body)
			a.text, a.err = string(b), err
			return a
		}
		br := bufio.NewReader(res.Body)
		for !strings.HasPrefix(a.text, "data: ") && a.err == nil {
			a.text, a.err = br.ReadString('\n')
		}
		return a
	}
	for _, c := range []struct {
		era, accept string
		headers     map[string]string
		body        string
	}{
		{"stateless", "application/json", stateless, statelessCall},
		{"stateless", "text/event-stream", stateless, statelessCall},
		{"handshake", "application/json", session, sessionCall},
		{"handshake", "application/json, text/event-stream", session, sessionCall},
	} {
		got := make(chan answer, 1)
		go func() { got <- post(c.accept, c.headers, c.body) }()
		<-started
		var a answer
		select {
		case a = <-got:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s, %s: no answer while the handler runs", c.era, c.accept)
		}
		if a.err != nil || !strings.HasPrefix(c.accept, a.contentType) || !strings.Contains(a.text, "tool failed: deadline exceeded") {
			t.Errorf("%s, %s: %v %s %s", c.era, c.accept, a.err, a.contentType, a.text)
		}
		if a.contentType == "application/json" && !a.closes {
			t.Errorf("%s, %s: the connection is offered for the next request", c.era, c.accept)
		}
	}
}
