package service

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/fleet"
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
	// JWTCacheSize and JWTCacheFor bound the verified tokens remembered
	// (auth.JWTConfig.CacheSize and CacheFor); zero means their defaults.
	JWTCacheSize int
	JWTCacheFor  time.Duration
	// The transport's bounds (mcphttp.Options); zero means its defaults.
	MaxInFlight, MaxInFlightPerCaller, MaxSessions, MaxSessionsPerCaller, MaxStreams, MaxStreamsPerCaller int
	// PollAfter closes a long request's event stream for its client to
	// poll (mcphttp.Options.PollAfter); zero never does.
	PollAfter time.Duration
}

func (h *HTTPConfig) flags(fs *flag.FlagSet, env Env) {
	zero := func(def int) string { return " (0: " + strconv.Itoa(def) + ")" }
	env.StringVar(fs, &h.Addr, "addr", mcphttp.DefaultAddr, "http: the address to listen on")
	env.BoolVar(fs, &h.InsecureDev, "insecure-dev", "http: a local development server: no authentication, every request acts as the -agent principal; loopback addresses only")
	env.BoolVar(fs, &h.Stateless, "stateless", "http: serve the stateless protocol era only, holding no state between requests, so that replicas can share a load balancer")
	env.StringVar(fs, &h.Resource, "resource", "", "http: this server's URL as clients reach it, named in the OAuth protected resource metadata (default http://<addr>/mcp)")
	env.StringVar(fs, &h.AllowedHosts, "allowed-hosts", "", "http: comma-separated host names requests may be addressed to (default: loopback names only)")
	env.StringVar(fs, &h.AllowedOrigins, "allowed-origins", "", "http: comma-separated browser origins allowed, as scheme://host[:port]")
	env.IntVar(fs, &h.MaxInFlight, "max-in-flight", 0, "http: requests served at once; more wait a moment, then get 503"+zero(mcphttp.DefaultMaxInFlight))
	env.IntVar(fs, &h.MaxInFlightPerCaller, "max-in-flight-per-caller", 0, "http: requests of one agent served at once; more wait a moment, then get 503"+zero(mcphttp.DefaultMaxInFlightPerCaller))
	env.IntVar(fs, &h.MaxSessions, "max-sessions", 0, "http: handshake-era sessions; an initialize past it gets 503"+zero(mcphttp.DefaultMaxSessions))
	env.IntVar(fs, &h.MaxSessionsPerCaller, "max-sessions-per-caller", 0, "http: sessions of one agent; its next initialize ends its least recently used one"+zero(mcphttp.DefaultMaxSessionsPerCaller))
	env.IntVar(fs, &h.MaxStreams, "max-streams", 0, "http: open event streams, GET and subscriptions/listen together"+zero(mcphttp.DefaultMaxStreams))
	env.IntVar(fs, &h.MaxStreamsPerCaller, "max-streams-per-caller", 0, "http: open event streams of one agent"+zero(mcphttp.DefaultMaxStreamsPerCaller))
	env.DurationVar(fs, &h.PollAfter, "poll-after", 0, "http: close the event stream of a request still running after this long, for the client to reconnect with Last-Event-ID for the rest (2025-11-25 sessions; 0: never)")
	env.StringVar(fs, &h.JWTIssuer, "jwt-issuer", "", "http: the issuer (iss) bearer tokens must carry")
	env.StringVar(fs, &h.JWTAudience, "jwt-audience", "", "http: the audience (aud) bearer tokens must name")
	env.StringVar(fs, &h.JWKSURL, "jwks-url", "", "http: the issuer's JWKS URL")
	env.StringVar(fs, &h.JWTKeyFile, "jwt-key-file", "", "http: a PEM public key file verifying tokens, instead of -jwks-url")
	env.StringVar(fs, &h.JWTTypes, "jwt-types", "at+jwt", "http: comma-separated token types (the JWT header's typ) accepted as access tokens: at+jwt (RFC 9068), or what an issuer that does not mark its access tokens writes (JWT)")
	env.IntVar(fs, &h.JWTCacheSize, "jwt-cache-size", 0, "http: verified tokens remembered, so that a client's token is verified once, not on every request"+zero(auth.DefaultCacheSize)+"; -1: none")
	env.DurationVar(fs, &h.JWTCacheFor, "jwt-cache-for", 0, "http: how long a token's verification is remembered at most (never past its expiry), and so how long a key withdrawn from the JWKS may still be honoured (0: "+auth.DefaultCacheFor.String()+")")
	env.StringVar(fs, &h.Claims.AgentID, "jwt-agent-claim", "sub", "http: the claim naming the calling agent")
	env.StringVar(fs, &h.Claims.Tenant, "jwt-tenant-claim", "tenant", "http: the claim naming the caller's tenant")
	env.StringVar(fs, &h.Claims.Scopes, "jwt-scopes-claim", "scope", "http: the claim listing the caller's scopes")
	env.StringVar(fs, &h.Claims.Clearance, "jwt-clearance-claim", "clearance", "http: the claim naming the caller's clearance")
}

// server builds the Streamable HTTP server of srv: JWT bearer tokens
// authenticate each request (RFC 9728 metadata names the issuer), or, on a
// development server, every request acts as dev. routes serves the
// operator's paths beside the endpoint; ready gates the endpoint; store
// keeps the resumable streams' events, and the sessions too when it is
// shared by replicas.
func (h *HTTPConfig) server(ctx context.Context, srv *mcp.Server, dev estate.Principal, logger *slog.Logger, routes http.Handler, ready func() bool, store fleet.Store, shared bool) (*mcphttp.Server, error) {
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
		PollAfter:            h.PollAfter,
		Events:               store.Events(),
		Logger:               logger,
	}
	if shared {
		opts.Sessions = store
	}
	var issuers []string
	if h.InsecureDev {
		if h.JWTIssuer != "" || h.JWKSURL != "" || h.JWTKeyFile != "" {
			return nil, errors.New("-insecure-dev authenticates nobody: drop the -jwt-* and -jwks-url flags, or -insecure-dev")
		}
		opts.Authenticator = auth.Static{Principal: dev}
	} else {
		a, err := h.authenticator(ctx, logger)
		if err != nil {
			return nil, err
		}
		opts.Authenticator, issuers = a, []string{h.JWTIssuer}
	}
	return mcphttp.NewServer(srv, mcphttp.Config{
		Addr: h.Addr, Handler: opts, InsecureDev: h.InsecureDev, Resource: h.Resource, AuthorizationServers: issuers,
		Routes: routes, Ready: ready,
	})
}

func (h *HTTPConfig) authenticator(ctx context.Context, logger *slog.Logger) (auth.Authenticator, error) {
	if h.JWTIssuer == "" || h.JWTAudience == "" || (h.JWKSURL == "") == (h.JWTKeyFile == "") {
		return nil, errors.New("-transport http authenticates bearer tokens: give -jwt-issuer, -jwt-audience and one of -jwks-url and -jwt-key-file (or -insecure-dev for a local development server)")
	}
	cfg := auth.JWTConfig{Issuer: h.JWTIssuer, Audience: h.JWTAudience, JWKSURL: h.JWKSURL, Claims: h.Claims, Types: list(h.JWTTypes), Logger: logger,
		CacheSize: h.JWTCacheSize, CacheFor: h.JWTCacheFor}
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
