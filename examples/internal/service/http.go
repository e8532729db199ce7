package service

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// HTTPConfig configures the Streamable HTTP transport (-transport http).
// The server authenticates every request by a JWT bearer token (issuer,
// audience and keys from the flags) unless it is declared a local
// development server with -insecure-dev: then every request acts as the
// principal of -agent, -tenant, -scopes and -clearance, and only a
// loopback address is accepted.
type HTTPConfig struct {
	Addr           string
	InsecureDev    bool
	Stateless      bool
	Resource       string
	AllowedHosts   string
	AllowedOrigins string
	// The JWT authenticator: issuer, audience, and a JWKS URL or a PEM
	// public key file; Claims names the claims read.
	JWTIssuer, JWTAudience, JWKSURL, JWTKeyFile string
	Claims                                      auth.ClaimNames
	// JWTTypes are the token types accepted (comma-separated typ values).
	JWTTypes string
	// The transport's bounds (mcphttp.Options); zero means its defaults.
	MaxInFlight, MaxInFlightPerCaller, MaxSessions, MaxSessionsPerCaller, MaxStreams, MaxStreamsPerCaller int
}

func (h *HTTPConfig) flags(fs *flag.FlagSet, env func(string) string) {
	str := func(p *string, name, envName, def, usage string) {
		fs.StringVar(p, name, EnvOr(env(envName), def), "http: "+usage+" (env "+env(envName)+")")
	}
	boolean := func(p *bool, name, envName, usage string) {
		def, _ := strconv.ParseBool(os.Getenv(env(envName)))
		fs.BoolVar(p, name, def, "http: "+usage+" (env "+env(envName)+")")
	}
	str(&h.Addr, "addr", "ADDR", mcphttp.DefaultAddr, "the address to listen on")
	boolean(&h.InsecureDev, "insecure-dev", "INSECURE_DEV", "a local development server: no authentication, every request acts as the -agent principal; loopback addresses only")
	boolean(&h.Stateless, "stateless", "STATELESS", "serve the stateless protocol era only, holding no state between requests, so that replicas can share a load balancer")
	str(&h.Resource, "resource", "RESOURCE", "", "this server's URL as clients reach it, named in the OAuth protected resource metadata (default http://<addr>/mcp)")
	str(&h.AllowedHosts, "allowed-hosts", "ALLOWED_HOSTS", "", "comma-separated host names requests may be addressed to (default: loopback names only)")
	str(&h.AllowedOrigins, "allowed-origins", "ALLOWED_ORIGINS", "", "comma-separated browser origins allowed, as scheme://host[:port]")
	number := func(p *int, name, envName, usage string) {
		def, _ := strconv.Atoi(os.Getenv(env(envName)))
		fs.IntVar(p, name, def, "http: "+usage+" (env "+env(envName)+")")
	}
	zero := func(def int) string { return " (0: " + strconv.Itoa(def) + ")" }
	number(&h.MaxInFlight, "max-in-flight", "MAX_IN_FLIGHT", "requests served at once; more wait a moment, then get 503"+zero(mcphttp.DefaultMaxInFlight))
	number(&h.MaxInFlightPerCaller, "max-in-flight-per-caller", "MAX_IN_FLIGHT_PER_CALLER", "requests of one agent served at once; more wait a moment, then get 503"+zero(mcphttp.DefaultMaxInFlightPerCaller))
	number(&h.MaxSessions, "max-sessions", "MAX_SESSIONS", "handshake-era sessions; an initialize past it gets 503"+zero(mcphttp.DefaultMaxSessions))
	number(&h.MaxSessionsPerCaller, "max-sessions-per-caller", "MAX_SESSIONS_PER_CALLER", "sessions of one agent; its next initialize ends its least recently used one"+zero(mcphttp.DefaultMaxSessionsPerCaller))
	number(&h.MaxStreams, "max-streams", "MAX_STREAMS", "open event streams, GET and subscriptions/listen together"+zero(mcphttp.DefaultMaxStreams))
	number(&h.MaxStreamsPerCaller, "max-streams-per-caller", "MAX_STREAMS_PER_CALLER", "open event streams of one agent"+zero(mcphttp.DefaultMaxStreamsPerCaller))
	str(&h.JWTIssuer, "jwt-issuer", "JWT_ISSUER", "", "the issuer (iss) bearer tokens must carry")
	str(&h.JWTAudience, "jwt-audience", "JWT_AUDIENCE", "", "the audience (aud) bearer tokens must name")
	str(&h.JWKSURL, "jwks-url", "JWKS_URL", "", "the issuer's JWKS URL")
	str(&h.JWTKeyFile, "jwt-key-file", "JWT_KEY_FILE", "", "a PEM public key file verifying tokens, instead of -jwks-url")
	str(&h.JWTTypes, "jwt-types", "JWT_TYPES", "at+jwt", "comma-separated token types (the JWT header's typ) accepted as access tokens: at+jwt (RFC 9068), or what an issuer that does not mark its access tokens writes (JWT)")
	str(&h.Claims.AgentID, "jwt-agent-claim", "JWT_AGENT_CLAIM", "sub", "the claim naming the calling agent")
	str(&h.Claims.Tenant, "jwt-tenant-claim", "JWT_TENANT_CLAIM", "tenant", "the claim naming the caller's tenant")
	str(&h.Claims.Scopes, "jwt-scopes-claim", "JWT_SCOPES_CLAIM", "scope", "the claim listing the caller's scopes")
	str(&h.Claims.Clearance, "jwt-clearance-claim", "JWT_CLEARANCE_CLAIM", "clearance", "the claim naming the caller's clearance")
}

