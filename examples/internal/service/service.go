// Package service is what the example services share: the flags that name
// the stdio caller and the lifecycle file, and the loop that serves an MCP
// server until its input ends or a signal arrives. Each example keeps only
// what is its own: its generated package, its handlers, its extra flags.
package service

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// Config is the shared configuration: flags, each with an environment
// variable as its default.
type Config struct {
	// Agent, Tenant, Scopes (comma-separated) and Clearance describe the
	// caller on stdio, where no credential says who it is.
	Agent, Tenant, Scopes, Clearance string
	// Lifecycle is a JSON file of lifecycle changes, applied at start and
	// on SIGHUP; "" applies none.
	Lifecycle string
	// CallTimeout is every tool call's deadline (mcp.Options.CallTimeout):
	// a handler that waits on a system behind it past it is answered
	// with a failure and holds no place in flight any longer.
	CallTimeout time.Duration
	// Transport is "stdio" (the default) or "http"; HTTP configures the
	// latter (http.go).
	Transport string
	HTTP      HTTPConfig
}

// NewLogger returns the service's operational log: JSON lines on w,
// written by a goroutine of their own (oplog.Async), every string clipped.
// A stderr nobody reads costs log lines, dropped and counted (the count is
// logged once stderr moves again), never a request nor a shutdown. SIGPIPE
// is ignored from here on: a write to a stderr or stdout whose reader went
// away fails with EPIPE, where the signal would kill the process with the
// request unanswered. close writes what is queued, waiting a second at
// most.
func NewLogger(w io.Writer) (logger *slog.Logger, close func()) {
	signal.Ignore(syscall.SIGPIPE)
	async := oplog.NewAsync(slog.NewJSONHandler(w, nil), oplog.AsyncOptions{})
	return slog.New(async), func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = async.Close(ctx)
	}
}

// DefaultCallTimeout is -call-timeout's default: long for a tool that asks
// core banking, short enough that a hung dependency does not hold its
// callers' requests for good.
const DefaultCallTimeout = 30 * time.Second

// envDuration is a duration flag's default from the environment variable
// name, def when it is unset or not a duration.
func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return def
}

// EnvOr returns the environment variable name, or def when it is unset.
func EnvOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// Flags declares the shared flags on fs. Each defaults to the environment
// variable envPrefix_NAME (BANKPAYMENTS_AGENT for -agent with the prefix
// BANKPAYMENTS).
func (c *Config) Flags(fs *flag.FlagSet, envPrefix string) {
	env := func(name string) string { return envPrefix + "_" + name }
	fs.StringVar(&c.Agent, "agent", EnvOr(env("AGENT"), ""), "stdio and -insecure-dev: the calling agent's id (env "+env("AGENT")+")")
	fs.StringVar(&c.Tenant, "tenant", EnvOr(env("TENANT"), ""), "stdio and -insecure-dev: the caller's tenant (env "+env("TENANT")+")")
	fs.StringVar(&c.Scopes, "scopes", EnvOr(env("SCOPES"), ""), "stdio and -insecure-dev: comma-separated scopes the caller holds (env "+env("SCOPES")+")")
	fs.StringVar(&c.Clearance, "clearance", EnvOr(env("CLEARANCE"), "internal"), "stdio and -insecure-dev: the caller's clearance: public, internal, confidential or restricted (env "+env("CLEARANCE")+")")
	fs.StringVar(&c.Lifecycle, "lifecycle", EnvOr(env("LIFECYCLE"), ""), `JSON file of lifecycle changes, {"name@X.Y.Z": "deprecated"|"retired"}, applied at start and on SIGHUP (env `+env("LIFECYCLE")+")")
	fs.DurationVar(&c.CallTimeout, "call-timeout", envDuration(env("CALL_TIMEOUT"), DefaultCallTimeout), "the deadline of every tool call; 0 for none (env "+env("CALL_TIMEOUT")+")")
	fs.StringVar(&c.Transport, "transport", EnvOr(env("TRANSPORT"), "stdio"), "stdio or http (Streamable HTTP) (env "+env("TRANSPORT")+")")
	c.HTTP.flags(fs, env)
}

