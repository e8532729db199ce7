// Command treasury is the treasury desk's FX MCP service, built from the
// code mcpgen generates from the Go structs in ./tools (package treasury)
// and the hand-written handlers in handlers.go. The structs are the source
// of truth: the generated handlers take them as their arguments.
//
// Over stdio the caller's principal comes from flags:
//
//	treasury -agent fx-assistant -tenant wholesale -scopes fx.read,fx.trade -clearance confidential
package main

//go:generate go run ../../cmd/mcpgen generate -source ./tools -out treasury

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/examples/internal/service"
	"github.com/mcpgen/mcpgen/examples/structs/treasury"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "treasury:", err)
		os.Exit(2)
	}
}

// principal reads the stdio caller from flags, and refuses a bad one at
// start rather than serving it an empty tool list.
func principal(args []string, stderr io.Writer) (estate.Principal, error) {
	fs := flag.NewFlagSet("treasury", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "", "the calling agent's id")
	tenant := fs.String("tenant", "", "the caller's tenant")
	scopes := fs.String("scopes", "", "comma-separated scopes the caller holds")
	clearance := fs.String("clearance", "internal", "the caller's clearance: public, internal, confidential or restricted")
	if err := fs.Parse(args); err != nil {
		return estate.Principal{}, err
	}
	p := estate.Principal{AgentID: *agent, Tenant: *tenant, MaxClassification: estate.Classification(*clearance)}
	if p.AgentID == "" {
		return p, errors.New("-agent is required")
	}
	if _, err := estate.ParseClassification(*clearance); err != nil {
		return p, fmt.Errorf("-clearance: %v", err)
	}
	for _, s := range strings.Split(*scopes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			p.Scopes = append(p.Scopes, s)
		}
	}
	return p, nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	caller, err := principal(args, stderr)
	if err != nil {
		return err
	}
	opts := treasury.Options()
	logger, closeLog := service.NewLogger(stderr)
	defer closeLog()
	opts.Logger = logger
	srv, err := mcp.NewServer(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := treasury.Register(srv, newDesk()); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.ServeStream(ctx, stdin, stdout, caller)
}
