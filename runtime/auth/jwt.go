package auth

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// JWTConfig configures the JWT bearer authenticator.
type JWTConfig struct {
	// Issuer is the authorization server; a token's iss must equal it.
	Issuer string
	// Audience is this resource server; a token's aud must name it
	// (RFC 8707: a token issued for another server is refused).
	Audience string
	// The verification keys: a JWKS URL (fetched at start, refreshed
	// hourly and when a token names an unknown key id), or one public key
	// (ParsePublicKeyPEM), not both.
	JWKSURL   string
	PublicKey crypto.PublicKey
	// Algorithms are the signature algorithms accepted; nil means the
	// asymmetric ones (RS*, PS*, ES*, EdDSA). "none" and the HMAC family
	// are refused whatever this says: a resource server holds no secret.
	Algorithms []string
	// Leeway is the clock skew tolerated on exp, nbf and iat.
	Leeway time.Duration
	// Types are the token types accepted, as the JOSE header's typ names
	// them (compared as RFC 7515 says: without case, "application/"
	// optional; "" is a token without typ). Nil means RFC 9068's one type
	// of access token, "at+jwt": an ID token or any other JWT the issuer
	// signed, presented as an access token, is refused. An issuer that
	// does not mark its access tokens needs Types to list what it writes
	// ("JWT", or "").
	Types []string
	// Claims names the claims the principal is read from.
	Claims ClaimNames
	// HTTPClient fetches the JWKS; nil means one with a 10 s timeout.
	HTTPClient *http.Client
	// Logger receives JWKS refresh failures; nil discards them.
	Logger *slog.Logger
	// CacheSize bounds the tokens whose verification the authenticator
	// remembers, so that a client presenting the same token on every
	// request pays for its signature once; zero means DefaultCacheSize, a
	// negative size remembers none and verifies every request's token.
	CacheSize int
	// CacheFor bounds how long one verification is remembered (never past
	// the token's expiry); zero means DefaultCacheFor. It is how long a
	// token signed by a key the issuer withdrew may still be honoured
	// after the key set was fetched again.
	CacheFor time.Duration
}

// ClaimNames maps token claims to the principal. Empty names take the
// defaults shown.
type ClaimNames struct {
	// AgentID is the calling agent's id: "sub".
	AgentID string
	// Tenant is the caller's tenant: "tenant". It may be absent (the
	// caller then reaches only tools open to every tenant).
	Tenant string
	// Scopes are the scopes held: "scope", a space-separated string as
	// RFC 8693 and RFC 9068 write it, or an array of strings.
	Scopes string
	// Clearance is the caller's classification clearance: "clearance". It
	// is required and must name a classification: a token without one is
	// refused rather than given a default.
	Clearance string
}

func (c ClaimNames) withDefaults() ClaimNames {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&c.AgentID, "sub")
	def(&c.Tenant, "tenant")
	def(&c.Scopes, "scope")
	def(&c.Clearance, "clearance")
	return c
}

// DefaultAlgorithms are the signature algorithms accepted when
// JWTConfig.Algorithms is nil.
var DefaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// JWT authenticates requests by a JWT bearer token (RFC 9068 style):
// signature, issuer, audience, expiry (required) and not-before are
// verified, then the principal is read from the claims. The principals of
// tokens that verified are remembered for a while (JWTConfig.CacheSize
// and CacheFor): a token is the same text on every request of its client,
// and its verification gives the same answer until it expires or the
// issuer's keys change.
type JWT struct {
	parser *jwt.Parser
	keys   jwt.Keyfunc
	claims ClaimNames
	types  []string // normalised (see mediaType)
	cache  *tokenCache
	now    func() time.Time // the parser's clock and the cache's
}

