// Command conformance-server serves the fixtures of the MCP conformance
// suite (the tools, resources and prompts its server scenarios call),
// built from the code mcpgen generates from ./manifests (package
// conformance) and the hand-written handlers in handlers.go, so the suite
// can be run against a generated server.
//
// It takes the flags of the other example services; over stdio the
// caller's principal comes from them or the environment (CONFORMANCE_*):
//
//	conformance-server -agent suite
//
// Every fixture is public and needs no scope, so any principal sees all of
// them.
package main

//go:generate go run ../../cmd/mcpgen generate -manifests manifests -out conformance

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/examples/conformance-server/conformance"
	"github.com/mcpgen/mcpgen/examples/internal/service"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "conformance-server:", err)
		os.Exit(2)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conformance-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg service.Config
	cfg.Flags(fs, "CONFORMANCE")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	principal, err := cfg.Principal()
	if err != nil {
		return err
	}
	logger, closeLog := service.NewLogger(stderr)
	defer closeLog()
	srv, err := newServer(logger, cfg.CallTimeout)
	if err != nil {
		return err
	}
	defer srv.Close()
	return cfg.Serve(srv, principal, stdin, stdout, logger)
}

// newServer is the generated catalogue with what the manifests cannot say
// added (catalogue.go), and the handlers bound.
func newServer(logger *slog.Logger, callTimeout time.Duration) (*mcp.Server, error) {
	opts := conformance.Options()
	opts.Logger = logger
	opts.CallTimeout = callTimeout
	addFixtures(&opts)
	srv, err := mcp.NewServer(opts)
	if err != nil {
		return nil, err
	}
	if err := conformance.Register(srv, handlers{}); err != nil {
		srv.Close()
		return nil, err
	}
	return srv, nil
}
