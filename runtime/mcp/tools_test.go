package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestInitializeNegotiatesLeniently(t *testing.T) {
	b := newBank(t, mcp.Options{Instructions: "Payments tools."})
	cases := map[string]string{
		"2024-11-05": "2024-11-05", "2025-03-26": "2025-03-26", "2025-06-18": "2025-06-18", "2025-11-25": "2025-11-25",
		"1999-01-01": "2025-11-25", "2026-07-28": "2025-11-25", "": "2025-11-25",
	}
	for requested, want := range cases {
		w := serve(t, b.srv, investigator)
		got := w.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + requested + `","capabilities":{"sampling":{}},"clientInfo":{"name":"kernel","version":"1.0.0"}}}`)
		completions := `,"completions":{}` // the capability arrived in 2025-03-26
		if want == "2024-11-05" {
			completions = ""
		}
		wantLine := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + want + `",` +
			`"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{}` + completions + `},` +
			`"serverInfo":{"name":"bank-payments-mcp","version":"2.3.1"},"instructions":"Payments tools."}}`
		if got != wantLine {
			t.Errorf("requested %q:\n got %s\nwant %s", requested, got, wantLine)
		}
	}
	w := serve(t, b.srv, investigator)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":20250618}}`); code(t, got) != "-32602" {
		t.Errorf("a non-string protocolVersion: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`); code(t, got) != "-32602" {
		t.Errorf("no params: %s", got)
	}
}

