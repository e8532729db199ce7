// Package importgen turns the tool lists of testdata/generators (MCP
// tools/list results whose schemas zod, pydantic, google/jsonschema-go and
// invopop/jsonschema wrote) into mcpgen packages, the way a team bringing
// such a server over would: each tool one manifest, its inputSchema as the
// generator wrote it, released as 1.0.0, and the formats that are no JSON
// Schema format listed as formatAnnotations, explicitly. It also writes an
// echo handler for every package, so that a server built from them answers
// each call with the arguments it decoded.
package importgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Generators are the directories of testdata/generators brought in, each
// also the name of its Go package.
var Generators = []string{"invopop", "jsonschemago", "pydantic", "zod"}

// ToolList is a tools.json file.
type ToolList struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

// ReadToolList reads the tools.json of generator g under testdata.
func ReadToolList(testdata, g string) (*ToolList, error) {
	data, err := os.ReadFile(filepath.Join(testdata, g, "tools.json"))
	if err != nil {
		return nil, err
	}
	var l ToolList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("%s/tools.json: %w", g, err)
	}
	return &l, nil
}

// Write generates, under out, the package of every generator and
// echo.gen.go, the echo handlers, into out/server.
func Write(testdata, out string) error {
	var handlers []pkgHandlers
	for _, g := range Generators {
		h, err := writePackage(testdata, g, filepath.Join(out, g))
		if err != nil {
			return fmt.Errorf("%s: %w", g, err)
		}
		handlers = append(handlers, h)
	}
	src, err := echoSource(handlers)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "server"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "server", "echo.gen.go"), src, 0o644)
}

// pkgHandlers are the handler methods of one generated package.
type pkgHandlers struct {
	pkg      string
	versions []*ir.Version
}

func writePackage(testdata, g, out string) (pkgHandlers, error) {
	list, err := ReadToolList(testdata, g)
	if err != nil {
		return pkgHandlers{}, err
	}
	manifests, err := os.MkdirTemp("", "importgen")
	if err != nil {
		return pkgHandlers{}, err
	}
	defer os.RemoveAll(manifests)
	server := fmt.Sprintf("name: %s-tools\nversion: 1.0.0\n", g)
	if err := os.WriteFile(filepath.Join(manifests, "server.yaml"), []byte(server), 0o644); err != nil {
		return pkgHandlers{}, err
	}
	for _, tool := range list.Tools {
		m, err := Manifest(tool.Name, tool.Description, tool.InputSchema)
		if err != nil {
			return pkgHandlers{}, fmt.Errorf("%s: %w", tool.Name, err)
		}
		if err := os.WriteFile(filepath.Join(manifests, tool.Name+".yaml"), m, 0o644); err != nil {
			return pkgHandlers{}, err
		}
	}
	opts := gen.Options{Manifests: manifests, Out: out, Package: g}
	if _, err := gen.Generate(opts); err != nil {
		return pkgHandlers{}, err
	}
	est, err := gen.LoadEstate(opts)
	if err != nil {
		return pkgHandlers{}, err
	}
	p, err := ir.Build(g, est.Specs(), ir.Server{})
	if err != nil {
		return pkgHandlers{}, err
	}
	h := pkgHandlers{pkg: g}
	for _, t := range p.Tools {
		h.versions = append(h.versions, t.Versions...)
	}
	return h, nil
}

// Manifest is the manifest of one imported tool: version 1.0.0 of a read
// tool on public data, its schema as written (JSON is YAML), with the
// formats the contract language does not assert served as annotations.
func Manifest(name, description string, inputSchema json.RawMessage) ([]byte, error) {
	annotations, err := FormatAnnotations(inputSchema)
	if err != nil {
		return nil, err
	}
	inputSchema, err = objectAtTop(inputSchema, annotations)
	if err != nil {
		return nil, err
	}
	version := map[string]any{
		"version":            "1.0.0",
		"description":        description,
		"sideEffect":         "read",
		"dataClassification": "public",
		"owner":              "imported",
		"inputSchema":        inputSchema,
	}
	if len(annotations) > 0 {
		version["formatAnnotations"] = annotations
	}
	return json.MarshalIndent(map[string]any{"name": name, "versions": []any{version}}, "", "  ")
}

// objectAtTop adds type "object" to the top of a schema that has no type
// there but admits only objects, as invopop/jsonschema writes one (a
// $ref to a $defs entry): MCP requires type "object" at the top of an
// inputSchema, and the contract is the same with it.
func objectAtTop(inputSchema json.RawMessage, annotations []string) (json.RawMessage, error) {
	s, err := schema.ParseJSONWith(inputSchema, schema.Options{AnnotationFormats: annotations})
	if err != nil {
		return nil, err
	}
	kinds := schema.Admitted(schema.Conjunction(s)).Kinds()
	if len(s.Types()) > 0 || !slices.Equal(kinds, []schema.Kind{schema.KindObject}) {
		return inputSchema, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(inputSchema, &top); err != nil {
		return nil, err
	}
	top["type"] = json.RawMessage(`"object"`)
	return json.Marshal(top)
}

// FormatAnnotations are the formats a schema names that the contract
// language does not assert, sorted.
func FormatAnnotations(inputSchema json.RawMessage) ([]string, error) {
	v, err := schema.DecodeJSON(inputSchema)
	if err != nil {
		return nil, err
	}
	asserted := schema.AssertedFormats()
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if f, ok := v["format"].(string); ok && !slices.Contains(asserted, f) && !slices.Contains(out, f) {
				out = append(out, f)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	slices.Sort(out)
	return out, nil
}

// echoSource is echo.gen.go: for each package a handler type whose every
// method answers with its arguments as JSON, and the table the server
// chooses from.
func echoSource(handlers []pkgHandlers) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/imported/importgen. DO NOT EDIT.\n\npackage main\n\nimport (\n\t\"context\"\n\n")
	for _, h := range handlers {
		fmt.Fprintf(&b, "\t%q\n", "github.com/mcpgen/mcpgen/internal/imported/"+h.pkg)
	}
	b.WriteString("\t\"github.com/mcpgen/mcpgen/runtime/mcp\"\n)\n\n")
	b.WriteString("// estates registers the tools of each imported package, by its name.\nvar estates = map[string]func(*mcp.Server) error{\n")
	for _, h := range handlers {
		fmt.Fprintf(&b, "\t%q: func(s *mcp.Server) error { return %s.Register(s, %sEcho{}) },\n", h.pkg, h.pkg, h.pkg)
	}
	b.WriteString("}\n")
	for _, h := range handlers {
		fmt.Fprintf(&b, "\n// %sEcho answers every call of package %s with its arguments.\ntype %sEcho struct{}\n", h.pkg, h.pkg, h.pkg)
		for _, v := range h.versions {
			fmt.Fprintf(&b, "\n// %s answers %s@%s.\nfunc (%sEcho) %s(_ context.Context, _ *mcp.Call, args %s.%s) (*mcp.Result, error) {\n\treturn echo(args)\n}\n",
				v.GoName, v.Spec.Name, v.Spec.Version, h.pkg, v.GoName, h.pkg, v.ArgsName())
		}
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("echo.gen.go: %w\n%s", err, strings.TrimSpace(b.String()))
	}
	return src, nil
}
