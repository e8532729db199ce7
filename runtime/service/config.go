package service

import (
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// Config is what the shared flags say. Every flag defaults to an
// environment variable under the service's prefix (Env), so a container
// is configured by its environment and a developer by flags.
type Config struct {
	// Agent, Tenant, Scopes (comma-separated) and Clearance describe the
	// caller on stdio, where no credential says who it is, and the caller
	// of a development HTTP server (HTTP.InsecureDev).
	Agent, Tenant, Scopes, Clearance string
	// Lifecycle is a JSON file of lifecycle changes, applied at start, on
	// SIGHUP and whenever its content changes; "" applies none.
	Lifecycle string
	// LifecyclePoll is how often the lifecycle file is read for a change:
	// a mounted ConfigMap changes by a symlink swap that no inotify watch
	// on the file sees, and a read of a small file is cheap. 0 reloads on
	// SIGHUP only.
	LifecyclePoll time.Duration
	// CallTimeout is every tool call's deadline (mcp.Options.CallTimeout):
	// a handler that waits on a system behind it past it is answered
	// with a failure and holds no place in flight any longer.
	CallTimeout time.Duration
	// RequestStateKeyFile names a file holding the key that seals the
	// requestState of a call waiting for the client's input
	// (mcp.Options.RequestStateKey), base64-encoded: 32 random bytes, as
	// `openssl rand -base64 32` writes them. Replicas behind one load
	// balancer must share it. "" keeps Service.Options' key, whose nil is
	// a random key of this process: enough for one replica.
	RequestStateKeyFile string
	// PageSize is the most entries a page of tools/list, resources/list,
	// resources/templates/list or prompts/list holds
	// (mcp.Options.PageSize); 0 keeps Options.PageSize.
	PageSize int
	// ShutdownDelay is how long, after SIGTERM, the service reports not
	// ready while it still serves, before it stops taking requests: the
	// time a load balancer needs to see /readyz fail and stop sending new
	// ones. Set it to the readiness probe's period.
	ShutdownDelay time.Duration
	// Store is where the state replicas share is kept: "memory" (or "",
	// the default) for one process, or a Redis URL (redis://host:port/db,
	// rediss:// for TLS) that every replica names. See package fleet.
	Store string
	// StoreCheck is how often a shared store is pinged for readiness and
	// its lifecycle overlay re-read, whatever its notifications said.
	StoreCheck time.Duration
	// LifecycleSet, when set, makes the process apply these lifecycle
	// changes (name@X.Y.Z=state, comma-separated) to the shared store's
	// overlay, once for every replica, and exit instead of serving.
	LifecycleSet string
	// Transport is "stdio" (the default) or "http"; HTTP configures the
	// latter.
	Transport string
	HTTP      HTTPConfig
}

// Defaults of the shared flags.
const (
	// DefaultCallTimeout is long for a tool that asks core banking, short
	// enough that a hung dependency does not hold its callers' requests
	// for good.
	DefaultCallTimeout = 30 * time.Second
	// DefaultLifecyclePoll notices a changed lifecycle file within
	// seconds, at the cost of one small read each time.
	DefaultLifecyclePoll = 2 * time.Second
)

// Env declares flags that default to environment variables under one
// prefix: the flag -snapshot-date of the prefix BANKPAYMENTS defaults to
// BANKPAYMENTS_SNAPSHOT_DATE. One rule names every variable, so -help
// and the flag's name are all an operator needs to find it.
type Env struct {
	// Prefix is the service's prefix, such as BANKPAYMENTS.
	Prefix string
}

// Var returns the environment variable of the flag named flagName.
func (e Env) Var(flagName string) string {
	return e.Prefix + "_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// lookup returns the flag's variable and its value, if it is set.
func (e Env) lookup(flagName string) (string, bool) { return os.LookupEnv(e.Var(flagName)) }

// usage appends the environment variable to a flag's usage, so that
// -help lists both spellings of every setting.
func (e Env) usage(flagName, text string) string { return text + " (env " + e.Var(flagName) + ")" }

// StringVar declares a string flag defaulting to its variable, or to def
// when the variable is unset (set and empty is a value).
func (e Env) StringVar(fs *flag.FlagSet, p *string, flagName, def, usage string) {
	if v, ok := e.lookup(flagName); ok {
		def = v
	}
	fs.StringVar(p, flagName, def, e.usage(flagName, usage))
}

// BoolVar declares a bool flag defaulting to its variable, false when the
// variable is unset or not a bool.
func (e Env) BoolVar(fs *flag.FlagSet, p *bool, flagName, usage string) {
	v, _ := e.lookup(flagName)
	def, _ := strconv.ParseBool(v)
	fs.BoolVar(p, flagName, def, e.usage(flagName, usage))
}

// IntVar declares an int flag defaulting to its variable, or to def when
// the variable is unset or not an int.
func (e Env) IntVar(fs *flag.FlagSet, p *int, flagName string, def int, usage string) {
	v, _ := e.lookup(flagName)
	if n, err := strconv.Atoi(v); err == nil {
		def = n
	}
	fs.IntVar(p, flagName, def, e.usage(flagName, usage))
}

// DurationVar declares a duration flag defaulting to its variable, or to
// def when the variable is unset or not a duration.
func (e Env) DurationVar(fs *flag.FlagSet, p *time.Duration, flagName string, def time.Duration, usage string) {
	v, _ := e.lookup(flagName)
	if d, err := time.ParseDuration(v); err == nil {
		def = d
	}
	fs.DurationVar(p, flagName, def, e.usage(flagName, usage))
}

// Flags declares the shared flags on fs, each defaulting to its
// environment variable under env.
func (c *Config) Flags(fs *flag.FlagSet, env Env) {
	env.StringVar(fs, &c.Agent, "agent", "", "stdio and -insecure-dev: the calling agent's id")
	env.StringVar(fs, &c.Tenant, "tenant", "", "stdio and -insecure-dev: the caller's tenant")
	env.StringVar(fs, &c.Scopes, "scopes", "", "stdio and -insecure-dev: comma-separated scopes the caller holds")
	env.StringVar(fs, &c.Clearance, "clearance", "internal", "stdio and -insecure-dev: the caller's clearance: public, internal, confidential or restricted")
	env.StringVar(fs, &c.Lifecycle, "lifecycle", "", `JSON file of lifecycle changes, {"name@X.Y.Z": "active"|"deprecated"|"retired"}, applied at start, on SIGHUP and when it changes`)
	env.DurationVar(fs, &c.LifecyclePoll, "lifecycle-poll", DefaultLifecyclePoll, "how often the lifecycle file is read for a change; 0 for SIGHUP only")
	env.DurationVar(fs, &c.CallTimeout, "call-timeout", DefaultCallTimeout, "the deadline of every tool call; 0 for none")
	env.StringVar(fs, &c.RequestStateKeyFile, "request-state-key-file", "", "a file holding the base64 key (32 bytes) that seals the state of calls waiting for the client's input; replicas must share it (default: a random key of this process)")
	env.IntVar(fs, &c.PageSize, "page-size", 0, fmt.Sprintf("the most entries a page of tools/list and the other lists holds; negative for one page whatever the length (default %d)", mcp.DefaultPageSize))
	env.DurationVar(fs, &c.ShutdownDelay, "shutdown-delay", 0, "http: how long after SIGTERM /readyz fails while requests are still served, before shutdown")
	env.StringVar(fs, &c.Store, "store", "memory", "where replicas share sessions, stream events and the lifecycle overlay: memory (this process only) or a redis:// URL")
	env.DurationVar(fs, &c.StoreCheck, "store-check", DefaultStoreCheck, "how often a shared store is pinged for readiness and its lifecycle overlay re-read")
	env.StringVar(fs, &c.LifecycleSet, "lifecycle-set", "", "apply lifecycle changes, name@X.Y.Z=state comma-separated, to the shared store's overlay for every replica, and exit")
	env.StringVar(fs, &c.Transport, "transport", "stdio", "stdio or http (Streamable HTTP)")
	c.HTTP.flags(fs, env)
}

// requestStateKey reads the key RequestStateKeyFile names; nil when none.
func (c *Config) requestStateKey() ([]byte, error) {
	if c.RequestStateKeyFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(c.RequestStateKeyFile)
	if err != nil {
		return nil, err
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != mcp.RequestStateKeySize {
		return nil, fmt.Errorf("-request-state-key-file %s: want %d bytes, base64-encoded", c.RequestStateKeyFile, mcp.RequestStateKeySize)
	}
	return key, nil
}

// check refuses a configuration that cannot serve, at start.
func (c *Config) check() error {
	if c.Transport != "stdio" && c.Transport != "http" {
		return fmt.Errorf("-transport %q: want stdio or http", c.Transport)
	}
	if c.shared() && c.Lifecycle != "" {
		return errors.New("-lifecycle and a shared -store both say what is callable: the fleet's lifecycle is the store's overlay (change it with -lifecycle-set)")
	}
	if c.LifecycleSet != "" && !c.shared() {
		return errors.New("-lifecycle-set changes a shared store's overlay: give -store redis://...")
	}
	if c.StoreCheck <= 0 {
		return errors.New("-store-check must be positive")
	}
	return nil
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
	return p.Normalized(), nil
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
