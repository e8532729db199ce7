// Package specs is what package difftest is generated from, and how: the
// sample estate's manifests, a few schemas written by hand for edge cases, and
// one tool version per schema of the generated corpus, laid out by gen/ir and rendered by gen/emit exactly as mcpgen
// renders a service's package. The generator program (difftest/gen) writes
// the files; difftest's tests render them again in memory and compare.
package specs

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
	corpus "github.com/mcpgen/mcpgen/internal/schemacorpus"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// PackageName is the Go package the files belong to.
const PackageName = "difftest"

// ManifestDir is the sample estate's manifest directory, relative to difftest's
// directory (where go generate and go test run).
const ManifestDir = "../../manifests"

// CorpusBase and CorpusSchemas choose the corpus schemas: tool i is made of
// the root schema of seed CorpusBase+i.
const (
	CorpusBase    = 20_000
	CorpusSchemas = 60
)

// WrapProperty is the property a corpus schema becomes when it cannot be a
// tool's input schema by itself (see CorpusTool.Wrapped).
const WrapProperty = "v"

// TableFile is the file listing every generated version with its
// functions, for difftest's tests.
const TableFile = "versions_gen_test.go"

// EdgeSchemas are input schemas written by hand for what the corpus rarely
// or never writes: uniqueItems over each scalar type (where the generated
// code compares Go values instead of JSON values), numeric enums and
// consts the emitter compiles to switches, arrays without items,
// additionalProperties schemas over typed objects, and the shapes schema
// generators write: $defs, a tagged oneOf with a $ref variant, nullable
// anyOf and type lists, unions by type, formats, maps of $refs, a
// recursive definition, allOf, prefixItems, dependentRequired; and
// definitions that contain themselves in every shape (an array or a map of
// itself, a nullable one, a union, an object through its undeclared
// properties, two definitions through each other, a tagged oneOf of
// expressions). Each is the tool "edge.<name>" version 1.0.0.
var EdgeSchemas = []struct{ Name, Doc string }{
	{"recursive", `{
		"type": "object",
		"$defs": {
			"list": {"type": "array", "items": {"$ref": "#/$defs/list"}, "maxItems": 3},
			"map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/map"}, "maxProperties": 2},
			"node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}, "v": {"type": "integer"}}},
			"nullnode": {"type": ["object", "null"], "properties": {"next": {"$ref": "#/$defs/nullnode"}, "v": {"type": "integer"}}},
			"either": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/either"}, "maxItems": 2}]},
			"tree": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": {"$ref": "#/$defs/tree"}, "maxProperties": 3},
			"rows": {"type": "array", "items": {"$ref": "#/$defs/row"}, "maxItems": 2},
			"row": {"type": "object", "properties": {"rows": {"$ref": "#/$defs/rows"}}}
		},
		"properties": {
			"list": {"$ref": "#/$defs/list"},
			"map": {"$ref": "#/$defs/map"},
			"node": {"$ref": "#/$defs/node"},
			"nullnode": {"$ref": "#/$defs/nullnode"},
			"either": {"$ref": "#/$defs/either"},
			"tree": {"$ref": "#/$defs/tree"},
			"rows": {"$ref": "#/$defs/rows"},
			"row": {"$ref": "#/$defs/row"}
		}
	}`},
	{"expr", `{
		"type": "object",
		"$defs": {
			"expr": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "num"}, "value": {"type": "integer"}}, "required": ["kind", "value"], "additionalProperties": false},
				{"type": "object", "properties": {"kind": {"const": "sum"}, "terms": {"type": "array", "items": {"$ref": "#/$defs/expr"}, "maxItems": 3}}, "required": ["kind", "terms"], "additionalProperties": false},
				{"type": "object", "properties": {"kind": {"const": "neg"}, "of": {"$ref": "#/$defs/expr"}}, "required": ["kind", "of"], "additionalProperties": false}
			]}
		},
		"properties": {"root": {"$ref": "#/$defs/expr"}},
		"required": ["root"],
		"additionalProperties": false
	}`},
	{"unique", `{
		"type": "object",
		"properties": {
			"ints": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
			"nums": {"type": "array", "items": {"type": "number", "maximum": 1e300}, "uniqueItems": true},
			"strs": {"type": "array", "items": {"type": "string", "maxLength": 3}, "uniqueItems": true},
			"bools": {"type": "array", "items": {"type": "boolean"}, "uniqueItems": true, "maxItems": 3},
			"enums": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "uniqueItems": true},
			"anys": {"type": "array", "items": {"type": ["integer", "string"]}, "uniqueItems": true},
			"objs": {"type": "array", "items": {"type": "object"}, "uniqueItems": true}
		},
		"additionalProperties": false
	}`},
	{"numbers", `{
		"type": "object",
		"properties": {
			"big": {"type": "integer", "enum": [9223372036854775808, 1]},
			"huge": {"type": "integer", "const": 123456789012345678901234567890},
			"frac": {"type": "integer", "enum": [2.0, 3.5, 1e2, -0.0]},
			"num": {"type": "number", "enum": [1, 2.5, 1e300]},
			"iconst": {"type": "integer", "const": 5, "minimum": 0},
			"nconst": {"type": "number", "const": 0.1},
			"bconst": {"type": "boolean", "const": true},
			"benum": {"type": "boolean", "enum": [false]},
			"sconst": {"type": "string", "const": "x"},
			"snum": {"type": "string", "enum": ["a", 1]},
			"nstr": {"type": "number", "enum": ["1", null]},
			"bounds": {"type": "integer", "minimum": -9223372036854775808, "exclusiveMaximum": 9223372036854775807},
			"fbounds": {"type": "number", "exclusiveMinimum": 0, "maximum": 0.3}
		}
	}`},
	{"exact", `{
		"type": "object",
		"properties": {
			"int": {"type": "integer", "enum": [9007199254740993, 9007199254740992.0]},
			"num": {"type": "number", "const": 9007199254740993},
			"any": {"enum": [9007199254740993, "x"]}
		}
	}`},
	{"nested", `{
		"type": "object",
		"properties": {
			"raw": {"type": "array"},
			"grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 1}},
			"rows": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": {"type": "string"}}},
			"open": {"type": "object", "properties": {"a": {"type": "string"}}},
			"closed": {"type": "object", "additionalProperties": false},
			"null": {"type": "null"}
		},
		"required": ["rows"],
		"additionalProperties": {"type": "object", "properties": {"k": {"type": "boolean"}}}
	}`},
	{"unions", `{
		"type": "object",
		"$defs": {
			"money": {"type": "object", "properties": {"amount": {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 0}, "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}}, "required": ["amount", "currency"], "additionalProperties": false},
			"card": {"type": "object", "properties": {"kind": {"const": "card"}, "last4": {"type": "string", "minLength": 4, "maxLength": 4}}, "required": ["kind", "last4"], "additionalProperties": false},
			"node": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 3}}, "required": ["name"]}
		},
		"properties": {
			"method": {"oneOf": [
				{"$ref": "#/$defs/card"},
				{"type": "object", "properties": {"kind": {"const": "iban"}, "iban": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{2}", "minLength": 5}}, "required": ["kind", "iban"]}
			]},
			"note": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]},
			"when": {"type": ["string", "null"], "format": "date"},
			"id": {"type": "string", "format": "uuid"},
			"amount": {"$ref": "#/$defs/money"},
			"limits": {"type": "object", "additionalProperties": {"$ref": "#/$defs/money"}, "maxProperties": 2},
			"size": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["small", "large"]}]},
			"tree": {"$ref": "#/$defs/node"},
			"both": {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}, {"properties": {"b": {"type": "boolean"}}}]},
			"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
			"first": {"type": "string"},
			"second": {"type": "string"}
		},
		"dependentRequired": {"first": ["second"]},
		"minProperties": 1,
		"additionalProperties": false
	}`},
}

