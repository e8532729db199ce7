package gostruct

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestManifestYAMLRoundTrip renders versions whose text YAML could misread
// (numbers and booleans as strings, several lines, backslashes, number
// literals that must keep their spelling) and loads the manifest back: the
// same specs, documents and hashes.
func TestManifestYAMLRoundTrip(t *testing.T) {
	input := schema.MustParseJSON(`{
		"type": "object",
		"description": "yes",
		"properties": {
			"ref": {"type": "string", "pattern": "^PMT-\\d{3,}$", "description": "line one\nline two", "examples": ["1.0", "null", "- x", "a: b"]},
			"amount": {"type": "number", "minimum": 1.50, "maximum": 1e3, "default": -0, "enum": [1.5, 2, 1e3]},
			"flag": {"type": ["boolean", "null"], "enum": [true, null], "x-secret": true},
			"any": {},
			"list": {"type": "array", "items": {"type": "object", "properties": {"#": {"type": "integer"}}, "additionalProperties": false}, "uniqueItems": true},
			"open": {"type": "object", "additionalProperties": {"type": "string", "const": "on"}}
		},
		"required": ["ref", "amount"],
		"additionalProperties": false
	}`)
	output := schema.MustParseJSON(`{"type": "object", "properties": {"ok": {"type": "boolean"}}}`)
	specs := []estate.ToolSpec{
		{Name: "t.do", Version: estate.MustParseVersion("1.0.0"), Description: "Do it.\n\nCarefully: 2026-03-12.", SideEffect: estate.Read,
			DataClassification: estate.Public, Owner: "yes", InputSchema: input, Lifecycle: estate.Deprecated, SupersededBy: "t.do@2.0.0"},
		{Name: "t.do", Version: estate.MustParseVersion("2.0.0"), Title: "Do: it", Description: "true", SideEffect: estate.WriteNonIdempotent,
			RequiredScopes: []string{"a.write", "on"}, DataClassification: estate.Restricted, Owner: "team", Tenants: []string{"0123"},
			InputSchema: input, OutputSchema: output, Lifecycle: estate.Active},
	}
	var versions []*manifest.Version
	for _, s := range specs {
		versions = append(versions, manifest.NewVersion(s, func(string, ...string) manifest.Pos { return manifest.Pos{File: "x.go"} }))
	}
	est, err := manifest.NewEstate("src", nil, versions)
	if err != nil {
		t.Fatal(err)
	}
	data, err := ManifestYAML(est.Tools[0], "Extracted for a test.")
	if err != nil {
		t.Fatal(err)
	}
	back, err := manifest.LoadFS(fstest.MapFS{"t.do.yaml": {Data: data}}, "m")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	got := back.Specs()
	if len(got) != len(specs) {
		t.Fatalf("%d versions back, want %d\n%s", len(got), len(specs), data)
	}
	for i, want := range specs {
		g := got[i]
		if g.InputSchema.Hash() != want.InputSchema.Hash() || !reflect.DeepEqual(g.InputSchema.Document(), want.InputSchema.Document()) {
			t.Errorf("%s: input schema %v, want %v\n%s", want.Key(), g.InputSchema.Document(), want.InputSchema.Document(), data)
		}
		if (g.OutputSchema == nil) != (want.OutputSchema == nil) || g.OutputSchema != nil && g.OutputSchema.Hash() != want.OutputSchema.Hash() {
			t.Errorf("%s: output schema differs", want.Key())
		}
		g.InputSchema, g.OutputSchema, want.InputSchema, want.OutputSchema = nil, nil, nil, nil
		if !reflect.DeepEqual(g, want) {
			t.Errorf("spec back\n%+v\nwant\n%+v\n%s", g, want, data)
		}
	}
}
