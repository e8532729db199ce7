package interop

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/runtime/client/sdkclient"
)

// authServer is an OAuth 2.1 authorization server for one user, enough
// for an MCP client's authorization code flow: metadata (RFC 8414),
// dynamic client registration (RFC 7591), an authorization endpoint that
// approves at once (the user has signed in), a token endpoint that checks
// PKCE (RFC 7636) and issues RS256 access tokens (RFC 9068), and the
// JWKS the service verifies them with.
type authServer struct {
	*httptest.Server
	key    *rsa.PrivateKey
	claims jwt.MapClaims // the user's: sub, tenant, scope, clearance

	mu        sync.Mutex
	clients   map[string]string // client_id -> its one redirect URI
	codes     map[string]grant  // authorization code -> what it grants
	resources []string          // the resource indicators asked for (RFC 8707)
	issued    int               // access tokens issued
	refused   []string          // why requests were refused
}

type grant struct {
	clientID, redirectURI, challenge, resource string
}

// newAuthServer starts an authorization server whose user holds claims.
func newAuthServer(t *testing.T, claims jwt.MapClaims) *authServer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	as := &authServer{key: key, claims: claims, clients: map[string]string{}, codes: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", as.metadata)
	mux.HandleFunc("POST /register", as.register)
	mux.HandleFunc("GET /authorize", as.authorize)
	mux.HandleFunc("POST /token", as.token)
	mux.HandleFunc("GET /jwks", as.jwks)
	as.Server = httptest.NewServer(mux)
	t.Cleanup(as.Close)
	return as
}

// args are the service flags that trust this server's tokens, its keys
// fetched from its JWKS.
func (as *authServer) args() []string {
	return []string{"-jwt-issuer", as.URL, "-jwt-audience", audience, "-jwks-url", as.URL + "/jwks"}
}

func (as *authServer) refuse(w http.ResponseWriter, code, why string) {
	as.mu.Lock()
	as.refused = append(as.refused, why)
	as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": why})
}

func (as *authServer) metadata(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"issuer":                                as.URL,
		"authorization_endpoint":                as.URL + "/authorize",
		"token_endpoint":                        as.URL + "/token",
		"registration_endpoint":                 as.URL + "/register",
		"jwks_uri":                              as.URL + "/jwks",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
	})
}

func (as *authServer) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.RedirectURIs) != 1 {
		as.refuse(w, "invalid_client_metadata", "one redirect URI")
		return
	}
	id := random()
	as.mu.Lock()
	as.clients[id] = req.RedirectURIs[0]
	as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs,
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code"}})
}

// authorize approves at once, as a signed-in user would: it redirects to
// the client's redirect URI with a code bound to the PKCE challenge.
func (as *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	redirect, known := as.clients[q.Get("client_id")]
	as.mu.Unlock()
	switch {
	case !known || q.Get("redirect_uri") != redirect:
		as.refuse(w, "invalid_request", "unknown client or redirect URI")
		return
	case q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		as.refuse(w, "invalid_request", "a code with an S256 PKCE challenge")
		return
	}
	code := random()
	as.mu.Lock()
	as.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource")}
	as.mu.Unlock()
	to, _ := url.Parse(redirect)
	v := to.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	to.RawQuery = v.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

func (as *authServer) token(w http.ResponseWriter, r *http.Request) {
	if r.ParseForm() != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		as.refuse(w, "unsupported_grant_type", "authorization_code only")
		return
	}
	as.mu.Lock()
	g, ok := as.codes[r.PostForm.Get("code")]
	delete(as.codes, r.PostForm.Get("code")) // a code is used once
	as.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case !ok || g.clientID != r.PostForm.Get("client_id") || g.redirectURI != r.PostForm.Get("redirect_uri"):
		as.refuse(w, "invalid_grant", "unknown code, or another client's")
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		as.refuse(w, "invalid_grant", "the code verifier does not match the challenge")
		return
	}
	now := time.Now()
	claims := jwt.MapClaims{"iss": as.URL, "aud": audience, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "client_id": g.clientID}
	for k, v := range as.claims {
		claims[k] = v
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["typ"] = "at+jwt"
	tok.Header["kid"] = "test"
	signed, err := tok.SignedString(as.key)
	if err != nil {
		as.refuse(w, "server_error", err.Error())
		return
	}
	as.mu.Lock()
	as.issued++
	as.resources = append(as.resources, g.resource)
	as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{"access_token": signed, "token_type": "Bearer", "expires_in": 3600})
}

func (as *authServer) jwks(w http.ResponseWriter, _ *http.Request) {
	pub := as.key.PublicKey
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "kid": "test", "use": "sig", "alg": "RS256",
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}

// record reports what the server did: tokens issued, the resources they
// were asked for, and every refusal.
func (as *authServer) record() (issued int, resources, refused []string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.issued, append([]string(nil), as.resources...), append([]string(nil), as.refused...)
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// oauthHandler is the SDK's authorization code handler as a host would
// configure it: dynamic registration with a loopback redirect URI; the
// code is read from the redirect the authorization server sends.
func oauthHandler(t *testing.T) auth.OAuthHandler {
	t.Helper()
	const redirect = "http://127.0.0.1:8976/callback"
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		RedirectURL: redirect,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirect}, ClientName: "interop"},
		},
		AuthorizationCodeFetcher: sdkclient.CodeFromRedirect,
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
