package mcp_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// One test per invariant (docs/concepts.md#the-gates), each observed on the wire.

func TestInvariant01NotificationNeverAnswered(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	notifications := []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`, // before initialize: ignored
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}}`,
		`{"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress"}`,
		// A notifications/ method is a notification even with an id.
		`{"jsonrpc":"2.0","id":5,"method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed",` + `"params":{` + statelessMeta + `}}`,
	}
	for _, n := range notifications {
		w.send(n)
	}
	w.quiet()
	w.handshake(mcp.Revision20250618)
	for _, n := range notifications {
		w.send(n)
	}
	w.quiet()
	rest, err := w.finish()
	if err != nil || len(rest) != 0 {
		t.Fatalf("after the last probe: %v, %v", rest, err)
	}
}

func TestInvariant02SchemaViolationLeavesCallLogUntouched(t *testing.T) {
	for _, rev := range append(handshakeRevisions, mcp.Revision20260728) {
		t.Run(string(rev), func(t *testing.T) {
			b := newBank(t, mcp.Options{})
			w, params := session(t, b.srv, investigator, rev)
			w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params(`{"name":"payments.lookup","arguments":{"reference":"PMT771"}}`) + `}`)
			if n := b.called("payments.lookup@1.0.0"); n != 0 {
				t.Fatalf("handler ran %d times", n)
			}
			if recs := b.log.records(t, "tool call"); len(recs) != 0 {
				t.Fatalf("call log written: %v", recs)
			}
			w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + params(`{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}`) + `}`)
			if n := b.called("payments.lookup@1.0.0"); n != 1 {
				t.Fatalf("valid call: handler ran %d times", n)
			}
			if recs := b.log.records(t, "tool call"); len(recs) != 1 {
				t.Fatalf("valid call: %d call log records", len(recs))
			}
		})
	}
}

func TestInvariant03UnentitledAndNonexistentSameError(t *testing.T) {
	for _, rev := range append(handshakeRevisions, mcp.Revision20260728) {
		t.Run(string(rev), func(t *testing.T) {
			b := newBank(t, mcp.Options{})
			w, params := session(t, b.srv, investigator, rev)
			answer := func(name, extra string) string {
				got := w.call(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":` +
					params(`{"name":"`+name+`","arguments":{"reference":"PMT-771","amount_minor":1,"currency":"AED"}`+extra+`}`) + `}`)
				return strings.ReplaceAll(got, name, "NAME")
			}
			nonexistent := answer("no.such.tool", "")
			if code(t, nonexistent) != "-32601" {
				t.Fatalf("nonexistent: %s", nonexistent)
			}
			for _, probe := range []struct{ name, extra string }{
				{"payments.release", ""}, // needs a scope and a clearance the caller lacks
				{"payments.release", `,"_meta":{"version":"1.0.0"}`},
				{"payments.lookup", `,"_meta":{"version":"^9.0.0"}`}, // no version matches the pin
				{"no.such.tool", `,"_meta":{"version":"*"}`},
			} {
				if got := answer(probe.name, probe.extra); got != nonexistent {
					t.Errorf("%s %s:\n got %s\nwant %s", probe.name, probe.extra, got, nonexistent)
				}
			}
			// A schema violation on an unentitled tool is still "unknown":
			// discoverability is checked before the schema.
			if got := answer("payments.release", `,"_meta":{"schemaHash":"fnv1a64:0000000000000000"}`); got != nonexistent {
				t.Errorf("hash pin on an unentitled tool: %s", got)
			}
			if n := b.called("payments.release@1.0.0"); n != 0 {
				t.Fatalf("unentitled handler ran %d times", n)
			}
		})
	}
}

