package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The JSON Schemas of the two formats, which editors use to complete and
// check manifests.
var formatSchemaDir = filepath.Join(sampleDir, "schema")

// formatSchemas compiles the tool and server JSON Schemas (checking them
// against the 2020-12 meta-schema on the way).
func formatSchemas(t testing.TB) (tool, server *jsonschema.Schema) {
	t.Helper()
	compile := func(name string) *jsonschema.Schema {
		c := jsonschema.NewCompiler()
		data, err := os.ReadFile(filepath.Join(formatSchemaDir, name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.AddResource(name, doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, err := c.Compile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	return compile("tool.schema.json"), compile("server.schema.json")
}

// fileValue reads a manifest file into a JSON value the way the loader
// reads it.
func fileValue(t testing.TB, path string, data []byte) any {
	t.Helper()
	d := &decoder{file: path}
	root := d.readFile(data, strings.HasSuffix(path, ".json"))
	if root == nil {
		t.Fatalf("%s: %v", path, d.errs)
	}
	v, ok := d.value(root)
	if !ok {
		t.Fatalf("%s: %v", path, d.errs)
	}
	return v
}

func isServerFile(path string) bool {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base)) == serverFile
}

// TestManifestsMatchJSONSchema validates every manifest the loader accepts
// in the repository against the JSON Schemas, and checks that the sample
// manifests name their schema for editors.
func TestManifestsMatchJSONSchema(t *testing.T) {
	toolSchema, serverSchema := formatSchemas(t)
	var files []string
	for _, dir := range []string{sampleDir, filepath.Join("testdata", "valid", "full")} {
		if _, err := LoadDir(dir); err != nil {
			t.Fatalf("LoadDir(%s): %v", dir, err)
		}
		for _, ext := range manifestExts {
			m, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
			files = append(files, m...)
		}
	}
	if len(files) < 7 {
		t.Fatalf("found only %v", files)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, kind := toolSchema, "tool"
		if isServerFile(path) {
			s, kind = serverSchema, "server"
		}
		if err := s.Validate(fileValue(t, path, data)); err != nil {
			t.Errorf("%s does not match the %s JSON Schema: %v", path, kind, err)
		}
		if filepath.Dir(path) == sampleDir {
			want := "# yaml-language-server: $schema=./schema/" + kind + ".schema.json\n"
			if !bytes.HasPrefix(data, []byte(want)) {
				t.Errorf("%s does not start with %q", path, want)
			}
		}
	}
}

// TestJSONSchemaRefuses checks that the JSON Schemas are not vacuous: a
// manifest with an unknown field, a missing field, an unknown value or an
// unsupported schema keyword is refused by them too.
func TestJSONSchemaRefuses(t *testing.T) {
	toolSchema, serverSchema := formatSchemas(t)
	for _, path := range []string{
		"unknown-field/tool.yaml", "missing-required/tool.yaml", "missing-required/noversions.yaml",
		"unknown-values/tool.yaml", "bad-semver/tool.yaml", "unsupported-keyword/tool.yaml",
		"schema-not-object/tool.yaml", "bad-name/tool.yaml", "field-types/tool.yaml", "server/server.yaml",
	} {
		path = filepath.Join("testdata", "errors", path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := toolSchema
		if isServerFile(path) {
			s = serverSchema
		}
		if err := s.Validate(fileValue(t, path, data)); err == nil {
			t.Errorf("%s matches the JSON Schema; the loader refuses it", path)
		}
	}
}

// TestLoaderFieldsMatchJSONSchema checks that the loader accepts exactly the
// fields the JSON Schemas list, requires the same ones, and that the schema
// subset and the enumerations are the runtime's.
func TestLoaderFieldsMatchJSONSchema(t *testing.T) {
	load := func(name string) map[string]any {
		data, err := os.ReadFile(filepath.Join(formatSchemaDir, name))
		if err != nil {
			t.Fatal(err)
		}
		v, err := schema.DecodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	tool, server := load("tool.schema.json"), load("server.schema.json")
	def := func(doc map[string]any, name string) map[string]any {
		return doc["$defs"].(map[string]any)[name].(map[string]any)
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m["properties"].(map[string]any) {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	strs := func(v any) []string {
		var out []string
		for _, e := range v.([]any) {
			out = append(out, e.(string))
		}
		slices.Sort(out)
		return out
	}
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }

	for _, c := range []struct {
		where string
		obj   map[string]any
		shape shape
	}{
		{"tool.schema.json", tool, toolShape},
		{"tool.schema.json $defs/version", def(tool, "version"), versionShape},
		{"server.schema.json", server, serverShape},
		{"server.schema.json $defs/resource", def(server, "resource"), resourceShape},
		{"server.schema.json $defs/prompt", def(server, "prompt"), promptShape},
		{"server.schema.json $defs/argument", def(server, "argument"), argumentShape},
	} {
		if got, want := keys(c.obj), sorted(c.shape.fields); !slices.Equal(got, want) {
			t.Errorf("%s lists fields %v; the loader accepts %v", c.where, got, want)
		}
		if got, want := strs(c.obj["required"]), sorted(c.shape.required); !slices.Equal(got, want) {
			t.Errorf("%s requires %v; the loader requires %v", c.where, got, want)
		}
		if c.obj["additionalProperties"] != false {
			t.Errorf("%s allows additional properties; the loader refuses unknown fields", c.where)
		}
	}

	if got := keys(def(tool, "schema")); !slices.Equal(got, schema.SupportedKeywords) {
		t.Errorf("tool.schema.json $defs/schema lists keywords %v; runtime/schema supports %v", got, schema.SupportedKeywords)
	}

	version := def(tool, "version")["properties"].(map[string]any)
	enum := func(field string) []string {
		var out []string
		for _, e := range version[field].(map[string]any)["enum"].([]any) {
			out = append(out, e.(string))
		}
		return out
	}
	var effects []string
	for _, e := range estate.SideEffects() {
		effects = append(effects, string(e))
	}
	if got := enum("sideEffect"); !slices.Equal(got, effects) {
		t.Errorf("sideEffect enum %v, want %v", got, effects)
	}
	for _, c := range enum("dataClassification") {
		if _, err := estate.ParseClassification(c); err != nil {
			t.Errorf("dataClassification enum: %v", err)
		}
	}
	if _, err := estate.ParseClassification("secret"); err == nil || len(enum("dataClassification")) != 4 {
		t.Errorf("dataClassification enum %v is not the four classifications", enum("dataClassification"))
	}
	for _, l := range enum("lifecycle") {
		if _, err := estate.ParseLifecycle(l); err != nil {
			t.Errorf("lifecycle enum: %v", err)
		}
	}
	if len(enum("lifecycle")) != 3 {
		t.Errorf("lifecycle enum %v is not the three states", enum("lifecycle"))
	}
}

// TestEveryFieldIsRead loads a manifest that uses every field of every
// format and checks that each value reaches the model: a field the loader
// lists but never reads would be silently ignored.
func TestEveryFieldIsRead(t *testing.T) {
	dir := filepath.Join("testdata", "valid", "full")
	e, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Tools) != 2 || e.Tools[0].Name != "accounts.balance" || e.Tools[1].Name != "ledger.post" {
		t.Fatalf("tools = %v", e.Tools)
	}
	v := e.Tools[0].Versions[0]
	if v.Key() != "accounts.balance@1.0.0" || v.Title != "Account balance" || v.Description != "Return an account's balance." ||
		v.SideEffect != estate.Read || !slices.Equal(v.RequiredScopes, []string{"accounts.read", "balances.read"}) ||
		v.DataClassification != estate.Confidential || v.Owner != "retail-accounts" ||
		!slices.Equal(v.Tenants, []string{"retail", "wholesale"}) || v.Lifecycle != estate.Deprecated ||
		v.SupersededBy != "accounts.balance@1.1.0" || v.File != filepath.Join(dir, "accounts.balance.yaml") {
		t.Errorf("accounts.balance@1.0.0 = %+v", *v)
	}
	if v.InputSchema == nil || !v.InputSchema.Property("pin").Secret() || v.OutputSchema == nil ||
		v.OutputSchema.Property("balance_minor").Minimum().Text != "-1000000000000" {
		t.Errorf("accounts.balance@1.0.0 schemas = %+v, %+v", v.InputSchema, v.OutputSchema)
	}
	if got := e.Tools[0].Versions[1]; got.Lifecycle != estate.Active || got.SupersededBy != "" {
		t.Errorf("accounts.balance@1.1.0 lifecycle %q supersededBy %q", got.Lifecycle, got.SupersededBy)
	}
	if got := e.Tools[1].Versions[0]; got.Lifecycle != estate.Retired || got.SideEffect != estate.WriteNonIdempotent ||
		got.Title != "" || got.InputSchema.Property("memo").Description() != "Free text / escapes are JSON's." {
		t.Errorf("ledger.post@1.0.0 = %+v", *got)
	}

	s := e.Server
	if s == nil || s.Name != "accounts-mcp" || s.Version != "0.9.0-beta" || s.File != filepath.Join(dir, "server.yaml") ||
		len(s.Resources) != 2 || len(s.Prompts) != 2 {
		t.Fatalf("server = %+v", s)
	}
	r := s.Resources[0]
	if r.URI != "policy://accounts/limits" || r.Name != "Account limits" || r.MIMEType != "text/markdown; charset=utf-8" ||
		r.Text != "Daily limit: 10000.\nMonthly limit: 50000.\n" || !slices.Equal(r.Tenants, []string{"retail"}) ||
		r.Pos != (Pos{filepath.Join(dir, "server.yaml"), 6, 5}) {
		t.Errorf("resource = %+v", *r)
	}
	if r := s.Resources[1]; r.MIMEType != "" || r.Text != "" || r.Tenants != nil {
		t.Errorf("resource = %+v", *r)
	}
	p := s.Prompts[0]
	if p.Name != "explain_balance" || p.Description != "Explain a balance to a customer" ||
		!slices.Equal(p.Arguments, []Argument{{"account", "The account number", true}, {"tone", "", false}}) ||
		p.Template != `Explain the balance of {account} in a {tone} tone. Keep {"literal": braces}.` {
		t.Errorf("prompt = %+v", *p)
	}
}
