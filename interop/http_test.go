package interop

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// post sends one JSON-RPC message and decodes a JSON answer.
func post(t *testing.T, endpoint string, headers map[string]string, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var msg map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		json.NewDecoder(res.Body).Decode(&msg)
	}
	return res, msg
}

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"curl","version":"0"}}`

// A raw 2026-07-28 request: no handshake, the revision in _meta and in the
// headers, each request authenticated on its own.
func TestRawStatelessRequest(t *testing.T) {
	iss := newIssuer(t)
	svc := startHTTP(t, iss.args()...)
	headers := func(token, method, name string) map[string]string {
		h := map[string]string{"Authorization": "Bearer " + token, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
		if name != "" {
			h["Mcp-Name"] = name
		}
		return h
	}

	res, msg := post(t, svc.url, headers(iss.investigator(t), "server/discover", ""), `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+statelessMeta+`}}`)
	result, _ := msg["result"].(map[string]any)
	if res.StatusCode != 200 || result["resultType"] != "complete" || !slices.Contains(result["supportedVersions"].([]any), any("2026-07-28")) {
		t.Fatalf("server/discover: %d %v", res.StatusCode, msg)
	}

	res, msg = post(t, svc.url, headers(iss.investigator(t), "tools/list", ""), `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`)
	result, _ = msg["result"].(map[string]any)
	if res.StatusCode != 200 || result["cacheScope"] != "private" || result["ttlMs"] == nil || len(result["tools"].([]any)) != 2 {
		t.Fatalf("tools/list: %d %v", res.StatusCode, msg)
	}
	if res.Header.Get("Mcp-Session-Id") != "" {
		t.Error("a stateless request was given a session")
	}

	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-772","as_of":"` + snapshotDate + `"},` + statelessMeta + `}}`
	res, msg = post(t, svc.url, headers(iss.investigator(t), "tools/call", "payments.lookup"), call)
	result, _ = msg["result"].(map[string]any)
	if res.StatusCode != 200 || result["isError"] != false || !strings.Contains(string(must(json.Marshal(result["content"]))), "PMT-772: SETTLED") {
		t.Fatalf("tools/call: %d %v", res.StatusCode, msg)
	}
	// The teller is not entitled to the lookup: the same answer as for a
	// tool that does not exist.
	res, msg = post(t, svc.url, headers(iss.teller(t), "tools/call", "payments.lookup"), call)
	if e, _ := msg["error"].(map[string]any); res.StatusCode != 200 || e["code"] != float64(-32601) {
		t.Errorf("teller's call: %d %v", res.StatusCode, msg)
	}
	// A header that disagrees with the body is refused before dispatch.
	res, msg = post(t, svc.url, headers(iss.investigator(t), "tools/call", "crm.notes.append"), call)
	if e, _ := msg["error"].(map[string]any); res.StatusCode != 400 || e["code"] != float64(-32020) {
		t.Errorf("mismatched Mcp-Name: %d %v", res.StatusCode, msg)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The HTTP security rules: DNS-rebinding protection, the 401 challenge,
// tokens verified (signature, expiry), and no token in the logs.
func TestHTTPSecurity(t *testing.T) {
	iss := newIssuer(t)
	svc := startHTTP(t, iss.args()...)
	base := strings.TrimSuffix(svc.url, "/mcp")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`
	valid := iss.investigator(t)
	forged := newIssuer(t).investigator(t) // signed by a key the server does not trust
	expired := iss.token(t, "payments-investigator", "wholesale", "payments.read", "confidential", func(c jwt.MapClaims) {
		c["iat"] = time.Now().Add(-2 * time.Hour).Unix()
		c["exp"] = time.Now().Add(-time.Hour).Unix()
	})
	otherAudience := iss.token(t, "payments-investigator", "wholesale", "payments.read", "confidential", func(c jwt.MapClaims) { c["aud"] = "https://crm.bank.example/mcp" })

	res, _ := post(t, svc.url, map[string]string{"Authorization": "Bearer " + valid, "Origin": "http://evil.example"}, initialize)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: %d", res.StatusCode)
	}

	metadata := base + "/.well-known/oauth-protected-resource/mcp"
	res, _ = post(t, svc.url, nil, initialize)
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+metadata+`"` {
		t.Errorf("no token: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	for name, tok := range map[string]string{"forged": forged, "expired": expired, "other audience": otherAudience, "garbage": "abc.def.ghi"} {
		res, _ = post(t, svc.url, map[string]string{"Authorization": "Bearer " + tok}, initialize)
		challenge := res.Header.Get("WWW-Authenticate")
		if res.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `error="invalid_token"`) || !strings.Contains(challenge, `resource_metadata="`+metadata+`"`) {
			t.Errorf("%s token: %d %q", name, res.StatusCode, challenge)
		}
	}
	res, msg := post(t, svc.url, map[string]string{"Authorization": "Bearer " + valid}, initialize)
	if res.StatusCode != 200 || res.Header.Get("Mcp-Session-Id") == "" || msg["result"] == nil {
		t.Errorf("valid token: %d %v", res.StatusCode, msg)
	}

	// The metadata document the challenge names tells the client where
	// tokens come from.
	mres, err := http.Get(metadata)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	json.NewDecoder(mres.Body).Decode(&doc)
	mres.Body.Close()
	if doc.Resource != svc.url || !slices.Equal(doc.AuthorizationServers, []string{issuerURL}) {
		t.Errorf("metadata: %+v", doc)
	}

	svc.stop(t)
	logs := svc.logs.String()
	if !strings.Contains(logs, `"msg":"request not authenticated"`) || !strings.Contains(logs, `"msg":"http request"`) {
		t.Fatalf("the service logged no requests:\n%s", logs)
	}
	for name, tok := range map[string]string{"valid": valid, "forged": forged, "expired": expired, "other audience": otherAudience} {
		for _, part := range strings.Split(tok, ".") {
			if strings.Contains(logs, part) {
				t.Errorf("the %s token appears in the service's logs", name)
			}
		}
	}
}

