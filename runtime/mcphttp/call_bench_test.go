package mcphttp_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/internal/memhttp"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// BenchmarkServedCall is one tools/call through the endpoint's Handler,
// called in process one after another, with neither a connection nor a
// client on the clock. "handler" is the Handler as NewHandler makes it,
// its calls without a timeout, as the bench module's HTTP rows serve;
// "service" is what a service runs: every request under a Server's drain
// (WithDrain) and a connection's cancellable context, and every call with
// a service's default 30 s timeout. What the second costs above the first
// is the price of the service's contexts on every call. "service-jwt" is
// the service authenticating every request by its RS256 bearer token, as a
// service that is not a development server does (auth.JWT with its
// defaults): the same token on every request, as a client sends it;
// "service-jwt-uncached" verifies the token's signature on every request
// (JWTConfig.CacheSize -1), what every request paid before verifications
// were remembered.
func BenchmarkServedCall(b *testing.B) {
	for _, era := range []string{"handshake", "stateless"} {
		for _, setup := range []string{"handler", "service", "service-jwt", "service-jwt-uncached"} {
			b.Run("era="+era+"/setup="+setup, func(b *testing.B) {
				var timeout time.Duration
				base := context.Background()
				var authn auth.Authenticator = auth.Static{Principal: investigator}
				header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
				if setup != "handler" {
					timeout = 30 * time.Second
					drain, cancel := context.WithCancel(context.Background())
					b.Cleanup(cancel)
					base = mcphttp.WithDrain(drain)
				}
				if strings.HasPrefix(setup, "service-jwt") {
					var token string
					cacheSize := 0
					if setup == "service-jwt-uncached" {
						cacheSize = -1
					}
					authn, token = bearer(b, investigator, cacheSize)
					header.Set("Authorization", "Bearer "+token)
				}
				srv := newMCPServerWith(b, func(opts *mcp.Options) { opts.CallTimeout = timeout })
				h := mcphttp.NewHandler(srv, mcphttp.Options{Authenticator: authn})
				b.Cleanup(func() { h.Close() })
				w := &memhttp.Writer{}
				body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`
				if era == "stateless" {
					header.Set(mcphttp.HeaderProtocolVersion, "2026-07-28")
					header.Set(mcphttp.HeaderMethod, "tools/call")
					header.Set(mcphttp.HeaderName, "payments.lookup")
					body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},` +
						`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
				} else {
					if status := post(w, base, h, header, initialize); status != http.StatusOK {
						b.Fatalf("initialize: %d %s", status, w.Body.Bytes())
					}
					header.Set(mcphttp.HeaderSessionID, w.Header().Get(mcphttp.HeaderSessionID))
					header.Set(mcphttp.HeaderProtocolVersion, "2025-11-25")
					if status := post(w, base, h, header, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
						b.Fatalf("initialized: %d %s", status, w.Body.Bytes())
					}
				}
				want := []byte("PMT-771: HELD")
				b.ReportAllocs()
				for b.Loop() {
					if status := post(w, base, h, header, body); status != http.StatusOK || !bytes.Contains(w.Body.Bytes(), want) {
						b.Fatalf("tools/call: %d %.600s", status, w.Body.Bytes())
					}
				}
			})
		}
	}
}

// post is w.Post of body under a cancellable context of base, as a
// connection's request is.
func post(w *memhttp.Writer, base context.Context, h http.Handler, header http.Header, body string) int {
	ctx, cancel := context.WithCancel(base)
	defer cancel()
	return w.Post(ctx, h, header, []byte(body))
}

// bearer is a JWT authenticator with its defaults but cacheSize (see
// auth.JWTConfig.CacheSize), verifying RS256 tokens of a key made here,
// and an access token of p's it accepts.
func bearer(b *testing.B, p estate.Principal, cacheSize int) (*auth.JWT, string) {
	b.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		b.Fatal(err)
	}
	const iss, aud = "https://idp.bank.example", "https://payments.bank.example/mcp"
	a, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: iss, Audience: aud, PublicKey: &key.PublicKey, CacheSize: cacheSize})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": iss, "aud": aud, "sub": p.AgentID, "tenant": p.Tenant,
		"scope": strings.Join(p.Scopes, " "), "clearance": string(p.MaxClassification),
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	tok.Header["typ"] = "at+jwt"
	token, err := tok.SignedString(key)
	if err != nil {
		b.Fatal(err)
	}
	return a, token
}