// Principal validates the stdio principal at start: a bad clearance is an
// error now, not a silently empty tool list later. The same flags name the
// caller of a development HTTP server (-insecure-dev); over authenticated
// HTTP each request's token names it, and Principal returns the zero
// principal.
func (c *Config) Principal() (estate.Principal, error) {
	if c.Transport == "http" && !c.HTTP.InsecureDev {
		return estate.Principal{}, nil
	}
	p := estate.Principal{AgentID: c.Agent, Tenant: c.Tenant, MaxClassification: estate.Classification(c.Clearance)}
	if p.AgentID == "" {
		return p, errors.New("-agent is required over stdio and with -insecure-dev")
	}
	if _, err := estate.ParseClassification(c.Clearance); err != nil {
		return p, fmt.Errorf("-clearance: %v", err)
	}
	p.Scopes = list(c.Scopes)
	return p, nil
}

// Serve applies the lifecycle file (again on every SIGHUP) and serves srv
// until SIGINT or SIGTERM arrives: over stdio as principal p until the
// input ends (nil), or over Streamable HTTP (ServeHTTP, where p is the
// -insecure-dev caller). Operational messages go to logger.
func (c *Config) Serve(srv *mcp.Server, p estate.Principal, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	if c.Transport != "" && c.Transport != "stdio" && c.Transport != "http" {
		return fmt.Errorf("-transport %q: want stdio or http", c.Transport)
	}
	if c.Lifecycle != "" {
		if err := ApplyLifecycle(srv.Registry(), c.Lifecycle); err != nil {
			return err
		}
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		go func() {
			for range hup {
				if err := ApplyLifecycle(srv.Registry(), c.Lifecycle); err != nil {
					logger.Error("lifecycle reload failed", "file", c.Lifecycle, "error", err)
				} else {
					logger.Info("lifecycle reloaded", "file", c.Lifecycle)
				}
			}
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.Transport == "http" {
		return c.HTTP.Serve(ctx, srv, p, logger)
	}
	logger.Info("serving", "transport", "stdio")
	err := srv.ServeStream(ctx, stdin, stdout, p)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// A signal asked for the shutdown, and it is done: every request
		// in flight, and every open subscription, answered.
		logger.Info("stopped", "transport", "stdio")
		return nil
	}
	return err
}

// ApplyLifecycle applies the file's lifecycle changes all or none. The
// whole file is read first: one JSON object, no key twice (a second value
// for a key would silently win), each key name@X.Y.Z. The registry then
// checks every change against the estate and applies them together, or
// none (estate.Registry.ChangeLifecycles): a file naming one version that
// does not exist leaves every other version as it was. A change applied
// already is no change, so applying the same file again is harmless;
// clients get notifications/tools/list_changed once for a file that
// changed something.
func ApplyLifecycle(r *estate.Registry, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var changes []estate.LifecycleChange
	var problems []error
	err = jsonrpc.ForEachMember(data, func(key string, value json.RawMessage) error {
		name, version, ok := strings.Cut(key, "@")
		if !ok {
			problems = append(problems, fmt.Errorf("%q is not name@X.Y.Z", key))
			return nil
		}
		to, _ := jsonrpc.Unquote(value)
		changes = append(changes, estate.LifecycleChange{Name: name, Version: version, To: estate.Lifecycle(to)})
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: not a JSON object of name@X.Y.Z to lifecycle: %v; nothing was changed", file, err)
	}
	if err := errors.Join(append(problems, r.ChangeLifecycles(changes))...); err != nil {
		return fmt.Errorf("%s: nothing was changed: %w", file, err)
	}
	return nil
}
