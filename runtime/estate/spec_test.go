package estate

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestToolSpecKey(t *testing.T) {
	if got := spec("payments.lookup", "1.0.0", base).Key(); got != "payments.lookup@1.0.0" {
		t.Errorf("Key() = %q", got)
	}
}

func TestToolSpecValidate(t *testing.T) {
	good := spec("payments.lookup", "1.0.0", base)
	good.OutputSchema = schema.MustParseJSON(`{"type":"object"}`)
	good.SupersededBy = "payments.lookup@2.0.0"
	if err := good.Validate(); err != nil {
		t.Fatalf("valid spec refused: %v", err)
	}
	for _, l := range []Lifecycle{"", Active, Deprecated, Retired} {
		s := good
		s.Lifecycle = l
		if err := s.Validate(); err != nil {
			t.Errorf("lifecycle %q refused: %v", l, err)
		}
	}

	tests := []struct {
		name   string
		change func(*ToolSpec)
		want   string // a fragment of the error
	}{
		{"empty name", func(s *ToolSpec) { s.Name = "" }, "name is empty"},
		{"name with @", func(s *ToolSpec) { s.Name = "pay@ments" }, "character '@'"},
		{"name with space", func(s *ToolSpec) { s.Name = "pay ments" }, "character ' '"},
		{"long name", func(s *ToolSpec) { s.Name = strings.Repeat("a", 129) }, "longer than 128"},
		{"zero version", func(s *ToolSpec) { s.Version = Version{} }, "version is missing"},
		{"no side effect", func(s *ToolSpec) { s.SideEffect = "" }, "unknown side effect"},
		{"unknown side effect", func(s *ToolSpec) { s.SideEffect = "write" }, `unknown side effect "write"`},
		{"no classification", func(s *ToolSpec) { s.DataClassification = "" }, "unknown data classification"},
		{"unknown classification", func(s *ToolSpec) { s.DataClassification = "secret" }, `"secret"`},
		{"unknown lifecycle", func(s *ToolSpec) { s.Lifecycle = "retird" }, `unknown lifecycle "retird"`},
		{"no owner", func(s *ToolSpec) { s.Owner = "" }, "owner is empty"},
		{"blank owner", func(s *ToolSpec) { s.Owner = "  " }, "owner is empty"},
		{"no input schema", func(s *ToolSpec) { s.InputSchema = nil }, "input schema is missing"},
		{"input not object", func(s *ToolSpec) { s.InputSchema = schema.MustParseJSON(`{"type":"string"}`) }, `input schema must have type "object"`},
		{"input untyped", func(s *ToolSpec) { s.InputSchema = schema.MustParseJSON(`{}`) }, `input schema must have type "object"`},
		{"input union", func(s *ToolSpec) { s.InputSchema = schema.MustParseJSON(`{"type":["object","null"]}`) }, `input schema must have type "object"`},
		{"input top ref", func(s *ToolSpec) {
			s.InputSchema = schema.MustParseJSON(`{"$ref":"#/$defs/a","$defs":{"a":{"type":"object"}}}`)
		}, `input schema must have type "object" at its top, as MCP requires: add type: object beside the $ref`},
		{"output not object", func(s *ToolSpec) { s.OutputSchema = schema.MustParseJSON(`{"type":"array"}`) }, `output schema must have type "object"`},
		{"empty scope", func(s *ToolSpec) { s.RequiredScopes = []string{"payments.read", ""} }, "empty scope"},
		{"empty tenant", func(s *ToolSpec) { s.Tenants = []string{""} }, "empty tenant"},
		{"bad successor", func(s *ToolSpec) { s.SupersededBy = "payments.lookup" }, "supersededBy"},
		{"bad successor version", func(s *ToolSpec) { s.SupersededBy = "payments.lookup@2" }, "supersededBy"},
		{"self successor", func(s *ToolSpec) { s.SupersededBy = "payments.lookup@1.0.0" }, "itself"},
		{"older successor", func(s *ToolSpec) { s.Version = MustParseVersion("2.1.0") }, "older version"},
		{"another tool's successor", func(s *ToolSpec) { s.SupersededBy = "payments.search@2.0.0" }, "another tool"},
	}
	for _, tt := range tests {
		s := good
		tt.change(&s)
		err := s.Validate()
		if err == nil {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q does not mention %q", tt.name, err, tt.want)
		}
	}
}

func TestToolSpecValidateReportsEveryProblem(t *testing.T) {
	s := spec("payments.lookup", "1.0.0", base)
	s.Owner = ""
	s.SideEffect = ""
	s.InputSchema = nil
	err := s.Validate()
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"payments.lookup@1.0.0", "owner is empty", "unknown side effect", "input schema is missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}
