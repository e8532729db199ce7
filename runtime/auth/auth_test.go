package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

const (
	issuer   = "https://idp.bank.example"
	audience = "https://payments.bank.example/mcp"
)

func request(token string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

func validClaims() jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"iss": issuer, "aud": audience, "sub": "payments-investigator",
		"tenant": "wholesale", "scope": "payments.read crm.write", "clearance": "confidential",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// sign signs an access token (typ at+jwt) with kid, when not "", in its
// header, and the header entries of edit (a nil value removes one).
func sign(t testing.TB, method jwt.SigningMethod, key any, claims jwt.MapClaims, kid string, edit ...map[string]any) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	tok.Header["typ"] = "at+jwt"
	if kid != "" {
		tok.Header["kid"] = kid
	}
	for _, e := range edit {
		for k, v := range e {
			if v == nil {
				delete(tok.Header, k)
			} else {
				tok.Header[k] = v
			}
		}
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJWTMapsClaimsToPrincipal(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	a, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Authenticate(request(sign(t, jwt.SigningMethodRS256, key, validClaims(), "")))
	if err != nil {
		t.Fatal(err)
	}
	// The scopes sorted, each once (estate.Principal.Normalized).
	want := estate.Principal{AgentID: "payments-investigator", Tenant: "wholesale", Scopes: []string{"crm.write", "payments.read"}, MaxClassification: estate.Confidential}
	if p.AgentID != want.AgentID || p.Tenant != want.Tenant || !slices.Equal(p.Scopes, want.Scopes) || p.MaxClassification != want.MaxClassification {
		t.Fatalf("principal %+v, want %+v", p, want)
	}

	// Custom claim names, scopes as an array, EdDSA.
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	a, err = auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: pub,
		Claims: auth.ClaimNames{AgentID: "azp", Tenant: "org", Scopes: "scp", Clearance: "max_class"}})
	if err != nil {
		t.Fatal(err)
	}
	c := jwt.MapClaims{"iss": issuer, "aud": []string{"other", audience}, "azp": "agent-7", "org": "retail",
		"scp": []string{"crm.write"}, "max_class": "internal", "exp": time.Now().Add(time.Minute).Unix()}
	p, err = a.Authenticate(request(sign(t, jwt.SigningMethodEdDSA, priv, c, "")))
	if err != nil || p.AgentID != "agent-7" || p.Tenant != "retail" || !slices.Equal(p.Scopes, []string{"crm.write"}) || p.MaxClassification != estate.Internal {
		t.Fatalf("principal %+v, %v", p, err)
	}
}

// Every refusal is an invalid_token *Error whose text never contains the
// token.
func TestJWTRefusals(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	a, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	with := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := validClaims()
		edit(c)
		return c
	}
	for _, tc := range []struct {
		name, token, want string
	}{
		{"expired", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Minute).Unix() }), ""), "expired"},
		{"no exp", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { delete(c, "exp") }), ""), "required claim"},
		{"not yet valid", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["nbf"] = time.Now().Add(time.Hour).Unix() }), ""), "not valid yet"},
		{"other issuer", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["iss"] = "https://evil.example" }), ""), "another issuer"},
		{"other audience", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["aud"] = "https://crm.bank.example/mcp" }), ""), "another audience"},
		{"other key", sign(t, jwt.SigningMethodRS256, other, validClaims(), ""), "signature is invalid"},
		{"hmac with the public key as secret", sign(t, jwt.SigningMethodHS256, x509.MarshalPKCS1PublicKey(&key.PublicKey), validClaims(), ""), "signature is invalid"},
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, validClaims(), ""), "signature is invalid"},
		{"garbage", "not.a.jwt", "malformed"},
		{"no subject", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { delete(c, "sub") }), ""), `"sub"`},
		{"no clearance", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { delete(c, "clearance") }), ""), `"clearance"`},
		{"unknown clearance", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["clearance"] = "top-secret" }), ""), `"clearance"`},
		{"scope of numbers", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["scope"] = []any{1, 2} }), ""), `"scope"`},
		{"tenant not a string", sign(t, jwt.SigningMethodRS256, key, with(func(c jwt.MapClaims) { c["tenant"] = 7 }), ""), `"tenant"`},
		{"a critical extension", sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"crit": []string{"exp2"}, "exp2": 1}), "(crit)"},
		{"an empty crit", sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"crit": []string{}}), "(crit)"},
		{"typ JWT", sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"typ": "JWT"}), "at+jwt"},
		{"an ID token's typ", sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"typ": "id_token+jwt"}), "at+jwt"},
		{"no typ", sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"typ": nil}), "at+jwt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Authenticate(request(tc.token))
			var e *auth.Error
			if !errors.As(err, &e) || e.Code != auth.CodeInvalidToken || e.Status() != http.StatusUnauthorized {
				t.Fatalf("err = %v, want an invalid_token *auth.Error", err)
			}
			if !strings.Contains(e.Description, tc.want) {
				t.Errorf("description %q does not say %q", e.Description, tc.want)
			}
			for _, part := range strings.Split(tc.token, ".") {
				if len(part) > 8 && strings.Contains(err.Error(), part) {
					t.Errorf("error %q quotes the token", err)
				}
			}
		})
	}
}