// NewJWT builds the authenticator. With a JWKS URL it fetches the key set
// now, so that a wrong URL is an error at start rather than a 401 for every
// caller, and refreshes it in the background until ctx is done.
func NewJWT(ctx context.Context, cfg JWTConfig) (*JWT, error) {
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("auth: a JWT authenticator needs an issuer and an audience")
	}
	algs := cfg.Algorithms
	if algs == nil {
		algs = DefaultAlgorithms
	}
	for _, a := range algs {
		if a == "none" || strings.HasPrefix(a, "HS") {
			return nil, fmt.Errorf("auth: algorithm %s is not accepted: a resource server verifies with public keys", a)
		}
	}
	j := &JWT{
		claims: cfg.Claims.withDefaults(),
		types:  []string{"at+jwt"},
		cache:  newTokenCache(cfg.CacheSize, cfg.CacheFor),
		now:    time.Now,
	}
	j.parser = jwt.NewParser(
		jwt.WithValidMethods(algs),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithAudience(cfg.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithTimeFunc(func() time.Time { return j.now() }),
	)
	if cfg.Types != nil {
		j.types = nil
		for _, t := range cfg.Types {
			j.types = append(j.types, mediaType(t))
		}
	}
	switch {
	case cfg.JWKSURL != "" && cfg.PublicKey != nil:
		return nil, errors.New("auth: give a JWKS URL or a public key, not both")
	case cfg.PublicKey != nil:
		key := cfg.PublicKey
		j.keys = func(*jwt.Token) (any, error) { return key, nil }
	case cfg.JWKSURL != "":
		client := cfg.HTTPClient
		if client == nil {
			client = &http.Client{Timeout: 10 * time.Second}
		}
		logger := oplog.Logger(cfg.Logger)
		failFirst := false
		kf, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{cfg.JWKSURL}, keyfunc.Override{
			Client:                    client,
			NoErrorReturnFirstHTTPReq: &failFirst,
			RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
				return func(ctx context.Context, err error) {
					logger.LogAttrs(ctx, slog.LevelError, "JWKS refresh failed", slog.String("url", u), slog.String("error", err.Error()))
				}
			},
		})
		if err != nil {
			return nil, fmt.Errorf("auth: JWKS %s: %w", cfg.JWKSURL, err)
		}
		j.keys = kf.Keyfunc
	default:
		return nil, errors.New("auth: a JWT authenticator needs a JWKS URL or a public key")
	}
	return j, nil
}

// ParsePublicKeyPEM reads a PEM "PUBLIC KEY" block (PKIX: RSA, ECDSA or
// Ed25519), as `openssl pkey -pubout` writes it.
func ParsePublicKeyPEM(data []byte) (crypto.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, errors.New("auth: no PEM PUBLIC KEY block")
	}
	return x509.ParsePKIXPublicKey(block.Bytes)
}

// Authenticate verifies the request's bearer token and maps its claims to a
// principal, or returns the principal remembered for the same token.
func (j *JWT) Authenticate(r *http.Request) (estate.Principal, error) {
	raw, err := BearerToken(r)
	if err != nil {
		return estate.Principal{}, err
	}
	if j.cache != nil {
		if d, ok := digest(raw); ok {
			return j.remembered(raw, d)
		}
	}
	p, _, err := j.verify(raw)
	return p, err
}

// remembered is Authenticate of raw, a token of digest d, through the
// cache: the principal remembered for it, or the outcome of its
// verification, which another request presenting it may be making
// already (then this one waits for it), remembered when it verified.
func (j *JWT) remembered(raw string, d tokenDigest) (estate.Principal, error) {
	now := j.now()
	p, v, mine := j.cache.lookUp(d, now)
	switch {
	case v == nil:
		return p, nil
	case !mine:
		<-v.done
		return v.p, v.err
	}
	// Ended however verify returns: a verification that panicked must
	// not leave the requests waiting for it waiting for ever.
	v.err = errVerificationFailed
	defer j.cache.end(d, v, now)
	v.p, v.exp, v.err = j.verify(raw)
	return v.p, v.err
}

// errVerificationFailed is the outcome the requests waiting for a
// verification are given when it ended without one (a panic, which the
// transport's safety net answers for its own request).
var errVerificationFailed = &Error{Code: CodeInvalidToken, Description: "the token could not be verified"}

