package importer

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

func ptr(b bool) *bool { return &b }

// TestSideEffect: the annotations decide only when readOnlyHint is stated,
// never call a write a read, and a decision for one tool overrides them.
func TestSideEffect(t *testing.T) {
	all := Decisions{SideEffect: map[string]estate.SideEffect{"": estate.Irreversible}}
	tests := []struct {
		a    Annotations
		d    Decisions
		want estate.SideEffect
		ok   bool
	}{
		{Annotations{}, Decisions{}, "", false},
		{Annotations{IdempotentHint: ptr(true), DestructiveHint: ptr(false)}, Decisions{}, "", false},
		{Annotations{ReadOnlyHint: ptr(true)}, Decisions{}, estate.Read, true},
		{Annotations{ReadOnlyHint: ptr(false)}, Decisions{}, estate.WriteNonIdempotent, true},
		{Annotations{ReadOnlyHint: ptr(false), IdempotentHint: ptr(true)}, Decisions{}, estate.WriteIdempotent, true},
		{Annotations{ReadOnlyHint: ptr(false), IdempotentHint: ptr(false)}, Decisions{}, estate.WriteNonIdempotent, true},
		{Annotations{}, all, estate.Irreversible, true},
		{Annotations{ReadOnlyHint: ptr(true)}, all, estate.Read, true},
		{Annotations{ReadOnlyHint: ptr(true)}, Decisions{SideEffect: map[string]estate.SideEffect{"t": estate.WriteIdempotent}}, estate.WriteIdempotent, true},
	}
	for i, tt := range tests {
		got, _, ok := sideEffect(Tool{Name: "t", Annotations: tt.a}, tt.d)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%d: got %q %v, want %q %v", i, got, ok, tt.want, tt.ok)
		}
	}
}

// TestManifestNames: a refused name is mapped to one the rules accept,
// unique among every tool's, and an accepted name is kept.
func TestManifestNames(t *testing.T) {
	tools := []Tool{{Name: "a/b"}, {Name: "a_b"}, {Name: "a b"}, {Name: "ok.name"}, {Name: strings.Repeat("x", 200) + "/"}}
	got := manifestNames(tools)
	want := []string{"a_b_2", "a_b", "a_b_3", "ok.name"}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("%q: got %q, want %q", tools[i].Name, got[i], w)
		}
	}
	if len(got[4]) != estate.MaxNameLength || estate.CheckName(got[4]) != nil {
		t.Errorf("long name mapped to %q", got[4])
	}
}

// TestReadSaved: a result, a response and pages one after another are
// read; an error response, a missing page and a non-answer are refused.
func TestReadSaved(t *testing.T) {
	entry := `{"name":"t","description":"d","inputSchema":{"type":"object"}}`
	for _, in := range []string{
		`{"tools":[` + entry + `]}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[` + entry + `]}}`,
		`{"tools":[],"nextCursor":"c"} {"tools":[` + entry + `]}`,
	} {
		l, err := ReadSaved(strings.NewReader(in), "f")
		if err != nil || len(l.Tools) != 1 || l.Tools[0].Name != "t" {
			t.Errorf("%s: %v %+v", in, err, l)
		}
	}
	for in, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`: "JSON-RPC error",
		`{"tools":[],"nextCursor":"c"}`:                                   "pages after it are missing",
		`{"x":1}`:                                                         "neither tools nor result.tools",
		``:                                                                "no tools/list answer",
	} {
		if _, err := ReadSaved(strings.NewReader(in), "f"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
