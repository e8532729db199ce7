// Package service runs a generated MCP tool server as a process, so that
// what a team writes is its handlers. A main.go is:
//
//	func main() {
//		service.Main(&service.Service{
//			Options:  warehouse.Options(),
//			Register: func(srv *mcp.Server) error { return warehouse.Register(srv, handlers{}) },
//		})
//	}
//
// The Service owns everything between the generated package and a running
// binary:
//
//   - configuration from flags, each defaulting to an environment
//     variable under one prefix per service (WAREHOUSE_AGENT for -agent);
//     a service adds its own flags with Service.Flags;
//   - the transport: stdio (the default), where the caller's principal
//     comes from -agent, -tenant, -scopes and -clearance, or Streamable
//     HTTP (-transport http), where each request's JWT bearer token names
//     it and the RFC 9728 protected resource metadata names the issuer
//     (-insecure-dev serves loopback without authentication instead);
//   - the lifecycle overlay (-lifecycle): a JSON file of
//     {"name@X.Y.Z": "active"|"deprecated"|...} applied at start, on
//     SIGHUP and whenever its content changes, each change reaching
//     connected clients as notifications/tools/list_changed;
//   - the state replicas behind a load balancer share (-store): this
//     process's memory by default, or a Redis server (redis://...) that
//     keeps the handshake-era sessions, the resumable streams' events
//     and the lifecycle overlay, which -lifecycle-set changes once for
//     every replica (see package fleet); a replica that cannot read it
//     reports not ready and answers 503;
//   - structured logging: JSON lines on stderr, written by a goroutine of
//     their own (oplog.Async), so a stalled stderr costs log lines, never
//     a request;
//   - over HTTP, /healthz (the process serves), /readyz (the estate is
//     loaded and the service is not shutting down) and /metrics
//     (Prometheus exposition: calls by tool@version and outcome, refusals
//     by kind, latency histograms, sessions, calls in flight);
//   - graceful shutdown on SIGINT or SIGTERM: /readyz fails first for
//     -shutdown-delay, then requests in flight are answered and open
//     streams end before the process exits.
//
// Metrics are Prometheus rather than OpenTelemetry: a Kubernetes
// deployment scrapes /metrics with no collector beside the pod, and the
// client is one dependency where the OpenTelemetry SDK and its exporter
// are several. An operator who runs a collector scrapes the same endpoint.
package service

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// A Service is an MCP tool server's process. Options and Register are
// what the generated package gives; every other field may be left zero.
type Service struct {
	// Name names the service in -help and in its errors; "" means
	// Options.Name.
	Name string
	// EnvPrefix is the prefix of the service's environment variables; ""
	// means Name upper-cased, with every character but letters and
	// digits as '_' (BANK_PAYMENTS for bank-payments).
	EnvPrefix string
	// Options configure the server (the generated package's Options()).
	// The service sets Logger, CallTimeout and Observe, and PageSize when
	// -page-size is given.
	Options mcp.Options
	// Flags, when set, declares the service's own flags beside the shared
	// ones, before they are parsed; env names their environment variables.
	Flags func(fs *flag.FlagSet, env Env)
	// Register binds the handlers to srv (the generated package's
	// Register), once the flags are parsed. It must not be nil.
	Register func(srv *mcp.Server) error
	// Metrics is the registry /metrics serves; nil means a new one with
	// the Go runtime's and the process's collectors. Give one to export
	// the handlers' own metrics beside the service's.
	Metrics *prometheus.Registry
	// Stdin, Stdout and Stderr are the process's by default (nil).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Main runs the service with the process's arguments and exits: 0 after
// a shutdown or -help, 2 when it could not start or stopped on an error,
// which is printed on stderr.
func Main(s *Service) {
	err := s.Run(context.Background(), os.Args[1:])
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	default:
		fmt.Fprintf(s.stderr(), "%s: %v\n", s.name(), err)
		os.Exit(2)
	}
}

func (s *Service) name() string {
	if s.Name != "" {
		return s.Name
	}
	if s.Options.Name != "" {
		return s.Options.Name
	}
	return "mcp-service"
}

// envPrefix is EnvPrefix, or the name as an environment variable name.
func (s *Service) envPrefix() string {
	if s.EnvPrefix != "" {
		return s.EnvPrefix
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, s.name())
}

func (s *Service) stdout() io.Writer {
	if s.Stdout != nil {
		return s.Stdout
	}
	return os.Stdout
}

func (s *Service) stderr() io.Writer {
	if s.Stderr != nil {
		return s.Stderr
	}
	return os.Stderr
}

