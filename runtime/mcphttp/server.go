package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// Defaults of Config.
const (
	DefaultAddr              = "127.0.0.1:8080"
	DefaultPath              = "/mcp"
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultShutdownTimeout   = 10 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
)

// Config configures a Server. The zero value is refused: a server needs an
// authenticator, or must be declared a local development server.
type Config struct {
	// Addr is where ListenAndServe listens; "" means DefaultAddr.
	Addr string
	// Path is the MCP endpoint; "" means DefaultPath.
	Path string
	// Handler configures the endpoint: authenticator, allow-lists,
	// limits, stateless mode, logger.
	Handler Options
	// InsecureDev declares a local development server: it may run
	// without an authenticator (or with auth.Static), and then only on a
	// loopback address.
	InsecureDev bool
	// Resource identifies this protected resource: the endpoint's URL as
	// clients reach it, which tokens name as their audience. "" means
	// http://<listen address><Path>. It is served, with
	// AuthorizationServers and ScopesSupported, as the RFC 9728 metadata
	// document, at auth.WellKnownPath and at the path RFC 9728 derives
	// from Resource, and named in every 401 challenge.
	Resource             string
	AuthorizationServers []string
	ScopesSupported      []string
	// The http.Server's limits; zero means the Default* value. There is
	// no write timeout: streams are long-lived by design, and a request's
	// own duration is its handler's business.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// ShutdownTimeout bounds how long shutdown waits for requests in
	// flight before closing their connections.
	ShutdownTimeout time.Duration
	// Routes, when set, serves every path that neither the endpoint nor
	// the resource metadata claims: an operator's /healthz, /readyz and
	// /metrics, on the listener the load balancer already reaches.
	Routes http.Handler
	// Ready, when set, gates the endpoint: while it reports false (the
	// estate is still loading) the endpoint answers 503 with Retry-After,
	// rather than serve a client an estate that is not yet there.
	Ready func() bool
}

// Server serves an mcp.Server over Streamable HTTP with the endpoint, the
// protected resource metadata, timeouts and graceful shutdown.
type Server struct {
	srv *mcp.Server
	cfg Config
}

// NewServer checks cfg and returns the server. It refuses a server without
// an authenticator (nil, or one that authenticates nothing, such as
// auth.Static) unless cfg.InsecureDev, an insecure one on an address that
// is not loopback, and one reachable from the network that does not name
// the hosts it answers to (Options.AllowedHosts).
func NewServer(srv *mcp.Server, cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.Path == "" {
		cfg.Path = DefaultPath
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&cfg.ReadTimeout, DefaultReadTimeout)
	def(&cfg.IdleTimeout, DefaultIdleTimeout)
	def(&cfg.ShutdownTimeout, DefaultShutdownTimeout)
	if cfg.MaxHeaderBytes <= 0 {
		cfg.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("mcphttp: address %q: %v", cfg.Addr, err)
	}
	if err := checkExposure(cfg, host); err != nil {
		return nil, err
	}
	return &Server{srv: srv, cfg: cfg}, nil
}

// checkExposure applies NewServer's refusals to the host a server listens
// on.
func checkExposure(cfg Config, host string) error {
	insecure := auth.IsInsecure(cfg.Handler.Authenticator)
	switch {
	case insecure && !cfg.InsecureDev:
		return errors.New("mcphttp: no authenticator: configure one, or declare a local development server (InsecureDev)")
	case insecure && !IsLoopbackHost(host):
		return fmt.Errorf("mcphttp: a development server without authentication listens on loopback only, not %q", host)
	case !IsLoopbackHost(host) && len(cfg.Handler.AllowedHosts) == 0:
		return fmt.Errorf("mcphttp: a server listening on %q must name the host names it answers to (AllowedHosts), or the DNS-rebinding protection refuses every client", host)
	}
	return nil
}

// ListenAndServe listens on cfg.Addr and serves (see Serve).
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is done, then shuts down gracefully: the
// mcp.Server is closed, so open subscriptions/listen streams are answered;
// the endpoint's other streams end; new connections are refused; and
// requests in flight are answered, for up to ShutdownTimeout. It closes
// ln. It returns nil after a shutdown, or the error that stopped serving.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	tcp, _ := ln.Addr().(*net.TCPAddr)
	if tcp == nil {
		ln.Close()
		return errors.New("mcphttp: not a TCP listener")
	}
	if err := checkExposure(s.cfg, tcp.IP.String()); err != nil {
		ln.Close()
		return err
	}
	cfg := s.cfg
	if cfg.Resource == "" {
		cfg.Resource = "http://" + ln.Addr().String() + cfg.Path
	}
	log := oplog.Logger(cfg.Handler.Logger)
	mux := http.NewServeMux()
	if !auth.IsInsecure(cfg.Handler.Authenticator) {
		metaURL := auth.MetadataURL(cfg.Resource)
		if metaURL == "" {
			ln.Close()
			return fmt.Errorf("mcphttp: resource %q is not a URL", cfg.Resource)
		}
		if cfg.Handler.ResourceMetadataURL == "" {
			cfg.Handler.ResourceMetadataURL = metaURL
		}
		meta := &auth.ResourceMetadata{Resource: cfg.Resource, AuthorizationServers: cfg.AuthorizationServers, ScopesSupported: cfg.ScopesSupported}
		mux.Handle(auth.WellKnownPath, meta)
		if u, err := url.Parse(metaURL); err == nil && u.Path != auth.WellKnownPath {
			mux.Handle(u.Path, meta)
		}
	}
	h := NewHandler(s.srv, cfg.Handler)
	mux.Handle(cfg.Path, gate(h, cfg.Ready))
	if cfg.Routes != nil {
		mux.Handle("/", cfg.Routes)
	}
	// Requests run under drain: Shutdown waits for them, and when the
	// grace period is nearly over drain is cancelled, so handlers still
	// running see their context end and every request is answered (a
	// handler's cancellation is an isError result) before ShutdownTimeout.
	drain, cancelDrain := context.WithCancel(context.Background())
	defer cancelDrain()
	base := withDrain(drain)
	hs := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           mux,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    cfg.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		h.Close()
		return err
	case <-ctx.Done():
	}
	s.srv.Close()
	h.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	grace := cfg.ShutdownTimeout - min(cfg.ShutdownTimeout/4, time.Second)
	drainTimer := time.AfterFunc(grace, cancelDrain)
	defer drainTimer.Stop()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		log.LogAttrs(ctx, slog.LevelWarn, "shutdown timed out; closing the remaining connections", slog.String("error", err.Error()))
		hs.Close()
	}
	<-served
	return nil
}

// gate answers 503 for h while ready reports false.
func gate(h http.Handler, ready func() bool) http.Handler {
	if ready == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ready() {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "not ready: the estate is loading", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}
