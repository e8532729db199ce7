// Command bankpayments is the bank's payments MCP service, built from the
// code mcpgen generates from ../../manifests (package bank) and the
// hand-written handlers in handlers.go.
//
// Over stdio the caller's principal comes from flags or the environment:
//
//	bankpayments -agent payments-investigator -tenant wholesale \
//	    -scopes payments.read,crm.write -clearance confidential
//
// Operators move versions through their lifecycle without a redeploy:
// -lifecycle names a JSON file mapping "name@X.Y.Z" to "deprecated" or
// "retired"; it is applied at start and again on SIGHUP, and every change
// reaches connected clients as notifications/tools/list_changed.
package main

//go:generate go run ../../cmd/mcpgen generate -manifests ../../manifests -out bank

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

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bankpayments:", err)
		os.Exit(2)
	}
}

// config is the service's configuration: flags, each with an environment
// variable as its default.
type config struct {
	agent, tenant, scopes, clearance string
	lifecycle                        string
	snapshotDate                     string
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bankpayments", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	fs.StringVar(&c.agent, "agent", envOr("BANKPAYMENTS_AGENT", ""), "stdio: the calling agent's id (env BANKPAYMENTS_AGENT)")
	fs.StringVar(&c.tenant, "tenant", envOr("BANKPAYMENTS_TENANT", ""), "stdio: the caller's tenant (env BANKPAYMENTS_TENANT)")
	fs.StringVar(&c.scopes, "scopes", envOr("BANKPAYMENTS_SCOPES", ""), "stdio: comma-separated scopes the caller holds (env BANKPAYMENTS_SCOPES)")
	fs.StringVar(&c.clearance, "clearance", envOr("BANKPAYMENTS_CLEARANCE", "internal"), "stdio: the caller's clearance: public, internal, confidential or restricted (env BANKPAYMENTS_CLEARANCE)")
	fs.StringVar(&c.lifecycle, "lifecycle", envOr("BANKPAYMENTS_LIFECYCLE", ""), "JSON file of lifecycle changes, {\"name@X.Y.Z\": \"deprecated\"|\"retired\"}, applied at start and on SIGHUP (env BANKPAYMENTS_LIFECYCLE)")
	fs.StringVar(&c.snapshotDate, "snapshot-date", envOr("BANKPAYMENTS_SNAPSHOT_DATE", time.Now().UTC().Format(time.DateOnly)), "the date of the ledger snapshot; lookups as of other dates need core banking (env BANKPAYMENTS_SNAPSHOT_DATE)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, nil
}

// principal validates the stdio principal at start: a bad clearance is an
// error now, not a silently empty tool list later.
func (c *config) principal() (estate.Principal, error) {
	p := estate.Principal{AgentID: c.agent, Tenant: c.tenant, MaxClassification: estate.Classification(c.clearance)}
	if p.AgentID == "" {
		return p, errors.New("-agent is required over stdio")
	}
	if _, err := estate.ParseClassification(c.clearance); err != nil {
		return p, fmt.Errorf("-clearance: %v", err)
	}
	for _, s := range strings.Split(c.scopes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			p.Scopes = append(p.Scopes, s)
		}
	}
	return p, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	principal, err := cfg.principal()
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	opts := bank.Options()
	opts.Logger = logger
	srv, err := mcp.NewServer(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := bank.Register(srv, newHandlers(cfg.snapshotDate)); err != nil {
		return err
	}
	if cfg.lifecycle != "" {
		if err := applyLifecycle(srv.Registry(), cfg.lifecycle); err != nil {
			return err
		}
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		go func() {
			for range hup {
				if err := applyLifecycle(srv.Registry(), cfg.lifecycle); err != nil {
					logger.Error("lifecycle reload failed", "error", err)
				} else {
					logger.Info("lifecycle reloaded", "file", cfg.lifecycle)
				}
			}
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Info("serving", "transport", "stdio", "server", bank.ServerName, "version", bank.ServerVersion)
	return srv.ServeStream(ctx, stdin, stdout, principal)
}

// applyLifecycle moves the versions the file names: a registry change, so
// list_changed goes out. Applying the same file twice changes nothing.
func applyLifecycle(r *estate.Registry, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var changes map[string]string
	if err := json.Unmarshal(data, &changes); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	for key, to := range changes {
		name, version, ok := strings.Cut(key, "@")
		if !ok {
			return fmt.Errorf("%s: %q is not name@X.Y.Z", file, key)
		}
		switch estate.Lifecycle(to) {
		case estate.Deprecated:
			err = r.Deprecate(name, version, "")
		case estate.Retired:
			err = r.Retire(name, version)
		default:
			err = fmt.Errorf("lifecycle %q (want deprecated or retired)", to)
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %v", file, key, err)
		}
	}
	return nil
}