func TestSchemaViolationFormPerRevision(t *testing.T) {
	errs := []string{
		"$.include_legs: expected type boolean, got string",
		`$.reference: does not match pattern '^PMT-\d{3,}$'`,
		"$.urgent: additional property is not allowed",
	}
	for _, rev := range mcp.Revisions() {
		t.Run(string(rev), func(t *testing.T) {
			b := newBank(t, mcp.Options{})
			w, params := session(t, b.srv, investigator, rev)
			got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` +
				params(`{"name":"payments.lookup","arguments":{"reference":"PMT771","include_legs":"yes","urgent":true}}`) + `}`)
			if !rev.SchemaViolationIsToolError() {
				if code(t, got) != "-32602" || jget(t, got, "error", "message") != "arguments failed schema validation" {
					t.Fatalf("got %s", got)
				}
				if listed := jget(t, got, "error", "data", "errors"); !sameStrings(listed, errs) {
					t.Errorf("data.errors %v", listed)
				}
			} else {
				if jget(t, got, "result", "isError") != true {
					t.Fatalf("got %s", got)
				}
				text := jget(t, got, "result", "content", 0, "text").(string)
				if text != "arguments failed schema validation:\n"+strings.Join(errs, "\n") {
					t.Errorf("text %q", text)
				}
				if listed := jget(t, got, "result", "_meta", "errors"); !sameStrings(listed, errs) {
					t.Errorf("_meta.errors %v", listed)
				}
			}
			if rt := jget(t, got, "result", "resultType"); rev.Stateless() != (rt == "complete") {
				t.Errorf("resultType %v", rt)
			}
			if n := b.called("payments.lookup@1.0.0"); n != 0 {
				t.Errorf("the handler ran %d times", n)
			}
		})
	}
}

func sameStrings(v any, want []string) bool {
	list, ok := v.([]any)
	if !ok || len(list) != len(want) {
		return false
	}
	for i := range list {
		if list[i] != want[i] {
			return false
		}
	}
	return true
}

func TestSchemaHashPinDriftError(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	served := lookupSpec("1.0.0", lookupSchema).InputSchema.Hash()
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT771"},"_meta":{"schemaHash":"fnv1a64:00000000deadbeef"}}}`)
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"schema drift: payments.lookup","data":{"reason":"schemaDrift","toolName":"payments.lookup","version":"1.0.0","expectedSchemaHash":"fnv1a64:00000000deadbeef","observedHash":"` + served + `"}}}`
	if got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	// The pin is checked before the schema: the arguments above are invalid
	// too, and the drift is what the caller hears about.
	m, _ := jsonrpc.Decode([]byte(got))
	d, ok := drift.FromRPCError(m.Error)
	if !ok || *d != (drift.Error{ToolName: "payments.lookup", Version: "1.0.0", ExpectedSchemaHash: "fnv1a64:00000000deadbeef", ObservedHash: served}) {
		t.Fatalf("FromRPCError: %+v %v", d, ok)
	}
	if _, ok := drift.FromRPCError(jsonrpc.NewError(jsonrpc.CodeInvalidParams, "arguments failed schema validation")); ok {
		t.Error("a schema violation read as drift")
	}
	if n := b.called("payments.lookup@1.0.0"); n != 0 {
		t.Fatalf("the handler ran %d times", n)
	}
	ok2 := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},"_meta":{"schemaHash":"` + served + `"}}}`)
	if !strings.Contains(ok2, "HELD") {
		t.Errorf("matching pin: %s", ok2)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{},"_meta":{"schemaHash":7}}}`); code(t, got) != "-32602" {
		t.Errorf("non-string pin: %s", got)
	}
}

func TestVersionPinReachesDeprecatedNeverRetired(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, lookupSpec("1.1.0", strings.Replace(lookupSchema, `"include_legs":{"type":"boolean"}`, `"include_legs":{"type":"boolean"},"verbose":{"type":"boolean"}`, 1)),
		func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("v1.1"), nil })
	b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("v2"), nil })
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if err := b.reg.Deprecate("payments.lookup", v, "payments.lookup@2.0.0"); err != nil {
			t.Fatal(err)
		}
	}
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20251125)
	call := func(pin string) string {
		meta := ""
		if pin != "" {
			meta = `,"_meta":{"version":"` + pin + `"}`
		}
		got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"x"}` + meta + `}}`)
		if text, ok := jget(t, got, "result", "content", 0, "text").(string); ok {
			return text
		}
		return got
	}
	// as_of is required by 2.0.0 and not allowed by 1.x: each answer shows
	// which contract validated it.
	if got := call(""); got != "v2" {
		t.Errorf("unpinned: %s", got)
	}
	if got := call("^1.0.0"); !strings.HasPrefix(got, "arguments failed schema validation") {
		t.Errorf("^1.0.0 must reach 1.1.0, the newest deprecated 1.x: %s", got)
	}
	if got := call("~1.0.0"); !strings.HasPrefix(got, "arguments failed schema validation") {
		t.Errorf("~1.0.0: %s", got)
	}
	if err := b.reg.Retire("payments.lookup", "1.1.0"); err != nil {
		t.Fatal(err)
	}
	got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},"_meta":{"version":"^1.0.0"}}}`)
	if !strings.Contains(got, "HELD") {
		t.Errorf("^1.0.0 after retiring 1.1.0 must reach 1.0.0: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},"_meta":{"version":"1.1.0"}}}`); got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"unknown tool: payments.lookup"}}` {
		t.Errorf("exact pin on a retired version: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"payments.lookup","arguments":{},"_meta":{"version":"not a range"}}}`); code(t, got) != "-32602" {
		t.Errorf("malformed pin: %s", got)
	}
}