// CorpusTool is a tool version made of a corpus schema.
type CorpusTool struct {
	// Key is the version's name@version.
	Key string
	// Seed is the corpus seed whose root schema this is:
	// schemacorpus.New(Seed).Schema(0) is Doc, and the same stream goes on
	// to give its values.
	Seed uint64
	// Doc is the corpus schema; Schema is it parsed.
	Doc    map[string]any
	Schema *schema.Schema
	// Wrapped is set when the input schema is Doc as the one required
	// property WrapProperty of a closed object, because Doc is not an
	// object schema a tool input can be (another type, a union, no type, an
	// enum or a const). A value v of Doc is then the arguments
	// {"v": v}.
	Wrapped bool
}

// Set is everything difftest is generated from.
type Set struct {
	// Specs is every tool version: the sample estate's, the edge schemas', then the
	// corpus's.
	Specs []estate.ToolSpec
	// Corpus describes the versions made of corpus schemas, by Key.
	Corpus map[string]CorpusTool
	// Package is the IR of the generated package.
	Package *ir.Package
}

// Load reads the sample estate's manifests from manifestDir, makes the corpus
// versions and lays the package out.
func Load(manifestDir string) (*Set, error) {
	est, err := manifest.LoadDir(manifestDir)
	if err != nil {
		return nil, err
	}
	set := &Set{Specs: est.Specs(), Corpus: map[string]CorpusTool{}}
	for _, e := range EdgeSchemas {
		spec, err := edgeVersion(e.Name, e.Doc)
		if err != nil {
			return nil, err
		}
		set.Specs = append(set.Specs, spec)
	}
	for i := range CorpusSchemas {
		tool, spec, err := corpusVersion(i)
		if err != nil {
			return nil, err
		}
		set.Specs = append(set.Specs, spec)
		set.Corpus[tool.Key] = tool
	}
	set.Package, err = ir.Build(PackageName, set.Specs, ir.Server{Name: "difftest", Version: "1.0.0"})
	if err != nil {
		return nil, err
	}
	return set, nil
}