func TestBearerToken(t *testing.T) {
	_, err := auth.BearerToken(request(""))
	if err != auth.ErrNoToken {
		t.Errorf("no header: %v", err)
	}
	for _, h := range [][]string{{"Basic dXNlcjpwYXNz"}, {"Bearer "}, {"Bearer a", "Bearer b"}} {
		r := request("")
		for _, v := range h {
			r.Header.Add("Authorization", v)
		}
		_, err := auth.BearerToken(r)
		if e := auth.AsError(err); e.Code != auth.CodeInvalidRequest || e.Status() != http.StatusBadRequest {
			t.Errorf("%q: %v", h, err)
		}
	}
	r := request("")
	r.Header.Set("Authorization", "bearer tok-123")
	if tok, err := auth.BearerToken(r); err != nil || tok != "tok-123" {
		t.Errorf("lower-case scheme: %q %v", tok, err)
	}
}

func TestNewJWTRefusesBadConfig(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for name, cfg := range map[string]auth.JWTConfig{
		"no issuer":   {Audience: audience, PublicKey: &key.PublicKey},
		"no audience": {Issuer: issuer, PublicKey: &key.PublicKey},
		"no keys":     {Issuer: issuer, Audience: audience},
		"both keys":   {Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey, JWKSURL: "http://127.0.0.1:1/jwks"},
		"hmac":        {Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey, Algorithms: []string{"HS256"}},
		"none":        {Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey, Algorithms: []string{"none"}},
	} {
		if _, err := auth.NewJWT(context.Background(), cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A JWKS served over HTTP: the key is picked by kid; an unreachable JWKS is
// an error at start.
func TestJWTWithJWKS(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b64 := func(n *big.Int) string { return base64.RawURLEncoding.EncodeToString(n.FillBytes(make([]byte, 32))) }
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{
		"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig",
		"x": b64(key.X), "y": b64(key.Y),
	}}})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(jwks)
	}))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := auth.NewJWT(ctx, auth.JWTConfig{Issuer: issuer, Audience: audience, JWKSURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Authenticate(request(sign(t, jwt.SigningMethodES256, key, validClaims(), "k1")))
	if err != nil || p.AgentID != "payments-investigator" {
		t.Fatalf("principal %+v, %v", p, err)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if _, err := a.Authenticate(request(sign(t, jwt.SigningMethodES256, other, validClaims(), "k1"))); err == nil {
		t.Error("a token signed by another key was accepted")
	}

	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	if _, err := auth.NewJWT(ctx, auth.JWTConfig{Issuer: issuer, Audience: audience, JWKSURL: dead.URL}); err == nil {
		t.Error("an unreachable JWKS was accepted at start")
	}
}

func TestParsePublicKeyPEM(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	got, err := auth.ParsePublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	if err != nil || !key.PublicKey.Equal(got) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := auth.ParsePublicKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})); err == nil {
		t.Error("a private key block was accepted")
	}
}