func TestHandlerErrorAndPanicBecomeToolErrors(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, freeTool("core.timeout", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		return nil, errors.New("core banking timeout")
	})
	b.bind(t, freeTool("core.crash", estate.Read), func(c *mcp.Call) (*mcp.Result, error) {
		var m map[string]int
		m["boom"]++ // a nil map write panics
		return nil, nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"core.timeout"}}`); got != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"core banking timeout"}],"isError":true}}` {
		t.Errorf("handler error: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"core.crash"}}`); got != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"tool failed: internal error"}],"isError":true}}` {
		t.Errorf("handler panic: %s", got)
	}
	if recs := b.log.records(t, "tool handler panicked"); len(recs) != 1 || !strings.Contains(recs[0]["panic"].(string), "nil map") {
		t.Errorf("panic log: %v", recs)
	}
	// The server keeps serving.
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`); !strings.Contains(got, "HELD") {
		t.Errorf("after the panic: %s", got)
	}
}

func TestOutputSchemaIsEnforced(t *testing.T) {
	b := newBank(t, mcp.Options{})
	spec := freeTool("status", estate.Read)
	spec.OutputSchema = schema.MustParseJSON(`{"type":"object","properties":{"state":{"type":"string","enum":["HELD","RELEASED"]}},"required":["state"]}`)
	state := "HELD"
	b.bind(t, spec, func(*mcp.Call) (*mcp.Result, error) {
		return &mcp.Result{Content: []mcp.Content{mcp.TextContent(state)}, StructuredContent: map[string]string{"state": state}}, nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status"}}`); got != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"HELD"}],"structuredContent":{"state":"HELD"},"isError":false}}` {
		t.Errorf("conforming result: %s", got)
	}
	state = "LOST"
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"status"}}`); got != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"tool failed: its result does not match the declared output schema"}],"isError":true}}` {
		t.Errorf("violating result: %s", got)
	}
	if recs := b.log.records(t, "tool result violates its output schema"); len(recs) != 1 {
		t.Errorf("log: %v", recs)
	}
}

// stateOutput writes itself, as a generated output type does:
// {"state":"..."}.
type stateOutput string

func (s stateOutput) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"state":`...)
	b = encode.String(b, string(s))
	return append(b, '}'), nil
}

// A structured content that writes itself (encode.Appender) is written
// into a buffer the stream's request keeps from call to call: each call's
// answer carries its own content and is checked on its own bytes, a
// content too large to keep included, and the calls after it; a nil
// pointer to such a type is null.
func TestStructuredContentThatWritesItself(t *testing.T) {
	b := newBank(t, mcp.Options{})
	spec := freeTool("status", estate.Read)
	spec.OutputSchema = schema.MustParseJSON(`{"type":"object","properties":{"state":{"type":"string","maxLength":30000}},"required":["state"]}`)
	states := []string{"HELD", "RELEASED", "nil", strings.Repeat("R", 20000), "LOST", strings.Repeat("T", 30001), "HELD"}
	next := 0
	b.bind(t, spec, func(*mcp.Call) (*mcp.Result, error) {
		s := states[next]
		next++
		var out any = stateOutput(s)
		if s == "nil" {
			out = (*stateOutput)(nil)
		}
		return &mcp.Result{Content: []mcp.Content{mcp.TextContent("s")}, StructuredContent: out}, nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	for i, s := range states {
		got := w.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"status"}}`, i+1))
		if i == 2 {
			// A nil pointer to a type that writes itself is null, which
			// breaks the schema; the server goes on.
			if !strings.Contains(got, "does not match the declared output schema") {
				t.Errorf("call %d, a nil *stateOutput: %.200s", i+1, got)
			}
			continue
		}
		if len(s) > 30000 {
			if !strings.Contains(got, "does not match the declared output schema") {
				t.Errorf("call %d, a content over its maxLength: %.200s", i+1, got)
			}
			continue
		}
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"s"}],"structuredContent":{"state":%q},"isError":false}}`, i+1, s)
		if got != want {
			t.Errorf("call %d: %.200s\nwant %.200s", i+1, got, want)
		}
	}
}