// Serve serves srv over Streamable HTTP until ctx is done, then shuts down
// gracefully. dev is the principal of a development server.
func (h *HTTPConfig) Serve(ctx context.Context, srv *mcp.Server, dev estate.Principal, logger *slog.Logger) error {
	opts := mcphttp.Options{
		Stateless:            h.Stateless,
		AllowedHosts:         list(h.AllowedHosts),
		AllowedOrigins:       list(h.AllowedOrigins),
		MaxInFlight:          h.MaxInFlight,
		MaxInFlightPerCaller: h.MaxInFlightPerCaller,
		MaxSessions:          h.MaxSessions,
		MaxSessionsPerCaller: h.MaxSessionsPerCaller,
		MaxStreams:           h.MaxStreams,
		MaxStreamsPerCaller:  h.MaxStreamsPerCaller,
		Logger:               logger,
	}
	var issuers []string
	if h.InsecureDev {
		if h.JWTIssuer != "" || h.JWKSURL != "" || h.JWTKeyFile != "" {
			return errors.New("-insecure-dev authenticates nobody: drop the -jwt-* and -jwks-url flags, or -insecure-dev")
		}
		opts.Authenticator = auth.Static{Principal: dev}
	} else {
		a, err := h.authenticator(ctx, logger)
		if err != nil {
			return err
		}
		opts.Authenticator, issuers = a, []string{h.JWTIssuer}
	}
	s, err := mcphttp.NewServer(srv, mcphttp.Config{Addr: h.Addr, Handler: opts, InsecureDev: h.InsecureDev, Resource: h.Resource, AuthorizationServers: issuers})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", h.Addr)
	if err != nil {
		return err
	}
	logger.Info("serving", "transport", "http", "addr", ln.Addr().String(), "stateless", h.Stateless, "insecure_dev", h.InsecureDev)
	return s.Serve(ctx, ln)
}

func (h *HTTPConfig) authenticator(ctx context.Context, logger *slog.Logger) (auth.Authenticator, error) {
	if h.JWTIssuer == "" || h.JWTAudience == "" || (h.JWKSURL == "") == (h.JWTKeyFile == "") {
		return nil, errors.New("-transport http authenticates bearer tokens: give -jwt-issuer, -jwt-audience and one of -jwks-url and -jwt-key-file (or -insecure-dev for a local development server)")
	}
	cfg := auth.JWTConfig{Issuer: h.JWTIssuer, Audience: h.JWTAudience, JWKSURL: h.JWKSURL, Claims: h.Claims, Types: list(h.JWTTypes), Logger: logger}
	if h.JWTKeyFile != "" {
		data, err := os.ReadFile(h.JWTKeyFile)
		if err != nil {
			return nil, err
		}
		if cfg.PublicKey, err = auth.ParsePublicKeyPEM(data); err != nil {
			return nil, fmt.Errorf("-jwt-key-file %s: %v", h.JWTKeyFile, err)
		}
	}
	return auth.NewJWT(ctx, cfg)
}

// list splits a comma-separated flag value.
func list(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}
