package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/service"
)

// TestGeneratedIsUpToDate regenerates package bank from the manifests into
// a temporary directory and compares it, file by file, with the committed
// code: CI fails when someone edits a manifest (or the generator) and does
// not run `make generate`.
func TestGeneratedIsUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bank")
	if _, err := gen.Generate(gen.Options{Manifests: "../../manifests", Out: out, Package: "bank"}); err != nil {
		t.Fatal(err)
	}
	gentest.SameFiles(t, out, "bank", "run make generate")

	// The README quotes the line a run prints when nothing changed: a
	// second run into the same directory prints it.
	res, err := gen.Generate(gen.Options{Manifests: "../../manifests", Out: out, Package: "bank"})
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile("`(mcpgen: package bank: [^`]*)`").FindSubmatch(readme)
	if quoted == nil {
		t.Fatal("README.md quotes no run of mcpgen generate for package bank")
	}
	if got := res.Summary(); string(quoted[1]) != got {
		t.Errorf("README.md quotes %q; a run with nothing changed prints %q", quoted[1], got)
	}
}

// TestServiceOverStdio runs the service's main loop on pipes (its real
// stdio transport, without a process) and talks to it with the runtime's
// client.
func TestServiceOverStdio(t *testing.T) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	var logs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-agent", "a-1", "-tenant", "wholesale", "-scopes", "payments.read", "-clearance", "confidential", "-snapshot-date", "2026-03-31"},
			toServer, fromServer, &syncWriter{w: &logs})
		fromServer.Close()
	}()
	c := client.New(client.NewStreamConn(toClient, fromClient), client.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx, false)
	if err != nil || len(tools) != 1 || tools[0].Name != "payments.lookup" || tools[0].Meta.Version != "3.0.0" {
		t.Fatalf("tools/list: %+v %v", tools, err)
	}
	res, err := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771", "as_of": "2026-03-31"})
	if err != nil || res.IsError || res.Text() != "PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'" {
		t.Fatalf("call: %+v %v", res, err)
	}
	c.Close()
	if err := <-done; err != nil {
		t.Fatalf("service: %v", err)
	}
	if !strings.Contains(logs.String(), `"msg":"tool call"`) {
		t.Errorf("no call log in %s", logs.String())
	}
}

func TestPrincipalIsValidatedAtStart(t *testing.T) {
	for _, args := range [][]string{
		{"-tenant", "wholesale"}, // no agent
		{"-agent", "a", "-clearance", "top-secret"},
	} {
		if err := run(args, strings.NewReader(""), io.Discard, io.Discard); err == nil {
			t.Errorf("%v: started", args)
		}
	}
}

// syncWriter serialises the service's log writes into a buffer.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestCallsHaveADeadline: a tool call has a deadline unless the operator
// says otherwise, so that a handler stuck on core banking is answered as
// a failure rather than holding its request, and its place, for good.
func TestCallsHaveADeadline(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, service.DefaultCallTimeout},
		{[]string{"-call-timeout", "5s"}, 5 * time.Second},
		{[]string{"-call-timeout", "0"}, 0},
	} {
		cfg, err := newService().Parse(tc.args)
		if err != nil || cfg.CallTimeout != tc.want {
			t.Errorf("%v: call timeout %v (%v), want %v", tc.args, cfg.CallTimeout, err, tc.want)
		}
	}
	if service.DefaultCallTimeout <= 0 {
		t.Error("calls have no deadline by default")
	}
}

// run runs the service as main does, on the given arguments and streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := newService()
	s.Stdin, s.Stdout, s.Stderr = stdin, stdout, stderr
	return s.Run(context.Background(), args)
}
