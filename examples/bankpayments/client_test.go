package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/internal/banktest"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// connect connects the runtime's client to srv, served as the
// investigator over in-memory stdio pipes.
func connect(t *testing.T, srv *mcp.Server) *client.Client {
	t.Helper()
	r, w := banktest.ServeStdio(srv, banktest.Investigator)
	c := client.New(client.NewStreamConn(r, w), client.Options{})
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTypedClientAgainstGeneratedServer: the generated client's calls
// reach the generated server's typed handlers, pinned to their version.
func TestTypedClientAgainstGeneratedServer(t *testing.T) {
	srv, err := mcp.NewServer(bank.Options())
	if err != nil {
		t.Fatal(err)
	}
	if err := bank.Register(srv, newHandlers("2026-03-31")); err != nil {
		t.Fatal(err)
	}
	typed := bank.NewClient(connect(t, srv))
	ctx := context.Background()
	res, err := typed.PaymentsLookupV2_0_0(ctx, bank.PaymentsLookupV2_0_0Args{Reference: "PMT-772", AsOf: "2026-03-31"})
	if err != nil || res.Text() != "PMT-772: SETTLED, 1200 USD, beneficiary 'Blue Dhow LLC'" {
		t.Fatalf("2.0.0: %+v %v", res, err)
	}
	// The pin reaches the deprecated 1.0.0, which has no as_of.
	res, err = typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	if err != nil || !strings.HasPrefix(res.Text(), "PMT-771: HELD") {
		t.Fatalf("1.0.0: %+v %v", res, err)
	}
	// and its result says so, with the version to move the pin to.
	if want := (client.CallMeta{Lifecycle: "deprecated", SupersededBy: "payments.lookup@2.0.0"}); res.Meta != want {
		t.Errorf("1.0.0's result _meta %+v, want %+v", res.Meta, want)
	}
}

// TestTypedClientDetectsDrift: a server whose payments.lookup@1.0.0 has
// another schema than the one the client was generated from (a test-only
// setup: published versions are immutable) refuses the pinned call with
// the drift error, and the handler never runs.
func TestTypedClientDetectsDrift(t *testing.T) {
	srv, spec, ran := banktest.DriftedLookup(t)
	typed := bank.NewClient(connect(t, srv))
	_, err := typed.PaymentsLookupV1_0_0(context.Background(), bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	var d *drift.Error
	if !errors.As(err, &d) {
		t.Fatalf("want a *drift.Error, got %v", err)
	}
	if d.ToolName != "payments.lookup" || d.ObservedHash != spec.InputSchema.Hash() || d.ExpectedSchemaHash == d.ObservedHash {
		t.Errorf("drift %+v", d)
	}
	if ran.Load() != 0 {
		t.Error("the handler ran on a drifted call")
	}
}

// TestRepairLoop: the host-side repair step fixes syntax, leaves meaning to
// the model, and renders what remains as one turn.
func TestRepairLoop(t *testing.T) {
	fixed, remaining, err := bank.RepairArguments("payments.lookup", "1.0.0", []byte(`{"reference":"PMT-771","include_legs":"TRUE","urgent":1}`), nil)
	if err != nil || len(remaining) != 0 || string(fixed) != `{"include_legs":true,"reference":"PMT-771"}` {
		t.Fatalf("repair: %s %v %v", fixed, remaining, err)
	}
	_, remaining, _ = bank.RepairArguments("payments.release", "1.0.0", []byte(`{"reference":"PMT-771","amount_minor":"250000"}`), map[string]any{"$.currency": "AED"})
	if len(remaining) != 0 {
		t.Errorf("numeric string and default: %v", remaining)
	}
	_, remaining, _ = bank.RepairArguments("payments.release", "1.0.0", []byte(`{"amount_minor":"x"}`), nil)
	prompt := client.RepairPrompt("payments.release@1.0.0", remaining)
	for _, want := range []string{"$.amount_minor: expected type integer, got string", "$.currency: required property is missing", "$.reference: required property is missing"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
	if _, _, err := bank.RepairArguments("payments.lookup", "9.9.9", []byte(`{}`), nil); err == nil {
		t.Error("an unknown version was repaired")
	}
}