// A tool's own output checker (generated code's) is the one in force: it
// decides over the reference validator, is given the content as encoded,
// and is not called for a version without an output schema or for an
// error result.
func TestToolsOutputCheckerDecides(t *testing.T) {
	b := newBank(t, mcp.Options{})
	var checked []string
	refuseHeld := func(structured json.RawMessage) schema.Errors {
		checked = append(checked, string(structured))
		if strings.Contains(string(structured), "HELD") {
			return schema.Errors{{Path: "$.state", Message: "must not be HELD"}}
		}
		return nil
	}
	state, failed := "HELD", false
	handler := func(context.Context, *mcp.Call) (*mcp.Result, error) {
		return &mcp.Result{Content: []mcp.Content{mcp.TextContent(state)}, StructuredContent: map[string]string{"state": state}, IsError: failed}, nil
	}
	spec := freeTool("status", estate.Read)
	// The reference validator would accept HELD and refuse LOST.
	spec.OutputSchema = schema.MustParseJSON(`{"type":"object","properties":{"state":{"type":"string","enum":["HELD","RELEASED"]}}}`)
	if err := b.srv.Bind(spec, mcp.Tool{Handler: handler, CheckOutput: refuseHeld}); err != nil {
		t.Fatal(err)
	}
	unchecked := freeTool("status.unchecked", estate.Read)
	if err := b.srv.Bind(unchecked, mcp.Tool{Handler: handler, CheckOutput: refuseHeld}); err != nil {
		t.Fatal(err)
	}
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)

	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status"}}`); !strings.Contains(got, "does not match the declared output schema") {
		t.Errorf("an output the tool's checker refuses: %s", got)
	}
	if recs := b.log.records(t, "tool result violates its output schema"); len(recs) != 1 || !strings.Contains(fmt.Sprint(recs[0]["errors"]), "$.state: must not be HELD") {
		t.Errorf("log: %v", recs)
	}
	state = "LOST"
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"status"}}`); !strings.Contains(got, `"structuredContent":{"state":"LOST"}`) {
		t.Errorf("an output the tool's checker accepts: %s", got)
	}
	if want := []string{`{"state":"HELD"}`, `{"state":"LOST"}`}; !slices.Equal(checked, want) {
		t.Errorf("checked %q, want %q", checked, want)
	}
	state = "HELD"
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"status.unchecked"}}`); !strings.Contains(got, `"structuredContent":{"state":"HELD"}`) {
		t.Errorf("a version without an output schema: %s", got)
	}
	failed = true
	if got := w.call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"status"}}`); !strings.Contains(got, `"structuredContent":{"state":"HELD"},"isError":true`) {
		t.Errorf("an error result: %s", got)
	}
	if len(checked) != 2 {
		t.Errorf("the checker ran %d times, want 2: not for a version without an output schema, nor an error result", len(checked))
	}
}

func TestCallCarriesWhatTheHandlerNeeds(t *testing.T) {
	b := newBank(t, mcp.Options{})
	type args struct{ Reference string }
	var seen *mcp.Call
	var seenMeta, seenCaps map[string]any
	spec := lookupSpec("1.0.0", lookupSchema)
	spec.Name = "payments.lookup.typed"
	err := b.srv.Bind(spec, mcp.Tool{
		// A generated validator decodes into the argument type.
		Validate: func(raw json.RawMessage) (any, schema.Errors) {
			var a args
			if err := json.Unmarshal(raw, &a); err != nil || !strings.HasPrefix(a.Reference, "PMT-") {
				return nil, schema.Errors{{Path: "$.reference", Message: "bad"}}
			}
			return &a, nil
		},
		Handler: func(_ mcpCtx, c *mcp.Call) (*mcp.Result, error) {
			seen, seenMeta, seenCaps = c, c.Meta(), c.ClientCapabilities()
			return mcp.TextResult(c.Value.(*args).Reference), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := serve(t, b.srv, investigator)
	got := w.call(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"payments.lookup.typed","arguments":{"reference":"PMT-9"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"trace":"t1"}}}`)
	if jget(t, got, "result", "content", 0, "text") != "PMT-9" {
		t.Fatalf("got %s", got)
	}
	if seen.Spec.Key() != "payments.lookup.typed@1.0.0" || string(seen.Raw) != `{"reference":"PMT-9"}` ||
		seen.Principal.AgentID != "payments-investigator" || seen.Revision != mcp.Revision20260728 ||
		seen.RequestID != jsonrpc.StringID("c1") || seenMeta["trace"] != "t1" ||
		keys(seenCaps) != "elicitation" {
		t.Errorf("call: %+v", seen)
	}
	if a := seen.Arguments(); a["reference"] != "PMT-9" {
		t.Errorf("Arguments() = %v", a)
	}
	// The session's principal, normalised once: its scopes sorted, as
	// every check reads them, while the caller's own slice is left as it is.
	if !slices.Equal(seen.Principal.Scopes, []string{"crm.write", "payments.read"}) || !slices.Equal(investigator.Scopes, []string{"payments.read", "crm.write"}) {
		t.Errorf("the call's scopes %q, the principal's %q", seen.Principal.Scopes, investigator.Scopes)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"payments.lookup.typed","arguments":{"reference":"X"},` + statelessMeta + `}}`); jget(t, got, "result", "content", 0, "text") != "arguments failed schema validation:\n$.reference: bad" {
		t.Errorf("custom validator's errors: %s", got)
	}
}

func TestListChangedAfterDeprecate(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	before := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if err := b.reg.Deprecate("payments.lookup", "2.0.0", ""); err != nil {
		t.Fatal(err)
	}
	if got := w.notification(); got != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` {
		t.Fatalf("got %s", got)
	}
	after := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if jget(t, before, "result", "tools", 1, "_meta", "version") != "2.0.0" || jget(t, after, "result", "tools", 1, "_meta", "version") != "1.0.0" {
		t.Errorf("re-listing after the notification:\n%s\n%s", before, after)
	}
}