func TestChallenge(t *testing.T) {
	meta := "https://payments.bank.example/.well-known/oauth-protected-resource/mcp"
	for _, tc := range []struct {
		err  error
		want string
	}{
		{auth.ErrNoToken, `Bearer resource_metadata="` + meta + `"`},
		{&auth.Error{Code: auth.CodeInvalidToken, Description: `the "token" has expired`}, `Bearer resource_metadata="` + meta + `", error="invalid_token", error_description="the \"token\" has expired"`},
		{errors.New("boom\n"), `Bearer resource_metadata="` + meta + `", error="invalid_token", error_description="boom?"`},
	} {
		h := http.Header{}
		auth.Challenge(h, tc.err, meta)
		if got := h.Get("WWW-Authenticate"); got != tc.want {
			t.Errorf("challenge\n got %s\nwant %s", got, tc.want)
		}
	}
	h := http.Header{}
	auth.Challenge(h, auth.ErrNoToken, "")
	if got := h.Get("WWW-Authenticate"); got != "Bearer" {
		t.Errorf("without metadata: %s", got)
	}
}

func TestMetadataURL(t *testing.T) {
	for resource, want := range map[string]string{
		"https://payments.bank.example/mcp":      "https://payments.bank.example/.well-known/oauth-protected-resource/mcp",
		"https://payments.bank.example":          "https://payments.bank.example/.well-known/oauth-protected-resource",
		"https://payments.bank.example/":         "https://payments.bank.example/.well-known/oauth-protected-resource",
		"http://127.0.0.1:8080/a/mcp?x=1":        "http://127.0.0.1:8080/.well-known/oauth-protected-resource/a/mcp",
		"not a url":                              "",
		"https://payments.bank.example/mcp/#top": "https://payments.bank.example/.well-known/oauth-protected-resource/mcp",
	} {
		if got := auth.MetadataURL(resource); got != want {
			t.Errorf("MetadataURL(%q) = %q, want %q", resource, got, want)
		}
	}
}

func TestResourceMetadataDocument(t *testing.T) {
	m := &auth.ResourceMetadata{Resource: audience, AuthorizationServers: []string{issuer}, ScopesSupported: []string{"payments.read"}}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, auth.WellKnownPath, nil))
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if doc["resource"] != audience || doc["authorization_servers"].([]any)[0] != issuer || doc["bearer_methods_supported"].([]any)[0] != "header" {
		t.Errorf("document %v", doc)
	}
	rec = httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, auth.WellKnownPath, nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

func TestInsecure(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	j, _ := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey})
	if !auth.IsInsecure(nil) || !auth.IsInsecure(auth.Static{}) || auth.IsInsecure(j) {
		t.Error("IsInsecure")
	}
}

// TestJWTTypes: an access token's typ is compared as RFC 7515 says (case
// and "application/" aside); JWTConfig.Types widens what is accepted for an
// issuer that does not mark its access tokens.
func TestJWTTypes(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	strict, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: &key.PublicKey, Types: []string{"JWT", ""}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ            any
		strict, legacy bool
	}{
		{"at+jwt", true, false},
		{"application/at+jwt", true, false},
		{"AT+JWT", true, false},
		{"JWT", false, true},
		{"jwt", false, true},
		{nil, false, true},
		{"id_token+jwt", false, false},
	} {
		tok := sign(t, jwt.SigningMethodRS256, key, validClaims(), "", map[string]any{"typ": tc.typ})
		if _, err := strict.Authenticate(request(tok)); (err == nil) != tc.strict {
			t.Errorf("typ %v, default types: %v", tc.typ, err)
		}
		if _, err := legacy.Authenticate(request(tok)); (err == nil) != tc.legacy {
			t.Errorf("typ %v, types JWT and none: %v", tc.typ, err)
		}
	}
}
