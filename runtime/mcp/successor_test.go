package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// TestPinnedCallToDeprecatedCarriesSuccessor: a deprecated version is never
// listed, so the result of a pinned call to it is where its caller learns
// where to move: _meta.lifecycle and _meta.supersededBy, in every revision,
// on a success and on a schema violation alike, beside the handler's own
// _meta. A call that reaches the live version carries neither.
func TestPinnedCallToDeprecatedCarriesSuccessor(t *testing.T) {
	for _, rev := range mcp.Revisions() {
		t.Run(string(rev), func(t *testing.T) {
			b := newBank(t, mcp.Options{})
			b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) {
				return &mcp.Result{Content: []mcp.Content{mcp.TextContent("v2")}, Meta: map[string]any{"trace": "t2"}}, nil
			})
			if err := b.reg.Deprecate("payments.lookup", "1.0.0", "payments.lookup@2.0.0"); err != nil {
				t.Fatal(err)
			}
			w, params := session(t, b.srv, investigator, rev)
			call := func(id, args, pin string) string {
				meta := ""
				if pin != "" {
					meta = `,"_meta":{"version":"` + pin + `"}`
				}
				return w.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` +
					params(`{"name":"payments.lookup","arguments":`+args+meta+`}`) + `}`)
			}

			got := call("1", `{"reference":"PMT-771"}`, "1.0.0")
			if !strings.Contains(got, "HELD") {
				t.Fatalf("the pin did not reach 1.0.0: %s", got)
			}
			if s := jget(t, got, "result", "_meta", "supersededBy"); s != "payments.lookup@2.0.0" {
				t.Errorf("_meta.supersededBy %v: %s", s, got)
			}
			if l := jget(t, got, "result", "_meta", "lifecycle"); l != "deprecated" {
				t.Errorf("_meta.lifecycle %v: %s", l, got)
			}

			if rev.SchemaViolationIsToolError() {
				got = call("2", `{"reference":"PMT-771","as_of":"x"}`, "1.0.0")
				if jget(t, got, "result", "isError") != true || jget(t, got, "result", "_meta", "errors") == nil {
					t.Fatalf("not a schema violation: %s", got)
				}
				if s := jget(t, got, "result", "_meta", "supersededBy"); s != "payments.lookup@2.0.0" {
					t.Errorf("a refused call to the deprecated version: _meta.supersededBy %v", s)
				}
			}

			got = call("3", `{"reference":"PMT-771","as_of":"x"}`, "")
			if text := jget(t, got, "result", "content", 0, "text"); text != "v2" {
				t.Fatalf("unpinned: %s", got)
			}
			if jget(t, got, "result", "_meta", "trace") != "t2" {
				t.Errorf("the handler's _meta was lost: %s", got)
			}
			if strings.Contains(got, "supersededBy") || strings.Contains(got, `"lifecycle"`) {
				t.Errorf("a call to the live version names a successor: %s", got)
			}
		})
	}
}

// TestListedVersionAnnouncesSuccessor: an active version that already names
// its successor (announced before the deprecation) carries it in its
// tools/list entry, next to version and schemaHash; an entry without one has
// no supersededBy member at all.
func TestListedVersionAnnouncesSuccessor(t *testing.T) {
	b := newBank(t, mcp.Options{})
	v2 := lookupSpec("2.0.0", lookupV2Schema)
	v2.SupersededBy = "payments.lookup@3.0.0"
	b.bind(t, v2, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("v2"), nil })
	// 3.0.0 serves another tenant only, so the investigator's newest
	// visible version stays 2.0.0.
	v3 := lookupSpec("3.0.0", lookupV2Schema)
	v3.Tenants = []string{"retail"}
	b.bind(t, v3, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("v3"), nil })

	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20251125)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	tools, _ := jget(t, got, "result", "tools").([]any)
	seen := 0
	for i := range tools {
		switch jget(t, got, "result", "tools", i, "name") {
		case "payments.lookup":
			seen++
			if v := jget(t, got, "result", "tools", i, "_meta", "version"); v != "2.0.0" {
				t.Fatalf("listed payments.lookup@%v", v)
			}
			if s := jget(t, got, "result", "tools", i, "_meta", "supersededBy"); s != "payments.lookup@3.0.0" {
				t.Errorf("_meta.supersededBy %v", s)
			}
		default:
			if _, ok := jget(t, got, "result", "tools", i, "_meta").(map[string]any)["supersededBy"]; ok {
				t.Errorf("entry %d names a successor it has not: %s", i, got)
			}
		}
	}
	if seen != 1 {
		t.Fatalf("payments.lookup listed %d times: %s", seen, got)
	}
}

// TestRegisterAllRefusesDanglingSuccessor: a package whose versions name a
// successor the server would not serve is refused whole, before anything
// is published; one whose successor comes later in the same package is
// served.
func TestRegisterAllRefusesDanglingSuccessor(t *testing.T) {
	version := func(spec estate.ToolSpec) mcp.Version[struct{}] {
		return mcp.Version[struct{}]{
			Spec: func() estate.ToolSpec { return spec },
			Bind: func(struct{}) mcp.Tool {
				return mcp.Tool{Handler: func(_ context.Context, c *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("ok"), nil }}
			},
		}
	}
	old := lookupSpec("1.0.0", lookupSchema)
	old.Lifecycle, old.SupersededBy = estate.Deprecated, "payments.lookup@2.0.0"
	for _, tt := range []struct {
		name     string
		versions []mcp.Version[struct{}]
		want     string
	}{
		{"successor in the package", []mcp.Version[struct{}]{version(old), version(lookupSpec("2.0.0", lookupV2Schema))}, ""},
		{"successor missing", []mcp.Version[struct{}]{version(old), version(lookupSpec("3.0.0", lookupV2Schema))},
			`payments.lookup@1.0.0: supersededBy "payments.lookup@2.0.0" names a version that is not published`},
	} {
		srv, err := mcp.NewServer(mcp.Options{Name: "s", Version: "1.0.0"})
		if err != nil {
			t.Fatal(err)
		}
		err = mcp.RegisterAll(srv, struct{}{}, tt.versions)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.Is(err, estate.ErrNoSuccessor)):
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		case tt.want != "" && len(srv.Registry().Names()) != 0:
			t.Errorf("%s: a refused package published %v", tt.name, srv.Registry().Names())
		}
		srv.Close()
	}
}
