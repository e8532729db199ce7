// Command bankpayments is the bank's payments MCP service, built from the
// code mcpgen generates from ../../manifests (package bank) and the
// hand-written handlers in handlers.go.
//
// Over stdio the caller's principal comes from flags or the environment:
//
//	bankpayments -agent payments-investigator -tenant wholesale \
//	    -scopes payments.read,crm.write -clearance confidential
//
// Over Streamable HTTP it comes from each request's JWT bearer token:
//
//	bankpayments -transport http -addr 127.0.0.1:8080 \
//	    -jwt-issuer https://idp.bank.example -jwt-audience http://127.0.0.1:8080/mcp \
//	    -jwks-url https://idp.bank.example/jwks.json
//
// and on a developer's machine, without authentication, from the stdio
// flags: bankpayments -transport http -insecure-dev -agent dev ... (loopback
// addresses only). -stateless serves the stateless protocol era only, so
// that replicas can share a load balancer. Every flag has an environment
// variable (see -help). Logs are JSON on stderr; tokens never reach them,
// and the call log redacts arguments the input schema marks x-secret.
//
// Operators move versions through their lifecycle without a redeploy:
// -lifecycle names a JSON file mapping "name@X.Y.Z" to "deprecated" or
// "retired"; it is applied at start and again on SIGHUP, and every change
// reaches connected clients as notifications/tools/list_changed.
package main

//go:generate go run ../../cmd/mcpgen generate -manifests ../../manifests -out bank

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/examples/internal/service"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bankpayments:", err)
		os.Exit(2)
	}
}

// config is the service's configuration: the flags every example service
// takes (package service), and the bank's own.
type config struct {
	service.Config
	snapshotDate string
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bankpayments", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	c.Flags(fs, "BANKPAYMENTS")
	fs.StringVar(&c.snapshotDate, "snapshot-date", service.EnvOr("BANKPAYMENTS_SNAPSHOT_DATE", time.Now().UTC().Format(time.DateOnly)), "the date of the ledger snapshot; lookups as of other dates need core banking (env BANKPAYMENTS_SNAPSHOT_DATE)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	principal, err := cfg.Principal()
	if err != nil {
		return err
	}
	logger, closeLog := service.NewLogger(stderr)
	defer closeLog()
	opts := bank.Options()
	opts.Logger = logger
	opts.CallTimeout = cfg.CallTimeout
	srv, err := mcp.NewServer(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := bank.Register(srv, newHandlers(cfg.snapshotDate)); err != nil {
		return err
	}
	logger.Info("starting", "server", bank.ServerName, "version", bank.ServerVersion)
	return cfg.Serve(srv, principal, stdin, stdout, logger)
}