func TestCallLogRedactsSecretsAtAnyDepth(t *testing.T) {
	b := newBank(t, mcp.Options{})
	spec := freeTool("transfer", estate.WriteNonIdempotent)
	spec.InputSchema = schema.MustParseJSON(`{"type":"object","properties":{
		"token":{"type":"string","x-secret":true},
		"amount":{"type":"integer"},
		"auth":{"type":"object","properties":{"otp":{"type":"string","x-secret":true},"user":{"type":"string"}}},
		"legs":{"type":"array","items":{"type":"object","properties":{"pin":{"type":"string","x-secret":true}}}},
		"extra":{"type":"object","additionalProperties":{"type":"string","x-secret":true}}}}`)
	b.bind(t, spec, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("ok"), nil })
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	list := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if strings.Contains(list, "x-secret") {
		t.Errorf("tools/list shows the marker: %s", list)
	}
	w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"transfer","arguments":{"token":"tok-SECRET-1","amount":5,` +
		`"auth":{"otp":"SECRET-2","user":"alice"},"legs":[{"pin":"SECRET-3"},{"pin":"SECRET-4"}],"extra":{"k":"SECRET-5"}}}}`)
	logged := b.log.String()
	if strings.Contains(logged, "SECRET") {
		t.Fatalf("a secret reached the log: %s", logged)
	}
	recs := b.log.records(t, "tool call")
	if len(recs) != 1 {
		t.Fatalf("records: %v", recs)
	}
	args, _ := json.Marshal(recs[0]["arguments"])
	want := `{"amount":5,"auth":{"otp":"[REDACTED]","user":"alice"},"extra":{"k":"[REDACTED]"},"legs":[{"pin":"[REDACTED]"},{"pin":"[REDACTED]"}],"token":"[REDACTED]"}`
	if string(args) != want {
		t.Errorf("logged arguments:\n got %s\nwant %s", args, want)
	}
	if recs[0]["tool"] != "transfer" || recs[0]["version"] != "1.0.0" || recs[0]["request_id"] != "2" ||
		recs[0]["schema_hash"] != spec.InputSchema.Hash() {
		t.Errorf("record: %v", recs[0])
	}
	// The text as sent, each secret replaced in it: the members in the
	// caller's order, nothing decoded.
	if want := `"arguments":{"token":"[REDACTED]","amount":5,"auth":{"otp":"[REDACTED]","user":"alice"},"legs":[{"pin":"[REDACTED]"},{"pin":"[REDACTED]"}],"extra":{"k":"[REDACTED]"}}`; !strings.Contains(logged, want) {
		t.Errorf("the call log does not carry the redacted text (%s):\n%s", want, logged)
	}

	// Calls one after another, over the stream and through
	// Session.Handle, whose requests are reused with the buffer the
	// redacted text is written into: each record keeps its own arguments.
	sess := b.srv.NewSession(investigator, nil)
	defer sess.Close()
	for id, args := range []string{`{"token":"SECRET-6","auth":{"user":"bob","otp":"SECRET-7"}}`, `{"amount":7}`, `{"extra":{"k":"SECRET-8","j":"SECRET-9"}}`} {
		w.call(`{"jsonrpc":"2.0","id":` + strconv.Itoa(10+id) + `,"method":"tools/call","params":{"name":"transfer","arguments":` + args + `}}`)
		sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+strconv.Itoa(20+id)+`,"method":"tools/call","params":{"name":"transfer","arguments":`+args+`,`+statelessMeta+`}}`))
	}
	recs = b.log.records(t, "tool call")
	for i, want := range []string{`{"auth":{"otp":"[REDACTED]","user":"bob"},"token":"[REDACTED]"}`, `{"amount":7}`, `{"extra":{"j":"[REDACTED]","k":"[REDACTED]"}}`} {
		for _, id := range []string{strconv.Itoa(10 + i), strconv.Itoa(20 + i)} {
			var args []byte
			for _, rec := range recs {
				if rec["request_id"] == id {
					args, _ = json.Marshal(rec["arguments"])
				}
			}
			if string(args) != want {
				t.Errorf("request %s: arguments %s, want %s", id, args, want)
			}
		}
	}
	logged = b.log.String()
	if strings.Contains(logged, "SECRET") {
		t.Fatalf("a secret reached the log: %s", logged)
	}
	for _, who := range []string{"payments-investigator", "wholesale", "payments.read"} {
		if strings.Contains(logged, who) {
			t.Errorf("the principal reached the log (%s): %s", who, logged)
		}
	}
}

// TestCallLogKeepsTheTextOfArgumentsWithoutSecrets: when nothing in the
// input schema is secret, the call log carries the arguments' text as sent
// (the members in the caller's order, the spacing gone), not a value
// decoded and encoded again; past one string's limit it is a preview.
func TestCallLogKeepsTheTextOfArgumentsWithoutSecrets(t *testing.T) {
	b := newBank(t, mcp.Options{})
	spec := freeTool("note", estate.WriteNonIdempotent)
	spec.InputSchema = schema.MustParseJSON(`{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"array"}}}`)
	b.bind(t, spec, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("ok"), nil })
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"note","arguments":{"z":"last first", "a":[1, 2.50, "x"]}}}`)
	long := strings.Repeat("w", 2*oplog.DefaultMaxString)
	w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"note","arguments":{"z":"` + long + `"}}}`)
	if want := `"arguments":{"z":"last first","a":[1,2.50,"x"]}`; !strings.Contains(b.log.String(), want) {
		t.Errorf("the call log does not carry the arguments as sent (%s):\n%s", want, b.log.String())
	}
	recs := b.log.records(t, "tool call")
	if len(recs) != 2 {
		t.Fatalf("records: %v", recs)
	}
	if z, _ := recs[1]["arguments"].(map[string]any)["z"].(string); len(z) >= len(long) || !strings.HasPrefix(z, "www") {
		t.Errorf("arguments past one string's limit are not a clipped preview: %.80v", recs[1]["arguments"])
	}
}

// TestCallLogTimeIsWhenTheCallBegan: a call's record carries the time
// its request began, told from the reading its stream or its deadline
// took (or LogCall's own, when nothing timed it): within the moments
// before it was sent and after it was answered, for each of two calls
// 20 ms apart on the same session, so that a reading left from the
// request before (an inflight is reused) shows as one 20 ms early.
func TestCallLogTimeIsWhenTheCallBegan(t *testing.T) {
	const req = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`
	paths := map[string]struct {
		opts mcp.Options
		call func(t *testing.T, srv *mcp.Server) func(line string) string
	}{
		"stream": {call: func(t *testing.T, srv *mcp.Server) func(string) string {
			w := serve(t, srv, investigator)
			w.handshake(mcp.Revision20250618)
			return w.call
		}},
		"Handle with a deadline": {opts: mcp.Options{CallTimeout: time.Minute}, call: handleCalls},
		"Handle untimed":         {call: handleCalls},
		"ServeIncoming":          {call: serveIncomingCalls},
	}
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			b := newBank(t, path.opts)
			call := path.call(t, b.srv)
			var sent, answered [2]time.Time
			for i := range 2 {
				time.Sleep(20 * time.Millisecond)
				sent[i] = time.Now()
				if got := call(fmt.Sprintf(req, i+2)); !strings.Contains(got, "HELD") {
					t.Fatalf("tools/call: %s", got)
				}
				answered[i] = time.Now()
			}
			recs := b.log.records(t, "tool call")
			if len(recs) != 2 {
				t.Fatalf("records: %v", recs)
			}
			for i, rec := range recs {
				at, err := time.Parse(time.RFC3339Nano, rec["time"].(string))
				if err != nil {
					t.Fatal(err)
				}
				if at.Before(sent[i].Add(-time.Millisecond)) || at.After(answered[i].Add(time.Millisecond)) {
					t.Errorf("call %d logged at %v, sent at %v and answered at %v", i+1, at, sent[i], answered[i])
				}
			}
		})
	}
}

