package gostruct

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
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
	src, err := Load("./tools", nil)
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
		// A $defs entry is its type's declaration, and its fields are the
		// type's; a path through a reference goes on in the type.
		{[]string{"inputSchema", "$defs", "Step"}, "tools/args.go:34:6"},
		{[]string{"inputSchema", "$defs", "Step", "properties", "name"}, "tools/args.go:35:2"},
		{[]string{"inputSchema", "$defs", "Step", "properties", "name", "enum", "0"}, "tools/args.go:35:55"},
		{[]string{"inputSchema", "$defs", "nosuch", "properties", "name"}, "tools/args.go:18:6"},
		{[]string{"inputSchema", "properties", "next", "$ref"}, "tools/args.go:26:2"},
		{[]string{"inputSchema", "properties", "next", "properties", "name", "title"}, "tools/args.go:35:39"},
	} {
		if got := v.Pos(c.path[0], c.path[1:]...).String(); got != c.want {
			t.Errorf("Pos(%q) = %s, want %s", c.path, got, c.want)
		}
	}

	// The schema: doc comments as descriptions, the embedded struct's
	// fields promoted, a pointer as its element, the bounds of int16 and
	// float32, any value as {}, the array's length, x-secret from the
	// extras tag, and neither the field json ignores nor the unexported;
	// Step, used twice, is one $defs entry.
	got, err := schema.CanonicalJSON(v.InputSchema.Document())
	if err != nil || string(got) != loadWantDefs {
		t.Errorf("input schema:\n%s\nwant:\n%s", got, loadWantDefs)
	}
}

// loadWantDefs is loadSource's schema with Step as a $defs entry, and
// loadWantInline the same with Step written out where it is used, as
// versions were published before $defs.
const (
	loadWantDefs = `{"$defs":{"Step":{"additionalProperties":false,"description":"Step is one step.","properties":{"name":{"enum":["start","stop"],"title":"Step name","type":"string"}},"required":["name"],"type":"object"}},` +
		`"additionalProperties":false,"properties":{` +
		`"count":{"description":"Count is how many.","maximum":32767,"minimum":-5,"type":"integer"},` +
		`"labels":{"additionalProperties":{"type":"integer"},"type":"object"},` +
		`"meta":{},` +
		`"next":{"$ref":"#/$defs/Step"},` +
		`"pair":{"items":{"type":"string"},"maxItems":2,"minItems":2,"type":"array"},` +
		`"ratio":{"maximum":3.4028234663852886e+38,"minimum":-3.4028234663852886e+38,"type":"number"},` +
		`"raw":{},` +
		`"request_id":{"description":"RequestID identifies the request.","minLength":8,"type":"string"},` +
		`"secret":{"type":"string","x-secret":true},` +
		`"steps":{"items":{"$ref":"#/$defs/Step"},"maxItems":3,"type":"array"}` +
		`},"required":["request_id","count"],"type":"object"}`
	loadWantInline = `{"additionalProperties":false,"properties":{` +
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
)

// published is a version of the record: key with the input schema doc.
func published(t *testing.T, key, doc string) estate.ToolSpec {
	t.Helper()
	name, version, _ := strings.Cut(key, "@")
	return estate.ToolSpec{Name: name, Version: estate.MustParseVersion(version), InputSchema: schema.MustParseJSON(doc)}
}

// TestLoadKeepsPublishedForm: a version the record holds without $defs
// keeps the form it was published in, byte for byte (so its hash); one the
// record holds with $defs, or another version, takes $defs.
func TestLoadKeepsPublishedForm(t *testing.T) {
	writeModule(t, map[string]string{"tools/args.go": loadSource})
	for _, c := range []struct {
		name      string
		published []estate.ToolSpec
		want      string
	}{
		{"inline", []estate.ToolSpec{published(t, "t.do@1.0.0", loadWantInline)}, loadWantInline},
		{"defs", []estate.ToolSpec{published(t, "t.do@1.0.0", loadWantDefs)}, loadWantDefs},
		{"other version", []estate.ToolSpec{published(t, "t.do@0.9.0", loadWantInline), published(t, "t.other@1.0.0", loadWantInline)}, loadWantDefs},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := Load("./tools", c.published)
			if err != nil {
				t.Fatal(err)
			}
			v := src.Versions[0]
			got, err := schema.CanonicalJSON(v.InputSchema.Document())
			if err != nil || string(got) != c.want {
				t.Errorf("input schema:\n%s\nwant:\n%s", got, c.want)
			}
			if v.InputSchema.Hash() != schema.MustParseJSON(c.want).Hash() {
				t.Errorf("hash %s differs from the published one", v.InputSchema.Hash())
			}
			// The fields are found in either form.
			if got := v.Pos("inputSchema", "properties", "steps", "items", "properties", "name", "enum", "0").String(); got != "tools/args.go:35:55" {
				t.Errorf("Pos(steps/items/name/enum) = %s", got)
			}
		})
	}
}