// verify verifies raw, a token, and maps its claims to a principal; exp is
// when the token expires.
func (j *JWT) verify(raw string) (p estate.Principal, exp time.Time, err error) {
	claims := jwt.MapClaims{}
	tok, err := j.parser.ParseWithClaims(raw, claims, j.keys)
	if err != nil {
		return estate.Principal{}, time.Time{}, &Error{Code: CodeInvalidToken, Description: rejection(err)}
	}
	if reason := j.checkHeader(tok.Header); reason != "" {
		return estate.Principal{}, time.Time{}, &Error{Code: CodeInvalidToken, Description: reason}
	}
	if p, err = j.principal(claims); err != nil {
		return estate.Principal{}, time.Time{}, err
	}
	// The parser required exp and read it.
	if e, err := claims.GetExpirationTime(); err == nil && e != nil {
		exp = e.Time
	}
	return p, exp, nil
}

// checkHeader applies the rules of the JOSE header the library leaves to
// its user, once the signature is verified: why the token is refused, ""
// when it is not.
//
// RFC 7515 §4.1.11: a token whose crit lists extensions the recipient does
// not understand is invalid; this server understands none, so any crit is
// refused. RFC 9068 §4: an access token's typ is at+jwt (see
// JWTConfig.Types).
func (j *JWT) checkHeader(h map[string]any) string {
	if _, present := h["crit"]; present {
		return "the token requires header extensions (crit) this server does not support"
	}
	typ, _ := h["typ"].(string)
	if _, present := h["typ"]; present && typ == "" {
		return "the token's type (typ) is not a string"
	}
	if !slices.Contains(j.types, mediaType(typ)) {
		return "the token is not an access token: its type (typ) must be at+jwt (RFC 9068)"
	}
	return ""
}

// mediaType is a typ value as RFC 7515 §4.1.9 compares it: without case,
// and with "application/" left out when it was written.
func mediaType(typ string) string {
	typ = strings.ToLower(typ)
	return strings.TrimPrefix(typ, "application/")
}

// rejection names why a token was refused, from the library's error kinds
// only: the library's own text may quote parts of the token.
func rejection(err error) string {
	for _, k := range []struct {
		kind error
		text string
	}{
		{jwt.ErrTokenMalformed, "the token is malformed"},
		{jwt.ErrTokenSignatureInvalid, "the token's signature is invalid"},
		{jwt.ErrTokenUnverifiable, "the token cannot be verified with this server's keys"},
		{jwt.ErrTokenExpired, "the token has expired"},
		{jwt.ErrTokenNotValidYet, "the token is not valid yet"},
		{jwt.ErrTokenUsedBeforeIssued, "the token is used before it was issued"},
		{jwt.ErrTokenInvalidIssuer, "the token was issued by another issuer"},
		{jwt.ErrTokenInvalidAudience, "the token was issued for another audience"},
		{jwt.ErrTokenRequiredClaimMissing, "the token lacks a required claim"},
		{jwt.ErrTokenInvalidClaims, "the token's claims are invalid"},
	} {
		if errors.Is(err, k.kind) {
			return k.text
		}
	}
	return "the token is invalid"
}

func (j *JWT) principal(claims jwt.MapClaims) (estate.Principal, error) {
	invalid := func(format string, args ...any) (estate.Principal, error) {
		return estate.Principal{}, &Error{Code: CodeInvalidToken, Description: fmt.Sprintf(format, args...)}
	}
	agent, _ := claims[j.claims.AgentID].(string)
	if agent == "" {
		return invalid("claim %q (the agent id) is missing", j.claims.AgentID)
	}
	p := estate.Principal{AgentID: agent}
	if v, present := claims[j.claims.Tenant]; present {
		tenant, ok := v.(string)
		if !ok {
			return invalid("claim %q (the tenant) must be a string", j.claims.Tenant)
		}
		p.Tenant = tenant
	}
	scopes, ok := stringList(claims[j.claims.Scopes])
	if !ok {
		return invalid("claim %q (the scopes) must be a space-separated string or an array of strings", j.claims.Scopes)
	}
	p.Scopes = scopes
	clearance, _ := claims[j.claims.Clearance].(string)
	c, err := estate.ParseClassification(clearance)
	if err != nil {
		return invalid("claim %q (the clearance) must name a classification", j.claims.Clearance)
	}
	p.MaxClassification = c
	// Normalised once here: the principal is remembered with its token,
	// and every request's checks then read its scopes as they are.
	return p.Normalized(), nil
}

// stringList reads a scope claim: absent, a space-separated string, or an
// array of strings.
func stringList(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		return strings.Fields(v), true
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
