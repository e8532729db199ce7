package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The sample estate's schemas (docs/concepts.md#the-estate).
const (
	lookupSchema = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`
	lookupV2     = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"},"as_of":{"type":"string"}},"required":["reference","as_of"],"additionalProperties":false}`
	lookupAsOf   = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"},"as_of":{"type":"string"}},"required":["reference"],"additionalProperties":false}`
	releaseSch   = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"amount_minor":{"type":"integer","minimum":1},"currency":{"type":"string","enum":["AED","USD","EUR"]}},"required":["reference","amount_minor","currency"],"additionalProperties":false}`
	notesSchema  = `{"type":"object","properties":{"customer_id":{"type":"string"},"note":{"type":"string"}},"required":["customer_id","note"],"additionalProperties":false}`
)

func sampleSpec(name, version, title, desc, in string, se estate.SideEffect, scopes []string, class estate.Classification, owner string, tenants []string) estate.ToolSpec {
	return estate.ToolSpec{Name: name, Version: estate.MustParseVersion(version), Title: title, Description: desc,
		InputSchema: schema.MustParseJSON(in), SideEffect: se, RequiredScopes: scopes,
		DataClassification: class, Owner: owner, Tenants: tenants}
}

// pipe connects a client to ServeStream in memory: the real framing, no
// process.
func pipe(srv *mcp.Server, p estate.Principal, opts client.Options) *client.Client {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		srv.ServeStream(context.Background(), toServer, fromServer, p)
		fromServer.Close()
	}()
	return client.New(client.NewStreamConn(toClient, fromClient), opts)
}

func section(n int, title string) {
	fmt.Println(strings.Repeat("=", 40))
	fmt.Printf("%d. %s\n", n, title)
	fmt.Println(strings.Repeat("=", 40))
}

// Example is the worked session (docs/concepts.md#the-estate):
// the runtime's client talking to the runtime's server, both used as
// hand-written Go, over an in-memory stream.
func Example() {
	ctx := context.Background()
	registry := estate.NewRegistry()
	srv, _ := mcp.NewServer(mcp.Options{
		Name: "bank-payments-mcp", Version: "2.3.1", Registry: registry,
		Resources: []mcp.Resource{{URI: "policy://sanctions/hold-release", Name: "Hold release policy",
			MIMEType: "text/markdown", Text: "Releases above 100k need dual control.", Tenants: []string{"wholesale"}}},
		Prompts: []mcp.Prompt{{Name: "investigate", Description: "Investigate a held payment",
			Arguments: []mcp.PromptArgument{{Name: "reference", Required: true}},
			Template:  "Investigate payment {reference}. State the hold reason."}},
	})
	var coreBankingDown atomic.Bool
	lookup := func(_ context.Context, call *mcp.Call) (*mcp.Result, error) {
		if coreBankingDown.Load() {
			return mcp.ErrorResult("core banking timeout"), nil
		}
		return mcp.TextResult(fmt.Sprintf("%s: HELD, 250000 AED, beneficiary 'Acme Trading FZE'", call.Arguments()["reference"])), nil
	}
	text := func(s string) mcp.Handler {
		return func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult(s), nil }
	}
	srv.Bind(sampleSpec("payments.lookup", "1.0.0", "Look up a payment",
		"Return the status, amount and counterparties of a payment by its reference.", lookupSchema,
		estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil), mcp.Tool{Handler: lookup})
	srv.Bind(sampleSpec("payments.release", "1.0.0", "Release a held payment",
		"Release a payment currently on hold. Requires dual control above threshold.", releaseSch,
		estate.Irreversible, []string{"payments.release"}, estate.Restricted, "wholesale-payments", []string{"wholesale"}), mcp.Tool{Handler: text("released")})
	srv.Bind(sampleSpec("crm.notes.append", "1.0.0", "Append a CRM note", "Append a note to a customer record.", notesSchema,
		estate.WriteIdempotent, []string{"crm.write"}, estate.Internal, "retail-crm", nil), mcp.Tool{Handler: text("note appended")})

	section(1, "THE HANDSHAKE")
	principal := estate.Principal{AgentID: "payments-investigator", Tenant: "wholesale",
		Scopes: []string{"payments.read", "crm.write"}, MaxClassification: estate.Confidential}
	changed := make(chan struct{}, 4)
	c := pipe(srv, principal, client.Options{
		Info: client.Implementation{Name: "bank-agent-kernel", Version: "1.0.0"}, ProtocolVersion: "2025-06-18",
		OnNotification: func(method string, _ json.RawMessage) {
			if method == "notifications/tools/list_changed" {
				changed <- struct{}{}
			}
		},
	})
	defer c.Close()
	info, _ := c.Connect(ctx)
	var caps []string
	for k := range info.Capabilities {
		caps = append(caps, k)
	}
	sort.Strings(caps)
	fmt.Println("negotiated protocol :", info.ProtocolVersion)
	fmt.Println("server              :", info.ServerInfo.Name, info.ServerInfo.Version)
	fmt.Println("capabilities        :", caps)
	fmt.Println("tools.listChanged   :", c.Supports("tools") && strings.Contains(string(info.Capabilities["tools"]), `"listChanged":true`))

	section(2, "AUTHORIZATION-AWARE DISCOVERY")
	tools, _ := c.ListTools(ctx, false)
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	fmt.Println("this principal sees :", names)
	_, err := c.CallTool(ctx, "payments.release", map[string]any{"reference": "PMT-771", "amount_minor": 1, "currency": "AED"})
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		fmt.Printf("calling it anyway   : [%d] %s\n", rpcErr.Code, rpcErr.Message)
	}

	section(3, "CONTRACT ENFORCEMENT AND THE REPAIR LOOP")
	lookupIn := schema.MustParseJSON(lookupSchema)
	bad, _ := schema.DecodeJSON([]byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`))
	for _, e := range lookupIn.Validate(bad) {
		fmt.Println("  ✗", e)
	}
	repaired, remaining := schema.Repair(bad, lookupIn, nil)
	out, _ := schema.CanonicalJSON(repaired)
	fmt.Println("after deterministic repair:", string(out))
	fmt.Println("remaining for the model to fix:", remaining.Strings())
	res, _ := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771", "include_legs": true})
	fmt.Printf("valid call          : isError=%v content=%q\n", res.IsError, res.Text())

	section(4, "VERSIONING: WHO BREAKS?")
	v2, v3 := schema.MustParseJSON(lookupAsOf), schema.MustParseJSON(lookupV2)
	release := schema.MustParseJSON(releaseSch)
	narrowed := schema.MustParseJSON(strings.Replace(releaseSch, `["AED","USD","EUR"]`, `["AED"]`, 1))
	widened := schema.MustParseJSON(strings.Replace(releaseSch, `["AED","USD","EUR"]`, `["AED","USD","EUR","GBP"]`, 1))
	fmt.Println("add an OPTIONAL field   ->", schema.Classify(lookupIn, v2, schema.Input).Class)
	fmt.Println("make it REQUIRED        ->", schema.Classify(v2, v3, schema.Input).Class)
	fmt.Println("NARROW an enum          ->", schema.Classify(release, narrowed, schema.Input).Class)
	fmt.Println("WIDEN an enum           ->", schema.Classify(release, widened, schema.Input).Class)
	err = registry.Publish(sampleSpec("payments.lookup", "1.1.0", "x", "x", lookupV2, estate.Read,
		[]string{"payments.read"}, estate.Confidential, "wholesale-payments", nil))
	fmt.Println("registry refuses a breaking change as a minor bump:", err)

	section(5, "DEPRECATION AND THE CHANGE NOTIFICATION")
	before, _ := c.ListTools(ctx, false)
	fmt.Println("client cache before :", metaVersions(before), "list calls:", c.ListCalls())
	srv.Bind(sampleSpec("payments.lookup", "2.0.0", "Look up a payment", "Return the status of a payment as of a point in time.",
		lookupV2, estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil), mcp.Tool{Handler: lookup})
	registry.Deprecate("payments.lookup", "1.0.0", "payments.lookup@2.0.0")
	<-changed // one per change: the publish and the deprecation
	<-changed
	latest, _ := registry.Latest("payments.lookup")
	pinned, _ := registry.Resolve("payments.lookup", must(estate.ParseConstraint("^1.0.0")))
	fmt.Println("latest active       :", latest.Key())
	fmt.Println("pinned to ^1.0.0    :", pinned.Key(), "(deprecated, still resolvable)")
	after, _ := c.ListTools(ctx, false)
	fmt.Println("after list_changed  :", metaVersions(after), "list calls:", c.ListCalls())

	section(6, "RESOURCES AND PROMPTS")
	contents, _ := c.ReadResource(ctx, "policy://sanctions/hold-release")
	fmt.Printf("resource            : %q\n", contents[0].Text)
	prompt, _ := c.GetPrompt(ctx, "investigate", map[string]string{"reference": "PMT-771"})
	fmt.Printf("prompt              : %q\n", prompt.Messages[0].Content.Text)

	section(7, "PROTOCOL ERRORS VS TOOL ERRORS")
	_, err = c.CallTool(ctx, "payments.lookup", map[string]any{})
	if errors.As(err, &rpcErr) {
		raw, _ := rpcErr.DataJSON()
		fmt.Printf("missing required arg -> JSON-RPC error %d: %s\n", rpcErr.Code, raw)
	}
	coreBankingDown.Store(true)
	res, _ = c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771", "as_of": "2026-03-12"})
	fmt.Printf("tool failure         -> isError=%v, text=%q\n", res.IsError, res.Text())

	section(8, "THE ESTATE, AS THE PLATFORM SEES IT")
	for _, name := range []string{"payments.lookup", "payments.release", "crm.notes.append"} {
		for _, s := range registry.Versions(name) {
			fmt.Printf("%-24s %-10s %-16s retryable=%-5v scopes=%v class=%s\n",
				s.Key(), s.Lifecycle, s.SideEffect, s.SideEffect.Retryable(), s.RequiredScopes, s.DataClassification)
		}
	}
	// Output:
	// ========================================
	// 1. THE HANDSHAKE
	// ========================================
	// negotiated protocol : 2025-06-18
	// server              : bank-payments-mcp 2.3.1
	// capabilities        : [completions logging prompts resources tools]
	// tools.listChanged   : true
	// ========================================
	// 2. AUTHORIZATION-AWARE DISCOVERY
	// ========================================
	// this principal sees : [crm.notes.append payments.lookup]
	// calling it anyway   : [-32601] unknown tool: payments.release
	// ========================================
	// 3. CONTRACT ENFORCEMENT AND THE REPAIR LOOP
	// ========================================
	//   ✗ $.include_legs: expected type boolean, got string
	//   ✗ $.reference: does not match pattern '^PMT-\d{3,}$'
	//   ✗ $.urgent: additional property is not allowed
	// after deterministic repair: {"include_legs":"yes","reference":"PMT771"}
	// remaining for the model to fix: [$.include_legs: expected type boolean, got string $.reference: does not match pattern '^PMT-\d{3,}$']
	// valid call          : isError=false content="PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'"
	// ========================================
	// 4. VERSIONING: WHO BREAKS?
	// ========================================
	// add an OPTIONAL field   -> minor
	// make it REQUIRED        -> major
	// NARROW an enum          -> major
	// WIDEN an enum           -> minor
	// registry refuses a breaking change as a minor bump: payments.lookup@1.1.0: schema change is major; major version must be 2
	// ========================================
	// 5. DEPRECATION AND THE CHANGE NOTIFICATION
	// ========================================
	// client cache before : [1.0.0 1.0.0] list calls: 1
	// latest active       : payments.lookup@2.0.0
	// pinned to ^1.0.0    : payments.lookup@1.0.0 (deprecated, still resolvable)
	// after list_changed  : [1.0.0 2.0.0] list calls: 2
	// ========================================
	// 6. RESOURCES AND PROMPTS
	// ========================================
	// resource            : "Releases above 100k need dual control."
	// prompt              : "Investigate payment PMT-771. State the hold reason."
	// ========================================
	// 7. PROTOCOL ERRORS VS TOOL ERRORS
	// ========================================
	// missing required arg -> JSON-RPC error -32602: {"errors":["$.as_of: required property is missing","$.reference: required property is missing"]}
	// tool failure         -> isError=true, text="core banking timeout"
	// ========================================
	// 8. THE ESTATE, AS THE PLATFORM SEES IT
	// ========================================
	// payments.lookup@1.0.0    deprecated read             retryable=true  scopes=[payments.read] class=confidential
	// payments.lookup@2.0.0    active     read             retryable=true  scopes=[payments.read] class=confidential
	// payments.release@1.0.0   active     irreversible     retryable=false scopes=[payments.release] class=restricted
	// crm.notes.append@1.0.0   active     write_idempotent retryable=true  scopes=[crm.write] class=internal
}

func metaVersions(tools []client.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Meta.Version)
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