const recursiveSource = `package tools

// Node is a tree node.
type Node struct {
	Name     string ` + "`" + `json:"name" jsonschema:"minLength=1"` + "`" + `
	Children []Node ` + "`" + `json:"children,omitempty"` + "`" + `
	Weight   uint8  ` + "`" + `json:"weight,omitempty"` + "`" + `
}

// Cell is a linked list.
type Cell struct {
	Value int8  ` + "`" + `json:"value"` + "`" + `
	Next  *Cell ` + "`" + `json:"next,omitempty"` + "`" + `
}

// Forest is a list of trees.
type Forest []Node

// TreeArgs are the arguments of t.tree.
//
// Walk a tree.
//
//mcpgen:tool t.tree@1.0.0 sideEffect=read classification=public owner=team
type TreeArgs struct {
	Root   Node   ` + "`" + `json:"root"` + "`" + `
	Forest Forest ` + "`" + `json:"forest,omitempty"` + "`" + `
	List   *Cell  ` + "`" + `json:"list,omitempty"` + "`" + `
	Parent *TreeArgs ` + "`" + `json:"parent,omitempty"` + "`" + `
}
`

// TestLoadRecursive: a type that contains itself is a $defs entry that
// refers to itself; the argument struct itself is "#". Each entry is
// finished once (the bounds of its sized numbers), and its fields are
// found in its declaration. A version published inline that has become
// recursive has no inline form: it is reflected with $defs.
func TestLoadRecursive(t *testing.T) {
	writeModule(t, map[string]string{"tools/args.go": recursiveSource})
	const want = `{"$defs":{` +
		`"Cell":{"additionalProperties":false,"description":"Cell is a linked list.","properties":{"next":{"$ref":"#/$defs/Cell"},"value":{"maximum":127,"minimum":-128,"type":"integer"}},"required":["value"],"type":"object"},` +
		`"Forest":{"items":{"$ref":"#/$defs/Node"},"type":"array"},` +
		`"Node":{"additionalProperties":false,"description":"Node is a tree node.","properties":{"children":{"items":{"$ref":"#/$defs/Node"},"type":"array"},"name":{"minLength":1,"type":"string"},"weight":{"maximum":255,"minimum":0,"type":"integer"}},"required":["name"],"type":"object"}},` +
		`"additionalProperties":false,"properties":{"forest":{"$ref":"#/$defs/Forest"},"list":{"$ref":"#/$defs/Cell"},"parent":{"$ref":"#"},"root":{"$ref":"#/$defs/Node"}},"required":["root"],"type":"object"}`
	for _, pub := range [][]estate.ToolSpec{nil, {published(t, "t.tree@1.0.0", `{"type":"object"}`)}} {
		src, err := Load("./tools", pub)
		if err != nil {
			t.Fatal(err)
		}
		v := src.Versions[0]
		got, err := schema.CanonicalJSON(v.InputSchema.Document())
		if err != nil || string(got) != want {
			t.Errorf("input schema:\n%s\nwant:\n%s", got, want)
		}
		for _, c := range []struct {
			path []string
			want string
		}{
			{[]string{"$defs", "Node", "properties", "name", "minLength"}, "tools/args.go:5:43"},
			{[]string{"$defs", "Node", "properties", "children", "items"}, "tools/args.go:6:2"},
			{[]string{"$defs", "Cell", "properties", "next"}, "tools/args.go:13:2"},
			{[]string{"$defs", "Forest"}, "tools/args.go:17:6"},
			{[]string{"$defs", "Forest", "items", "properties", "weight", "maximum"}, "tools/args.go:7:2"},
			// A value path through references, as the gate's.
			{[]string{"properties", "root", "properties", "children", "items", "properties", "children", "items", "properties", "name"}, "tools/args.go:5:2"},
			{[]string{"properties", "forest", "items", "properties", "name"}, "tools/args.go:5:2"},
			{[]string{"properties", "forest", "items"}, "tools/args.go:26:2"},
			{[]string{"properties", "parent", "properties", "list", "properties", "value"}, "tools/args.go:12:2"},
		} {
			if got := v.Pos("inputSchema", c.path...).String(); got != c.want {
				t.Errorf("Pos(%q) = %s, want %s", c.path, got, c.want)
			}
		}
	}
}

