package reliability

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

const tokenIssuer = "https://issuer.bank.test"

// httpRig is the bank's server behind mcphttp.Server on a loopback port,
// authenticating JWT bearer tokens signed by a key of the test's own.
type httpRig struct {
	t        testing.TB
	srv      *mcp.Server
	logs     *logSink // the MCP server's log
	httpLogs *logSink // the transport's log
	addr     string   // host:port
	url      string   // the endpoint
	key      *ecdsa.PrivateKey
	client   *http.Client
	stop     context.CancelFunc
	served   chan error

	mu     sync.Mutex
	tokens []string // every token handed out, valid or not
}

// startHTTP serves srv (from bankServer) over HTTP; adjust tunes the
// server's configuration.
func startHTTP(t testing.TB, srv *mcp.Server, logs *logSink, adjust func(*mcphttp.Config)) *httpRig {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rig := &httpRig{t: t, srv: srv, logs: logs, httpLogs: &logSink{}, addr: ln.Addr().String(), key: key, served: make(chan error, 1)}
	rig.url = "http://" + rig.addr + "/mcp"
	authn, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: tokenIssuer, Audience: rig.url, PublicKey: &key.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	cfg := mcphttp.Config{
		Addr: rig.addr,
		Handler: mcphttp.Options{
			Authenticator: authn,
			Logger:        slog.New(slog.NewJSONHandler(rig.httpLogs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		},
		Resource: rig.url,
	}
	if adjust != nil {
		adjust(&cfg)
	}
	hs, err := mcphttp.NewServer(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	rig.stop = stop
	go func() { rig.served <- hs.Serve(ctx, ln) }()
	rig.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	t.Cleanup(rig.shutdown)
	return rig
}

// shutdown stops the server and waits for Serve to return; it may be
// called more than once.
func (r *httpRig) shutdown() {
	r.stop()
	if r.served != nil {
		select {
		case err := <-r.served:
			if err != nil {
				r.t.Errorf("Serve: %v", err)
			}
		case <-time.After(guard):
			r.t.Error("Serve did not return after shutdown")
		}
		r.served = nil
	}
	r.client.CloseIdleConnections()
}

// claims are a valid token's claims for p.
func (r *httpRig) claims(p estate.Principal) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"iss": tokenIssuer, "aud": r.url, "sub": p.AgentID, "tenant": p.Tenant,
		"scope": strings.Join(p.Scopes, " "), "clearance": string(p.MaxClassification),
		"iat": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// sign signs claims with key (the rig's when nil) as an access token (typ
// at+jwt, RFC 9068), with the entries of header added to its header, and
// remembers the token.
func (r *httpRig) sign(claims jwt.MapClaims, method jwt.SigningMethod, key any, header ...map[string]any) string {
	r.t.Helper()
	if key == nil {
		key = r.key
	}
	jt := jwt.NewWithClaims(method, claims)
	jt.Header["typ"] = "at+jwt"
	for _, h := range header {
		maps.Copy(jt.Header, h)
	}
	tok, err := jt.SignedString(key)
	if err != nil {
		r.t.Fatal(err)
	}
	r.remember(tok)
	return tok
}

func (r *httpRig) remember(tok string) {
	r.mu.Lock()
	r.tokens = append(r.tokens, tok)
	r.mu.Unlock()
}

// token is a valid token for p.
func (r *httpRig) token(p estate.Principal) string {
	return r.sign(r.claims(p), jwt.SigningMethodES256, nil)
}

// httpAnswer is a response as the tests compare it.
type httpAnswer struct {
	status int
	header http.Header
	body   string
}

// post sends body with the headers given (name, value pairs; an empty
// value removes the header); Accept, Content-Type and Host default to what
// a well-behaved client sends.
func (r *httpRig) post(ctx context.Context, token, body string, headers ...string) (httpAnswer, error) {
	return r.send(ctx, http.MethodPost, token, body, headers...)
}

// send is post with another HTTP method.
func (r *httpRig) send(ctx context.Context, method, token, body string, headers ...string) (httpAnswer, error) {
	return r.sendBody(ctx, method, token, strings.NewReader(body), headers...)
}

// sendBody is send with the body read from body (a *bytes.Reader or
// *strings.Reader, whose length the request states).
func (r *httpRig) sendBody(ctx context.Context, method, token string, body io.Reader, headers ...string) (httpAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, method, r.url, body)
	if err != nil {
		return httpAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return httpAnswer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return httpAnswer{}, err
	}
	return httpAnswer{resp.StatusCode, resp.Header, string(bytes.TrimSpace(data))}, nil
}

// statelessHeaders are the headers a stateless-era request must carry.
func statelessHeaders(method, name string) []string {
	h := []string{mcphttp.HeaderProtocolVersion, string(mcp.Revision20260728), mcphttp.HeaderMethod, method}
	if name != "" {
		h = append(h, mcphttp.HeaderName, name)
	}
	return h
}

// statelessBody is a stateless-era request: params (an object's text,
// without _meta) with the revision and capabilities added to its _meta.
func statelessBody(id, method, params string) string {
	var p map[string]any
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		panic(err)
	}
	meta, _ := p["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[mcp.MetaProtocolVersion] = string(mcp.Revision20260728)
	meta[mcp.MetaClientCapabilities] = map[string]any{}
	p["_meta"] = meta
	b, err := jsonrpc.Marshal(p)
	if err != nil {
		panic(err)
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + string(b) + `}`
}

// httpSession is a handshake-era session over HTTP.
type httpSession struct {
	rig   *httpRig
	token string
	id    string
}

// openSession initializes a session in rev for the token's principal.
func (r *httpRig) openSession(token string, rev mcp.Revision) (*httpSession, error) {
	ans, err := r.post(context.Background(), token, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"`+string(rev)+`","capabilities":{},"clientInfo":{"name":"reliability","version":"1"}}}`)
	if err != nil {
		return nil, err
	}
	id := ans.header.Get(mcphttp.HeaderSessionID)
	if ans.status != http.StatusOK || id == "" {
		return nil, errAnswerMismatch("initialize", ans.body, "a session")
	}
	s := &httpSession{rig: r, token: token, id: id}
	ack, err := s.post(context.Background(), `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil {
		return nil, err
	}
	if ack.status != http.StatusAccepted {
		return nil, errAnswerMismatch("notifications/initialized", ack.body, "202")
	}
	return s, nil
}

func (s *httpSession) post(ctx context.Context, body string) (httpAnswer, error) {
	return s.rig.post(ctx, s.token, body, mcphttp.HeaderSessionID, s.id)
}

// call posts body on the session and returns the answer's body, which must
// come with status 200.
func (s *httpSession) call(body string) (string, error) {
	return s.callBytes([]byte(body))
}

// callBytes is call for a body the caller has as bytes, which it does not
// copy.
func (s *httpSession) callBytes(body []byte) (string, error) {
	ans, err := s.rig.sendBody(context.Background(), http.MethodPost, s.token, bytes.NewReader(body), mcphttp.HeaderSessionID, s.id)
	if err != nil {
		return "", err
	}
	if ans.status != http.StatusOK {
		return "", errAnswerMismatch(string(body), ans.body, "status 200")
	}
	return ans.body, nil
}