// Parse parses args into the shared configuration, and the service's own
// flags into wherever Flags put them.
func (s *Service) Parse(args []string) (*Config, error) {
	fs := flag.NewFlagSet(s.name(), flag.ContinueOnError)
	fs.SetOutput(s.stderr())
	env := Env{Prefix: s.envPrefix()}
	c := &Config{}
	c.Flags(fs, env)
	if s.Flags != nil {
		s.Flags(fs, env)
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// Run parses args and serves until ctx is done or SIGINT or SIGTERM
// arrives, then shuts down gracefully and returns nil; over stdio it also
// returns when the input ends. It returns an error when the configuration
// is refused, the estate does not load, or serving fails.
func (s *Service) Run(ctx context.Context, args []string) error {
	if s.Register == nil {
		return errors.New("service: Register is nil: nothing would be served")
	}
	cfg, err := s.Parse(args)
	if err != nil {
		return err
	}
	// -lifecycle-set serves nobody, so it needs no caller.
	principal, err := cfg.Principal()
	if err != nil && cfg.LifecycleSet == "" {
		return err
	}
	logger, closeLog := newLogger(s.stderr())
	defer closeLog()

	reg := s.Metrics
	if reg == nil {
		reg = newRegistry()
	}
	opts := s.Options
	opts.Logger = logger
	opts.CallTimeout = cfg.CallTimeout
	if key, err := cfg.requestStateKey(); err != nil {
		return err
	} else if key != nil {
		opts.RequestStateKey = key
	}
	if cfg.PageSize != 0 {
		opts.PageSize = cfg.PageSize
	}
	opts.Observe = newMetrics(reg).observe
	store, err := s.openStore(cfg, logger)
	if err != nil {
		return err
	}
	defer store.Close()
	if cfg.LifecycleSet != "" {
		registry := func() (*estate.Registry, error) {
			srv, err := mcp.NewServer(opts)
			if err != nil {
				return nil, err
			}
			return srv.Registry(), s.Register(srv)
		}
		return setLifecycle(ctx, store, registry, cfg.LifecycleSet, s.stdout())
	}
	srv, err := mcp.NewServer(opts)
	if err != nil {
		return err
	}
	defer srv.Close()

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	shared := &fleetState{store: store}
	// load binds the handlers and applies the lifecycle file, or the
	// shared store's overlay, then keeps it applied until Run returns. A
	// store that cannot be read at start leaves the replica not ready
	// until it can.
	load := func() error {
		if err := s.Register(srv); err != nil {
			return err
		}
		if cfg.shared() {
			_ = shared.sync(ctx, srv.Registry(), logger)
			go shared.follow(ctx, srv.Registry(), cfg.StoreCheck, logger)
			return nil
		}
		if cfg.Lifecycle == "" {
			return nil
		}
		data, err := os.ReadFile(cfg.Lifecycle)
		if err != nil {
			return err
		}
		if err := applyLifecycle(srv.Registry(), cfg.Lifecycle, data); err != nil {
			return err
		}
		go watchLifecycle(ctx, srv.Registry(), cfg.Lifecycle, data, cfg.LifecyclePoll, logger)
		return nil
	}
	logger.Info("starting", "server", opts.Name, "version", opts.Version, "transport", cfg.Transport)
	if cfg.Transport == "http" {
		return s.serveHTTP(ctx, cfg, srv, principal, logger, reg, shared, load)
	}
	if err := load(); err != nil {
		return err
	}
	logger.Info("serving", "transport", "stdio")
	stdin := s.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	err = srv.ServeStream(ctx, stdin, s.stdout(), principal)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// A signal asked for the shutdown, and it is done: every request
		// in flight, and every open subscription, answered.
		logger.Info("stopped", "transport", "stdio")
		return nil
	}
	return err
}

// serveHTTP listens first, so that /healthz and /readyz answer while the
// estate loads; the endpoint answers 503 until it has. On shutdown /readyz
// fails for cfg.ShutdownDelay while requests are still served, and then
// the server drains.
func (s *Service) serveHTTP(ctx context.Context, cfg *Config, srv *mcp.Server, p estate.Principal, logger *slog.Logger, reg *prometheus.Registry, shared *fleetState, load func() error) error {
	var ready atomic.Bool
	routes := http.NewServeMux()
	routes.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	routes.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		switch err := shared.err(); {
		case !ready.Load():
			http.Error(w, "not ready", http.StatusServiceUnavailable)
		case err != nil:
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
		default:
			io.WriteString(w, "ready\n")
		}
	})
	routes.Handle("GET /metrics", metricsHandler(reg))
	serving := func() bool { return ready.Load() && shared.err() == nil }
	hs, err := cfg.HTTP.server(ctx, srv, p, logger, routes, serving, shared.store, cfg.shared())
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	logger.Info("listening", "transport", "http", "addr", addr)
	serveCtx, stopServing := context.WithCancel(context.Background())
	defer stopServing()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(serveCtx, ln) }()

	if err := load(); err != nil {
		stopServing()
		<-served
		return err
	}
	ready.Store(true)
	logger.Info("serving", "transport", "http", "addr", addr, "stateless", cfg.HTTP.Stateless, "insecure_dev", cfg.HTTP.InsecureDev)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	ready.Store(false)
	logger.Info("shutting down", "delay", cfg.ShutdownDelay.String())
	if cfg.ShutdownDelay > 0 {
		t := time.NewTimer(cfg.ShutdownDelay)
		select {
		case <-t.C:
		case err := <-served:
			t.Stop()
			return err
		}
	}
	stopServing()
	err = <-served
	logger.Info("stopped", "transport", "http")
	return err
}

// newLogger returns the service's operational log: JSON lines on w
// (oplog.JSONHandler, which writes the call log's lines without a slog
// record), written by a goroutine of their own (oplog.Async), every
// string clipped.
// A stderr nobody reads costs log lines, dropped and counted (the count is
// logged once stderr moves again), never a request nor a shutdown. SIGPIPE
// is ignored from here on: a write to a stderr or stdout whose reader went
// away fails with EPIPE, where the signal would kill the process with the
// request unanswered. close writes what is queued, waiting a second at
// most.
func newLogger(w io.Writer) (logger *slog.Logger, close func()) {
	signal.Ignore(syscall.SIGPIPE)
	async := oplog.NewAsync(oplog.NewJSONHandler(w, nil), oplog.AsyncOptions{})
	return slog.New(async), func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = async.Close(ctx)
	}
}