// TestLoadDefNames: an instance of a generic type is named by the words of
// its name; two types of one schema that the reflector would give one name
// are refused, as a problem with both fields' Go source.
func TestLoadDefNames(t *testing.T) {
	writeModule(t, map[string]string{
		"tools/args.go": `package tools

import "example.com/m/other"

// Pair is two values.
type Pair[K, V any] struct {
	Key   K ` + "`" + `json:"key"` + "`" + `
	Value V ` + "`" + `json:"value"` + "`" + `
}

// Item is an item.
type Item struct {
	ID string ` + "`" + `json:"id"` + "`" + `
}

// Args are the arguments of t.pairs.
//
// Pair things.
//
//mcpgen:tool t.pairs@1.0.0 sideEffect=read classification=public owner=team
type Args struct {
	Counts Pair[string, int]  ` + "`" + `json:"counts"` + "`" + `
	Items  []Pair[int, Item]  ` + "`" + `json:"items"` + "`" + `
	Other  other.Item         ` + "`" + `json:"other,omitempty"` + "`" + `
	Mine   Item               ` + "`" + `json:"mine,omitempty"` + "`" + `
}
`,
		"other/item.go": `package other

// Item is another item.
type Item struct {
	Code int ` + "`" + `json:"code"` + "`" + `
}
`,
	})
	_, err := Load("./tools", nil)
	want := "tools/args.go:24:2: field Other: tools.Item and other.Item are both named Item, and invopop/jsonschema names a $defs entry by the type's name alone, so one entry would stand for both: rename one"
	if err == nil || err.Error() != want {
		t.Fatalf("Load: %v\nwant: %s", err, want)
	}

	// Without other.Item, the generic instances are entries of their own.
	text := mustRead(t, filepath.Join("tools", "args.go"))
	text = strings.Replace(text, "\tOther  other.Item         `json:\"other,omitempty\"`\n", "", 1)
	text = strings.Replace(text, "import \"example.com/m/other\"\n", "", 1)
	if err := os.WriteFile(filepath.Join("tools", "args.go"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Load("./tools", nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := src.Versions[0].InputSchema.Document()
	defs, _ := doc["$defs"].(map[string]any)
	names := slices.Sorted(maps.Keys(defs))
	if !slices.Equal(names, []string{"Item", "Pair_int_Item", "Pair_string_int"}) {
		t.Errorf("$defs entries %q", names)
	}
	if got := src.Versions[0].Pos("inputSchema", "$defs", "Pair_int_Item", "properties", "value").String(); got != "tools/args.go:7:2" {
		t.Errorf("Pos(Pair_int_Item.value) = %s", got)
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestLoadOwnSchema: a type with its own JSONSchema method is a $defs
// entry too, holding its answer as written, found at its declaration.
func TestLoadOwnSchema(t *testing.T) {
	dir := writeModule(t, map[string]string{"tools/args.go": `package tools

import "github.com/invopop/jsonschema"

// Code is a currency code.
type Code string

// JSONSchema answers the schema of a code.
func (Code) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: "^[A-Z]{3}$"}
}

// Args are the arguments of t.codes.
//
// Convert codes.
//
//mcpgen:tool t.codes@1.0.0 sideEffect=read classification=public owner=team
type Args struct {
	From Code   ` + "`" + `json:"from"` + "`" + `
	To   []Code ` + "`" + `json:"to,omitempty"` + "`" + `
}
`})
	// The package imports the reflector itself, so the module requires it,
	// at the version mcpgen's requirement selects.
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	src, err := Load("./tools", nil)
	if err != nil {
		t.Fatal(err)
	}
	v := src.Versions[0]
	const want = `{"$defs":{"Code":{"pattern":"^[A-Z]{3}$","type":"string"}},"additionalProperties":false,` +
		`"properties":{"from":{"$ref":"#/$defs/Code"},"to":{"items":{"$ref":"#/$defs/Code"},"type":"array"}},"required":["from"],"type":"object"}`
	got, err := schema.CanonicalJSON(v.InputSchema.Document())
	if err != nil || string(got) != want {
		t.Errorf("input schema:\n%s\nwant:\n%s", got, want)
	}
	if got := v.Pos("inputSchema", "$defs", "Code", "pattern").String(); got != "tools/args.go:6:6" {
		t.Errorf("Pos($defs/Code/pattern) = %s", got)
	}
}

// TestLoadEmbeddedRecursion: a struct whose embedded struct refers back to
// it promotes the embedded fields once; the reference is a $ref.
func TestLoadEmbeddedRecursion(t *testing.T) {
	writeModule(t, map[string]string{"tools/args.go": `package tools

// Base is embedded in Leaf, and holds a Leaf.
type Base struct {
	Next *Leaf ` + "`" + `json:"next,omitempty"` + "`" + `
}

// Leaf embeds Base.
type Leaf struct {
	*Base
	Tag string ` + "`" + `json:"tag"` + "`" + `
}

// Args are the arguments of t.leaf.
//
// Follow leaves.
//
//mcpgen:tool t.leaf@1.0.0 sideEffect=read classification=public owner=team
type Args struct {
	First Leaf ` + "`" + `json:"first"` + "`" + `
}
`})
	src, err := Load("./tools", nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"$defs":{"Leaf":{"additionalProperties":false,"description":"Leaf embeds Base.","properties":{"next":{"$ref":"#/$defs/Leaf"},"tag":{"type":"string"}},"required":["tag"],"type":"object"}},` +
		`"additionalProperties":false,"properties":{"first":{"$ref":"#/$defs/Leaf"}},"required":["first"],"type":"object"}`
	got, err := schema.CanonicalJSON(src.Versions[0].InputSchema.Document())
	if err != nil || string(got) != want {
		t.Errorf("input schema:\n%s\nwant:\n%s", got, want)
	}
}