func TestInvariant04ToolsListEntriesCarryStandardKeysOnly(t *testing.T) {
	b := newBank(t, mcp.Options{})
	secretSchema := `{"type":"object","properties":{"token":{"type":"string","x-secret":true}},"required":["token"]}`
	b.bind(t, estate.ToolSpec{
		Name: "vault.read", Version: estate.MustParseVersion("1.0.0"), Title: "Read", Description: "Read a vault entry.",
		InputSchema: schema.MustParseJSON(secretSchema), OutputSchema: schema.MustParseJSON(`{"type":"object","properties":{"value":{"type":"string"}}}`),
		SideEffect: estate.Read, RequiredScopes: []string{"crm.write"}, DataClassification: estate.Internal,
		Owner: "vault-team", Tenants: []string{"wholesale"},
	}, func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	tools := jget(t, got, "result", "tools").([]any)
	if len(tools) != 3 {
		t.Fatalf("tools: %s", got)
	}
	for _, tool := range tools {
		entry := tool.(map[string]any)
		want := "_meta,annotations,description,inputSchema,name,title"
		if entry["name"] == "vault.read" {
			want = "_meta,annotations,description,inputSchema,name,outputSchema,title"
		}
		if k := keys(entry); k != want {
			t.Errorf("%s: keys %s, want %s", entry["name"], k, want)
		}
		if k := keys(entry["_meta"]); k != "schemaHash,sideEffect,version" {
			t.Errorf("%s: _meta keys %s", entry["name"], k)
		}
		if k := keys(entry["annotations"]); k != "destructiveHint,idempotentHint,readOnlyHint" {
			t.Errorf("%s: annotation keys %s", entry["name"], k)
		}
	}
	for _, leak := range []string{"payments.read", "crm.write", "confidential", "wholesale-payments", "vault-team", "x-secret", "tenants", "scopes"} {
		if strings.Contains(got, leak) {
			t.Errorf("tools/list leaks %q: %s", leak, got)
		}
	}
	// The hash is of the schema the client sees.
	for i, spec := range []estate.ToolSpec{notesSpec, lookupSpec("1.0.0", lookupSchema)} {
		if h := jget(t, got, "result", "tools", i, "_meta", "schemaHash"); h != spec.InputSchema.Hash() {
			t.Errorf("%s: schemaHash %v, want %s", spec.Name, h, spec.InputSchema.Hash())
		}
	}
	vault := tools[2].(map[string]any)
	if h, _ := schema.HashValue(vault["inputSchema"]); h != vault["_meta"].(map[string]any)["schemaHash"] {
		t.Errorf("vault.read: the hash is not the hash of the listed schema")
	}
}

func TestInvariant05ValidationErrorsSorted(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	// The traced call (docs/concepts.md#the-estate).
	got := w.call(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"urgent":true,"reference":"PMT771","include_legs":"yes"}}}`)
	want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"arguments failed schema validation","data":{"errors":[` +
		`"$.include_legs: expected type boolean, got string",` +
		`"$.reference: does not match pattern '^PMT-\\d{3,}$'",` +
		`"$.urgent: additional property is not allowed"]}}}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestInvariant06PublishedVersionNeverReplaced(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	before := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)

	edited := lookupSpec("1.0.0", lookupV2Schema)
	err := b.srv.Bind(edited, mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult("impostor"), nil
	}})
	pe, ok := err.(*estate.PublishError)
	if !ok || pe.Rule != "immutable" {
		t.Fatalf("republishing 1.0.0: %v", err)
	}
	if after := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); after != before {
		t.Errorf("tools/list changed:\n%s\n%s", before, after)
	}
	got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`)
	if !strings.Contains(got, "HELD") {
		t.Errorf("the original handler no longer answers: %s", got)
	}
}

func TestInvariant07LatestNeverDeprecatedResolveNeverRetired(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("v2"), nil })
	if err := b.reg.Deprecate("payments.lookup", "1.0.0", "payments.lookup@2.0.0"); err != nil {
		t.Fatal(err)
	}
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	list := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if v := jget(t, list, "result", "tools", 1, "_meta", "version"); v != "2.0.0" {
		t.Fatalf("listed %v after deprecating 1.0.0: %s", v, list)
	}
	unpinned := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-12"}}}`)
	if jget(t, unpinned, "result", "content", 0, "text") != "v2" {
		t.Fatalf("unpinned call: %s", unpinned)
	}
	pinned := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},"_meta":{"version":"^1.0.0"}}}`
	if got := w.call(pinned); !strings.Contains(got, "HELD") {
		t.Fatalf("a pin must still reach the deprecated 1.0.0: %s", got)
	}
	if err := b.reg.Retire("payments.lookup", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if got := w.call(pinned); got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"unknown tool: payments.lookup"}}` {
		t.Fatalf("a pin must never reach a retired version: %s", got)
	}
	if n := b.called("payments.lookup@1.0.0"); n != 1 {
		t.Errorf("1.0.0 ran %d times", n)
	}
}

