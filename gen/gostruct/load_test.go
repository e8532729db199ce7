package gostruct

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// writeModule writes a module that requires mcpgen from this checkout (as
// a team's module does, which brings invopop/jsonschema into its build
// list) with this checkout's go.sum, so nothing comes from the network,
// and makes it the working directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

// listFiles lists every file under dir, relative to it.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const loadSource = `// Package tools declares a tool.
package tools

import "encoding/json"

// Base holds what every request carries.
type Base struct {
	// RequestID identifies the request.
	RequestID string ` + "`" + `json:"request_id" jsonschema:"minLength=8"` + "`" + `
}

// Args are the arguments of t.do.
//
// Do the thing,
// idempotently.
//
//mcpgen:tool t.do@1.0.0 sideEffect=write_idempotent classification=public owner=team tenants=a,b
type Args struct {
	Base
	Count   int16           ` + "`" + `json:"count" jsonschema:"minimum=-5"` + "`" + ` // Count is how many.
	Ratio   float32         ` + "`" + `json:"ratio,omitempty"` + "`" + `
	Labels  map[string]int  ` + "`" + `json:"labels,omitempty"` + "`" + `
	Meta    any             ` + "`" + `json:"meta,omitempty"` + "`" + `
	Raw     json.RawMessage ` + "`" + `json:"raw,omitempty"` + "`" + `
	Pair    [2]string       ` + "`" + `json:"pair,omitempty"` + "`" + `
	Next    *Step           ` + "`" + `json:"next,omitempty"` + "`" + `
	Steps   []Step          ` + "`" + `json:"steps,omitempty" jsonschema:"maxItems=3"` + "`" + `
	Secret  string          ` + "`" + `json:"secret,omitempty" jsonschema_extras:"x-secret=true"` + "`" + `
	Ignored string          ` + "`" + `json:"-"` + "`" + `
	hidden  string
}

// Step is one step.
type Step struct {
	Name string ` + "`" + `json:"name" jsonschema:"title=Step name,enum=start,enum=stop"` + "`" + `
}
`

func TestLoad(t *testing.T) {
	dir := writeModule(t, map[string]string{"tools/args.go": loadSource})
	before := listFiles(t, dir)
	src, err := Load("./tools")
	if err != nil {
		t.Fatal(err)
	}
	if after := listFiles(t, dir); !slices.Equal(after, before) {
		t.Errorf("the module's files changed from %v to %v", before, after)
	}
	if src.PkgPath != "example.com/m/tools" || src.PkgName != "tools" || len(src.Versions) != 1 || src.Types["t.do@1.0.0"] != "Args" {
		t.Fatalf("source %+v", src)
	}
	v := src.Versions[0]
	if v.Description != "Do the thing, idempotently." || v.Owner != "team" || !slices.Equal(v.Tenants, []string{"a", "b"}) {
		t.Errorf("version %+v", v)
	}
	// Every part of the version is found where the Go source writes it.
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{""}, "tools/args.go:17:1"},
		{[]string{"name"}, "tools/args.go:17:15"},
		{[]string{"version"}, "tools/args.go:17:20"},
		{[]string{"sideEffect"}, "tools/args.go:17:26"},
		{[]string{"tenants"}, "tools/args.go:17:87"},
		{[]string{"lifecycle"}, "tools/args.go:17:1"}, // not written: the directive
		{[]string{"description"}, "tools/args.go:14:4"},
		{[]string{"inputSchema"}, "tools/args.go:18:6"},
		{[]string{"inputSchema", "properties", "count"}, "tools/args.go:20:2"},
		{[]string{"inputSchema", "properties", "count", "minimum"}, "tools/args.go:20:52"},
		// A promoted field is in the embedded struct.
		{[]string{"inputSchema", "properties", "request_id", "minLength"}, "tools/args.go:9:50"},
		{[]string{"inputSchema", "properties", "steps", "items", "properties", "name", "enum", "0"}, "tools/args.go:35:55"},
		{[]string{"inputSchema", "properties", "secret", "x-secret"}, "tools/args.go:28:70"},
		// A keyword no tag writes: the field.
		{[]string{"inputSchema", "properties", "labels", "additionalProperties", "type"}, "tools/args.go:22:2"},
		{[]string{"inputSchema", "properties", "nosuch"}, "tools/args.go:18:6"},
	} {
		if got := v.Pos(c.path[0], c.path[1:]...).String(); got != c.want {
			t.Errorf("Pos(%q) = %s, want %s", c.path, got, c.want)
		}
	}

	// The schema: doc comments as descriptions, the embedded struct's
	// fields promoted, a pointer as its element, the bounds of int16 and
	// float32, any value as {}, the array's length, x-secret from the
	// extras tag, and neither the field json ignores nor the unexported.
	const want = `{"additionalProperties":false,"properties":{` +
		`"count":{"description":"Count is how many.","maximum":32767,"minimum":-5,"type":"integer"},` +
		`"labels":{"additionalProperties":{"type":"integer"},"type":"object"},` +
		`"meta":{},` +
		`"next":{"additionalProperties":false,"properties":{"name":{"enum":["start","stop"],"title":"Step name","type":"string"}},"required":["name"],"type":"object"},` +
		`"pair":{"items":{"type":"string"},"maxItems":2,"minItems":2,"type":"array"},` +
		`"ratio":{"maximum":3.4028234663852886e+38,"minimum":-3.4028234663852886e+38,"type":"number"},` +
		`"raw":{},` +
		`"request_id":{"description":"RequestID identifies the request.","minLength":8,"type":"string"},` +
		`"secret":{"type":"string","x-secret":true},` +
		`"steps":{"items":{"additionalProperties":false,"description":"Step is one step.","properties":{"name":{"enum":["start","stop"],"title":"Step name","type":"string"}},"required":["name"],"type":"object"},"maxItems":3,"type":"array"}` +
		`},"required":["request_id","count"],"type":"object"}`
	got, err := schema.CanonicalJSON(v.InputSchema.Document())
	if err != nil || string(got) != want {
		t.Errorf("input schema:\n%s\nwant:\n%s", got, want)
	}
}