// serveIncomingCalls returns a function that makes a call on a session
// of srv through ServeIncoming, as the HTTP transport does, and returns
// its answer.
func serveIncomingCalls(t *testing.T, srv *mcp.Server) func(line string) string {
	sess := handshakenSession(t, srv)
	return func(line string) string {
		msg, rpcErr := jsonrpc.Decode([]byte(line))
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		var in mcp.Incoming
		in.Read(msg)
		var w answerLog
		sess.ServeIncoming(context.Background(), &in, &w)
		return strings.Join(w.list, "\n")
	}
}

// handleCalls returns a function that makes a call on a session of srv
// through Session.Handle and returns its answer.
func handleCalls(t *testing.T, srv *mcp.Server) func(line string) string {
	sess := handshakenSession(t, srv)
	return func(line string) string { return string(sess.Handle(context.Background(), []byte(line))) }
}

func TestBindRefusals(t *testing.T) {
	b := newBank(t, mcp.Options{})
	if err := b.srv.Bind(lookupSpec("2.0.0", lookupSchema), mcp.Tool{}); err == nil {
		t.Error("a tool without handler was bound")
	}
	// The publish guard applies: a major change as a minor bump.
	err := b.srv.Bind(lookupSpec("1.1.0", lookupV2Schema), mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return nil, nil }})
	var pe *estate.PublishError
	if !errors.As(err, &pe) || pe.Rule != "bump-too-small" {
		t.Errorf("under-bumped version: %v", err)
	}
	// A version published elsewhere is bound with BindPublished.
	other, _ := mcp.NewServer(mcp.Options{Registry: b.reg})
	defer other.Close()
	h := mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("replica"), nil }}
	if err := other.BindPublished("payments.lookup", estate.MustParseVersion("1.0.0"), h); err != nil {
		t.Fatal(err)
	}
	if err := other.BindPublished("payments.lookup", estate.MustParseVersion("1.0.0"), h); err == nil {
		t.Error("bound twice")
	}
	if err := other.BindPublished("payments.lookup", estate.MustParseVersion("9.0.0"), h); err == nil {
		t.Error("bound an unpublished version")
	}
	w := serve(t, other, investigator)
	w.handshake(mcp.Revision20250618)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-100"}}}`); jget(t, got, "result", "content", 0, "text") != "replica" {
		t.Errorf("replica: %s", got)
	}
	// A version in the registry with no handler on this server.
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crm.notes.append","arguments":{"customer_id":"c","note":"n"}}}`); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no handler is bound for crm.notes.append@1.0.0"}}` {
		t.Errorf("unbound version: %s", got)
	}
}

func TestToolsCallParams(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	for _, params := range []string{
		`{}`, `{"name":7}`, `{"name":"payments.lookup","arguments":[1]}`, `{"name":"payments.lookup","arguments":"x"}`,
		`{"name":"payments.lookup","arguments":{},"_meta":{"version":1}}`,
	} {
		if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`); code(t, got) != "-32602" {
			t.Errorf("%s: %s", params, got)
		}
	}
}