func TestInvariant08DiscoveryListsOneVersionPerToolSorted(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	admin := estate.Principal{AgentID: "ops", Tenant: "wholesale", Scopes: []string{"payments.read", "payments.release", "crm.write"}, MaxClassification: estate.Restricted}
	w := serve(t, b.srv, admin)
	w.handshake(mcp.Revision20251125)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var names []string
	for _, tool := range jget(t, got, "result", "tools").([]any) {
		names = append(names, tool.(map[string]any)["name"].(string)+"@"+tool.(map[string]any)["_meta"].(map[string]any)["version"].(string))
	}
	if strings.Join(names, " ") != "crm.notes.append@1.0.0 payments.lookup@2.0.0 payments.release@1.0.0" {
		t.Errorf("listed %v", names)
	}
	// A principal below payments.release's classification sees the rest.
	w2 := serve(t, b.srv, investigator)
	w2.handshake(mcp.Revision20251125)
	got = w2.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if n := len(jget(t, got, "result", "tools").([]any)); n != 2 {
		t.Errorf("investigator sees %d tools: %s", n, got)
	}
}

func TestInvariant09RepairIsIdempotentAndItsResultIsServed(t *testing.T) {
	b := newBank(t, mcp.Options{})
	in := schema.MustParseJSON(lookupSchema)
	proposed := map[string]any{"reference": "PMT771", "include_legs": "yes", "urgent": true}
	once, remaining := schema.Repair(proposed, in, nil)
	twice, remainingAgain := schema.Repair(once, in, nil)
	if !schema.Equal(once, twice) || strings.Join(remaining.Strings(), "|") != strings.Join(remainingAgain.Strings(), "|") {
		t.Fatalf("repair is not idempotent: %v then %v", once, twice)
	}
	if len(remaining) != 2 {
		t.Fatalf("remaining errors: %v", remaining)
	}
	// The model fixes what repair could not; the server serves the result.
	fixed := once.(map[string]any)
	fixed["reference"], fixed["include_legs"] = "PMT-771", true
	args, _ := schema.CanonicalJSON(fixed)
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":` + string(args) + `}}`)
	if jget(t, got, "result", "isError") != false || !strings.Contains(got, "PMT-771: HELD") {
		t.Errorf("repaired call: %s", got)
	}
}

func TestInvariant10EverySideEffectIsAnnotated(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, se := range estate.SideEffects() {
		spec := estate.ToolSpec{
			Name: "t" + string(rune('a'+i)), Version: estate.MustParseVersion("1.0.0"),
			InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: se,
			DataClassification: estate.Public, Owner: "o",
		}
		if err := srv.Bind(spec, mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return nil, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	w := serve(t, srv, estate.Principal{MaxClassification: estate.Public})
	w.handshake(mcp.Revision20250326)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for i, se := range estate.SideEffects() {
		h := se.Hints()
		entry := jget(t, got, "result", "tools", i)
		if jget(t, got, "result", "tools", i, "_meta", "sideEffect") != string(se) {
			t.Errorf("%s: %v", se, entry)
		}
		ann := jget(t, got, "result", "tools", i, "annotations").(map[string]any)
		if ann["readOnlyHint"] != h.ReadOnly || ann["destructiveHint"] != h.Destructive || ann["idempotentHint"] != h.Idempotent {
			t.Errorf("%s: annotations %v, want %+v", se, ann, h)
		}
	}
	// The hints agree with the retry policy: what is retryable is exactly
	// what is read-only or idempotent.
	for _, se := range estate.SideEffects() {
		if h := se.Hints(); se.Retryable() != (h.ReadOnly || h.Idempotent) {
			t.Errorf("%s: retryable %v but hints %+v", se, se.Retryable(), h)
		}
	}
}