// roundRobin sends each request to the next of several replicas, the way
// a load balancer without affinity does, and counts what each served. A
// replica marked down (its health check failed) gets no more.
type roundRobin struct {
	mu      sync.Mutex
	targets []*url.URL
	next    int
	served  []int
	down    map[int]bool
}

func (rr *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	rr.mu.Lock()
	i := rr.next
	for rr.down[i] {
		i = (i + 1) % len(rr.targets)
	}
	rr.next = (i + 1) % len(rr.targets)
	rr.served[i]++
	rr.mu.Unlock()
	r = r.Clone(r.Context())
	r.URL.Host = rr.targets[i].Host
	r.Host = rr.targets[i].Host
	return http.DefaultTransport.RoundTrip(r)
}

// Two independent stateless replicas behind one client: every request may
// reach either, and the session holds.
func TestStatelessReplicas(t *testing.T) {
	iss := newIssuer(t)
	rr := &roundRobin{}
	for range 2 {
		svc := startHTTP(t, append(iss.args(), "-stateless")...)
		rr.targets = append(rr.targets, must(url.Parse(svc.url)))
		rr.served = append(rr.served, 0)
	}
	ctx := timeout(t)
	transport := &sdk.StreamableClientTransport{Endpoint: rr.targets[0].String(), HTTPClient: &http.Client{Transport: bearer{token: iss.investigator(t), next: rr}}, MaxRetries: -1}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "interop", Version: "1.0.0"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult().ProtocolVersion != "2026-07-28" {
		t.Fatalf("negotiated %s", cs.InitializeResult().ProtocolVersion)
	}
	for i := range 4 {
		if got := toolNames(t, ctx, cs); !slices.Equal(got, []string{"crm.notes.append", "payments.lookup"}) {
			t.Fatalf("tools/list %d: %v", i, got)
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.lookup", Arguments: map[string]any{"reference": "PMT-771", "as_of": snapshotDate}})
		if err != nil || res.IsError {
			t.Fatalf("tools/call %d: %+v %v", i, res, err)
		}
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.served[0] == 0 || rr.served[1] == 0 {
		t.Errorf("requests per replica: %v", rr.served)
	}

	// A handshake-era client is told which revisions a stateless server
	// speaks.
	res, msg := post(t, rr.targets[1].String(), map[string]string{"Authorization": "Bearer " + iss.investigator(t)},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	e, _ := msg["error"].(map[string]any)
	if res.StatusCode != 400 || e["code"] != float64(-32022) {
		t.Errorf("initialize on a stateless replica: %d %v", res.StatusCode, msg)
	}
	supported, _ := e["data"].(map[string]any)["supported"].([]any)

	// server/discover advertises exactly the revisions the replica
	// accepts: the ones initialize's refusal lists, and each of them is
	// served when a request names it.
	discover := `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + statelessMeta + `}}`
	res, msg = post(t, rr.targets[0].String(), map[string]string{"Authorization": "Bearer " + iss.investigator(t),
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}, discover)
	result, _ := msg["result"].(map[string]any)
	advertised, _ := result["supportedVersions"].([]any)
	if res.StatusCode != 200 || len(advertised) == 0 || !slices.Equal(advertised, supported) {
		t.Fatalf("server/discover on a stateless replica: %d %v (initialize's refusal lists %v)", res.StatusCode, msg, supported)
	}
	for _, v := range advertised {
		rev := v.(string)
		body := strings.Replace(discover, `"protocolVersion":"2026-07-28"`, `"protocolVersion":"`+rev+`"`, 1)
		res, msg := post(t, rr.targets[0].String(), map[string]string{"Authorization": "Bearer " + iss.investigator(t),
			"MCP-Protocol-Version": rev, "Mcp-Method": "server/discover"}, body)
		if res.StatusCode != 200 || msg["result"] == nil {
			t.Errorf("server/discover naming the advertised %s: %d %v", rev, res.StatusCode, msg)
		}
	}
}

// The service refuses to start over HTTP without authentication unless it
// is a local development server, and a development server anywhere but on
// loopback.
func TestHTTPStartRefusals(t *testing.T) {
	iss := newIssuer(t)
	for name, args := range map[string][]string{
		"no authenticator":            {"-addr", "127.0.0.1:0"},
		"issuer without keys":         {"-addr", "127.0.0.1:0", "-jwt-issuer", issuerURL, "-jwt-audience", audience},
		"dev on every interface":      append([]string{"-addr", "0.0.0.0:0", "-insecure-dev"}, investigatorFlags...),
		"dev with a JWT issuer":       append(append([]string{"-addr", "127.0.0.1:0", "-insecure-dev"}, investigatorFlags...), iss.args()...),
		"dev without a principal":     {"-addr", "127.0.0.1:0", "-insecure-dev"},
		"exposed without a host list": append([]string{"-addr", "0.0.0.0:0"}, iss.args()...),
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(binary, append([]string{"-transport", "http"}, args...)...)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 || strings.Contains(string(out), `"msg":"serving"`) {
				t.Errorf("started or failed otherwise: %v\n%s", err, out)
			}
		})
	}
}