func TestMalformedMetaIsInvalidParams(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},"_meta":"v1"}}`)
	if got != `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"_meta must be an object"}}` {
		t.Errorf("got %s", got)
	}
}

// TestWireName: a tool with a wire name (one brought over from a server
// whose name the name rules refuse) is listed under it and called by it
// alone, so the clients of the original server keep working; another tool
// cannot take the name.
func TestWireName(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	spec := lookupSpec("1.0.0", lookupSchema)
	spec.Name, spec.WireName, spec.RequiredScopes = "files_read", "files/read", nil
	h := mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("read"), nil }}
	if err := srv.Bind(spec, h); err != nil {
		t.Fatal(err)
	}
	clash := lookupSpec("1.0.0", lookupSchema)
	clash.Name, clash.WireName, clash.RequiredScopes = "other", "files/read", nil
	if err := srv.Bind(clash, h); err == nil {
		t.Error("a second tool took the wire name files/read")
	}
	w := serve(t, srv, investigator)
	w.handshake(mcp.Revision20250618)
	list := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if got := jget(t, list, "result", "tools", 0, "name"); got != "files/read" {
		t.Errorf("listed as %v: %s", got, list)
	}
	args := `"arguments":{"reference":"PMT-100"}`
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"files/read",` + args + `}}`); jget(t, got, "result", "content", 0, "text") != "read" {
		t.Errorf("call by wire name: %s", got)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"files_read",` + args + `}}`); code(t, got) != "-32601" {
		t.Errorf("call by the manifest name: %s", got)
	}
}

// TestToolsBoundBetweenCalls: calls read the server's tables of bound
// tools without a lock, from a copy that a bind replaces; a tool bound
// after calls were served is called at once, by its wire name or its
// name.
func TestToolsBoundBetweenCalls(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	bind := func(name, wire, text string) {
		t.Helper()
		spec := lookupSpec("1.0.0", lookupSchema)
		spec.Name, spec.WireName, spec.RequiredScopes = name, wire, nil
		if err := srv.Bind(spec, mcp.Tool{Handler: func(mcpCtx, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult(text), nil }}); err != nil {
			t.Fatal(err)
		}
	}
	w := serve(t, srv, investigator)
	w.handshake(mcp.Revision20250618)
	id := 0
	call := func(name string) string {
		id++
		return w.call(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{"reference":"PMT-100"}}}`)
	}
	bind("files_read", "files/read", "files")
	if got := call("files/read"); jget(t, got, "result", "content", 0, "text") != "files" {
		t.Fatalf("first tool: %s", got)
	}
	for _, tc := range []struct{ name, wire, call string }{
		{"notes_read", "notes/read", "notes/read"}, // found by calledAs's table
		{"payments_find", "", "payments_find"},     // found by binding's table
	} {
		if got := call(tc.call); code(t, got) != "-32601" {
			t.Errorf("%s before it is bound: %s", tc.call, got)
		}
		bind(tc.name, tc.wire, tc.name)
		if got := call(tc.call); jget(t, got, "result", "content", 0, "text") != tc.name {
			t.Errorf("%s bound after calls: %s", tc.call, got)
		}
	}
	if got := call("files/read"); jget(t, got, "result", "content", 0, "text") != "files" {
		t.Errorf("first tool after the others: %s", got)
	}
}
