package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/structs/tools"
	"github.com/mcpgen/mcpgen/examples/structs/treasury"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/runtime/client"
)

// TestGeneratedIsUpToDate regenerates package treasury from the structs in
// ./tools into a temporary directory holding the committed estate record
// (fx.quote 1.0.0 is only there) and compares it, file by file, with the
// committed code: CI fails when someone edits a struct (or the generator)
// and does not run `make generate`.
func TestGeneratedIsUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "treasury")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(filepath.Join("treasury", record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, record.FileName), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Generate(gen.Options{Source: "./tools", Out: out, Package: "treasury"}); err != nil {
		t.Fatal(err)
	}
	gentest.SameFiles(t, out, "treasury", "run make generate")
}

// TestExtractedManifestsAreTheSameEstate: the YAML manifests mcpgen extract
// writes from the structs (and the record) generate the same estate record,
// byte for byte: the same schemas and hashes.
func TestExtractedManifestsAreTheSameEstate(t *testing.T) {
	dir := t.TempDir()
	manifests := filepath.Join(dir, "manifests")
	res, err := gen.Extract(gen.Options{Source: "./tools", Manifests: manifests, Out: "treasury"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools != 2 || res.Versions != 3 {
		t.Fatalf("extracted %d tools, %d versions; want 2 and 3", res.Tools, res.Versions)
	}
	out := filepath.Join(dir, "fromyaml")
	if _, err := gen.Generate(gen.Options{Manifests: manifests, Out: out}); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("treasury", record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, record.FileName))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the record generated from the extracted manifests differs from the committed one:\n%s", got)
	}
}

// TestServiceOverStdio runs the service on pipes and calls it with the
// runtime's client and the generated typed client: good arguments reach
// the handlers in the team's structs, bad ones are refused with every
// violation, and a caller pinned to 1.0.0 gets the version only the record
// holds.
func TestServiceOverStdio(t *testing.T) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-agent", "fx-assistant", "-tenant", "wholesale", "-scopes", "fx.read,fx.trade", "-clearance", "confidential"},
			toServer, fromServer, io.Discard)
		fromServer.Close()
	}()
	c := client.New(client.NewStreamConn(toClient, fromClient), client.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	typed := treasury.NewClient(c)

	res, err := typed.FxQuoteV1_1_0(ctx, tools.QuoteArgs{Sell: "USD", Buy: "AED", AmountMinor: 100000, Tenor: "today"})
	if err != nil || res.IsError || res.Text() != "Q-100000: USD 1000.00 at 3.6725 buys AED 3672.50, settling today" {
		t.Fatalf("fx.quote 1.1.0: %+v %v", res, err)
	}
	res, err = typed.FxQuoteV1_0_0(ctx, treasury.FxQuoteV1_0_0Args{Sell: treasury.FxQuoteV1_0_0ArgsSellUSD, Buy: treasury.FxQuoteV1_0_0ArgsBuyEUR, AmountMinor: 5000})
	if err != nil || res.IsError || !strings.HasSuffix(res.Text(), "settling spot") {
		t.Fatalf("fx.quote 1.0.0: %+v %v", res, err)
	}
	res, err = typed.FxBookV1_0_0(ctx, tools.BookArgs{QuoteID: "Q-100000", Settlement: []tools.SettlementLeg{
		{Account: "AE070331234567890123456", Percent: 60}, {Account: "AE460260001015325467201", Percent: 40},
	}})
	if err != nil || res.IsError || res.Text() != "deal D-0001 booked at Q-100000: 60% to AE070331234567890123456, 40% to AE460260001015325467201" {
		t.Fatalf("fx.book: %+v %v", res, err)
	}

	// Bad arguments never reach the handler: every violation, sorted, with
	// the reference validator's messages.
	res, err = c.CallTool(ctx, "fx.book", map[string]any{
		"quote_id":   "Q-12",
		"settlement": []any{map[string]any{"account": "AE07", "percent": 0}, map[string]any{"percent": 300}},
		"dealer":     map[string]any{"id": "D1"},
	})
	want := "arguments failed schema validation:\n" +
		"$.dealer.id: does not match pattern '^D[0-9]{4}$'\n" +
		"$.quote_id: does not match pattern '^Q-[0-9]{6}$'\n" +
		"$.settlement[0].account: does not match pattern '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'\n" +
		"$.settlement[0].percent: below minimum 1\n" +
		"$.settlement[1].account: required property is missing\n" +
		"$.settlement[1].percent: above maximum 100"
	if err != nil || !res.IsError || res.Text() != want {
		t.Fatalf("bad fx.book: %+v %v\nwant the violations:\n%s", res, err, want)
	}
	c.Close()
	if err := <-done; err != nil {
		t.Fatalf("service: %v", err)
	}
}

// run runs the service as main does, on the given arguments and streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := newService()
	s.Stdin, s.Stdout, s.Stderr = stdin, stdout, stderr
	return s.Run(context.Background(), args)
}