// edgeVersion makes the tool version of an edge schema.
func edgeVersion(name, doc string) (estate.ToolSpec, error) {
	in, err := schema.ParseJSON([]byte(doc))
	if err != nil {
		return estate.ToolSpec{}, fmt.Errorf("edge schema %s: %w", name, err)
	}
	return toolSpec("edge."+name, "Edge case "+name, "Takes arguments the corpus rarely writes.", in)
}

// toolSpec is a valid read-only tool version 1.0.0 with input schema in,
// and in as its output schema too: the output type, typed apart from the
// arguments, writes itself (AppendJSON), which difftest holds to
// encoding/json on the same values.
func toolSpec(name, title, description string, in *schema.Schema) (estate.ToolSpec, error) {
	spec := estate.ToolSpec{
		Name:               name,
		Version:            estate.MustParseVersion("1.0.0"),
		Title:              title,
		Description:        description,
		InputSchema:        in,
		OutputSchema:       in,
		SideEffect:         estate.Read,
		DataClassification: estate.Internal,
		Owner:              "difftest",
	}
	if err := spec.Validate(); err != nil {
		return spec, fmt.Errorf("%s: %w", name, err)
	}
	return spec, nil
}

// corpusVersion makes the i-th corpus tool version.
func corpusVersion(i int) (CorpusTool, estate.ToolSpec, error) {
	seed := uint64(CorpusBase + i)
	doc := corpus.New(seed).Schema(0)
	tool := CorpusTool{Seed: seed, Doc: doc, Schema: corpus.MustParse(doc)}
	input := doc
	if !isObjectRoot(tool.Schema) {
		tool.Wrapped = true
		input = map[string]any{
			"type":                 "object",
			"properties":           map[string]any{WrapProperty: doc},
			"required":             []any{WrapProperty},
			"additionalProperties": false,
		}
	}
	in, err := schema.Parse(input)
	if err != nil {
		return tool, estate.ToolSpec{}, fmt.Errorf("corpus seed %d: %w", seed, err)
	}
	spec, err := toolSpec(fmt.Sprintf("corpus.s%02d", i), fmt.Sprintf("Corpus schema %02d", i),
		fmt.Sprintf("Takes arguments of the corpus schema numbered %d.", seed), in)
	if err != nil {
		return tool, spec, err
	}
	tool.Key = spec.Key()
	return tool, spec, nil
}

// isObjectRoot reports whether s can be a tool's input schema as it is and
// decode into a struct: exactly type "object", no enum or const.
func isObjectRoot(s *schema.Schema) bool {
	_, hasEnum := s.Enum()
	_, hasConst := s.Const()
	return slices.Equal(s.Types(), []schema.Kind{schema.KindObject}) && !hasEnum && !hasConst
}

// Files renders the package: gen/emit's files, the estate record they
// embed, and TableFile, sorted by name. The same Set always renders to the
// same bytes.
func (s *Set) Files() ([]emit.File, error) {
	files, err := emit.Package(s.Package, emit.Layout{})
	if err != nil {
		return nil, err
	}
	rec, err := record.FromSpecs(s.Specs).Marshal()
	if err != nil {
		return nil, err
	}
	table, err := s.table()
	if err != nil {
		return nil, err
	}
	files = append(files, emit.File{Name: record.FileName, Data: rec}, emit.File{Name: TableFile, Data: table})
	slices.SortFunc(files, func(a, b emit.File) int { return cmp.Compare(a.Name, b.Name) })
	return files, nil
}

// table renders TableFile: every version's name, version, generated
// decoder, the same reading into a value that is dropped (decode.Checker,
// as a version's output is checked), and its output's decoder; its repair
// is RepairArguments of the name and version. The types it names (version,
// and typed and appending, which turn a Decode function into one
// signature) are declared by difftest's hand-written tests.
func (s *Set) table() ([]byte, error) {
	f := jen.NewFile(PackageName)
	f.HeaderComment("Code generated by internal/difftest/gen. DO NOT EDIT.")
	var entries []jen.Code
	for _, t := range s.Package.Tools {
		for _, v := range t.Versions {
			entry := jen.Dict{
				jen.Id("name"):    jen.Lit(v.Spec.Name),
				jen.Id("version"): jen.Lit(v.Spec.Version.String()),
				jen.Id("decode"):  jen.Id("typed").Call(jen.Id("Decode" + v.ArgsName())),
				jen.Id("dropped"): jen.Qual("github.com/mcpgen/mcpgen/runtime/decode", "Checker").Call(
					jen.Func().Params(jen.Id("r").Op("*").Qual("github.com/mcpgen/mcpgen/runtime/decode", "Reader")).Block(
						jen.Var().Id("v").Id(v.ArgsName()),
						jen.Id("v").Dot("DecodeFrom").Call(jen.Id("r"), jen.Nil()),
					)),
			}
			if v.Output != nil {
				entry[jen.Id("output")] = jen.Id("appending").Call(jen.Id("Decode" + v.Output.Name))
			}
			entries = append(entries, jen.Values(entry))
		}
	}
	f.Comment("versions lists every generated version, in publish order.")
	f.Var().Id("versions").Op("=").Index().Id("version").Values(entries...)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
