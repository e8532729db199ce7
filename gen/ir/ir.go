// Package ir decides, once, what the generator emits: the Go name of every
// tool version and of every type, the Go type of every value a contract
// describes, and the checks each value needs. The emitters read only the IR
// and print it, so typing and naming rules live in one place, and adding a
// keyword to the language is one case here and one helper in the runtime
// (as ogen's gen/ir sits between its spec parser and its templates).
//
// # How a value is typed
//
// A value is constrained by every schema that applies to it at once (its
// own, what that reaches through $ref and allOf: see
// schema.Conjunction). The IR types it from them:
//
//   - a schema that only refers to a $defs entry is that entry's named Go
//     type, declared once per version and reused; a recursive definition is
//     reached through a pointer where Go needs one;
//   - an object is a struct of its declared properties (optional ones as
//     optional.Value), or a map[string]T when it declares none and its
//     additionalProperties is a schema;
//   - an array is a slice of its items' type;
//   - a string, integer, number or boolean is string, int64, float64 or
//     bool; a string enum is a named string type with a constant per value;
//   - a value that may also be null (type [T, "null"], or anyOf with
//     {"type": "null"}) is an optional.Nullable[T];
//   - a oneOf or anyOf told apart by a tag property is a sealed interface
//     with a struct per alternative; one told apart by type is a small
//     union struct with a field per alternative;
//   - anything else is any, in runtime/schema's JSON value model.
//
// # How a value is checked
//
// The checks the language's common keywords state (types, bounds, lengths,
// patterns, formats, multipleOf, enum and const of scalars, required,
// additionalProperties, min/max items and properties, uniqueItems,
// dependentRequired) are compiled: each is one line of generated code
// calling a runtime/decode helper. A value whose schemas use anything else
// (not, if/then/else, contains, prefixItems, patternProperties,
// propertyNames, dependentSchemas, unevaluated*, a union tried one
// alternative at a time, enum or const of an object or array, type lists
// that differ between the schemas) is Delegated: generated code reads it
// whole, the reference validator checks it against its Roots, and its Go
// value is filled without reporting. Both paths report the reference
// validator's errors, byte for byte; the generated decoders are tested
// against it (internal/difftest) and run the official test suite.
package ir

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Package is everything one generated package holds.
type Package struct {
	// Name is the Go package name.
	Name  string
	Tools []*Tool // sorted by tool name
	// Server is what server.yaml declares: serverInfo, resources and
	// prompts, registered as given.
	Server Server
}

// Server is the server's own description.
type Server struct {
	Name, Version string
	Resources     []Resource
	Prompts       []Prompt
}

// Resource is a static resource server.yaml declares, emitted as an
// mcp.Resource literal. The IR holds its own copy of what it emits, so that
// the generator does not link the server runtime.
type Resource struct {
	URI, Name, MIMEType, Text string
	Tenants                   []string
}

// Prompt is a template prompt server.yaml declares, emitted as an
// mcp.Prompt literal.
type Prompt struct {
	Name, Description, Template string
	Arguments                   []PromptArgument
}

// PromptArgument is one argument of a Prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// Tool is one tool name with its versions.
type Tool struct {
	Name     string
	GoName   string     // PaymentsLookup
	Versions []*Version // ascending
	// Lines are the tool's major lines, ascending.
	Lines []*Line
}

// Line is one major line of a tool: its versions X.*.*, served by one
// Handler method, the newest minor's. A version of the line is validated
// against its own contract (what its caller was promised), then decoded
// with the newest version's decoder and handed to that method: a minor
// only loosens the contract (the generator refuses a line where it does
// not, see checkLine), so arguments valid under an older minor are valid
// under the newest, and releasing a compatible minor changes no handler.
type Line struct {
	Major uint64
	// GoName names the line's Handler and its argument alias:
	// PaymentsLookupV2 and PaymentsLookupV2Args, names that a new minor
	// of the line does not change.
	GoName string
	// Versions are the line's versions, ascending; Newest is the last.
	Versions []*Version
	Newest   *Version
}

// ArgsAlias is the name of the alias of the newest version's argument type
// (PaymentsLookupV2Args), the type the line's Handler method takes.
func (l *Line) ArgsAlias() string { return l.GoName + "Args" }

// Version is one tool version.
type Version struct {
	Spec   estate.ToolSpec
	Tool   *Tool
	Line   *Line  // its major line
	GoName string // PaymentsLookupV1_0_0
	// Args is the argument type (always a struct: inputSchema is an
	// object).
	Args *Type
	// Output is the output type, or nil when no outputSchema is declared.
	Output *Type
	// ArgsType, when set, is the struct the team wrote as this version's
	// arguments (mcpgen generate -source): the handler and the client take
	// it, and Args is then the unexported wire form the generated decoder
	// validates into before the team's struct is filled.
	ArgsType *External
	// Named lists every named type of the version in declaration order:
	// Args, Output, then the types below them (nested structs, enums,
	// unions, $defs entries), each once.
	Named []*Type
	// Delegated lists the types whose values the reference validator
	// checks, in traversal order, each once.
	Delegated []*Type
}

// External is a Go type declared outside the generated package.
type External struct {
	// Path and Package are the import path and the name of the package
	// that declares it; Name is the type's name there.
	Path, Package, Name string
	// Value describes the type for generated code that fills it; nil when
	// encoding/json fills it (see GoValue).
	Value *GoValue
}

// ArgsName is the name the version's exported functions are derived from
// (DecodePaymentsLookupV1_0_0Args, RepairPaymentsLookupV1_0_0Args): the
// name of its argument type when the package declares it.
func (v *Version) ArgsName() string { return v.GoName + "Args" }

// NameError is a naming problem the generator cannot resolve by itself:
// two properties or two tools whose Go names collide. Field and Path locate
// it in the manifest of Key ("inputSchema", ["properties", "includeLegs"]).
type NameError struct {
	Key   string
	Field string
	Path  schema.Path
	Msg   string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("%s: %s %s: %s", e.Key, e.Field, strings.TrimPrefix(e.Path.String(), "/"), e.Msg)
}

// Errors is every NameError found.
type Errors []*NameError

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Build lays out the package for the given specs (any order; several
// versions per name).
func Build(pkgName string, specs []estate.ToolSpec, server Server) (*Package, error) {
	return BuildWithArgs(pkgName, specs, server, nil)
}

// BuildWithArgs is Build for an estate some of whose versions take a struct
// the team wrote as their arguments: args maps a version's key
// ("payments.lookup@1.0.0") to that type. Such a version's Args is named
// in lower case ("paymentsLookupV1_0_0Wire"), so its wire form and the
// types under it stay unexported.
func BuildWithArgs(pkgName string, specs []estate.ToolSpec, server Server, args map[string]External) (*Package, error) {
	b := &builder{}
	byName := map[string][]estate.ToolSpec{}
	for _, s := range specs {
		byName[s.Name] = append(byName[s.Name], s)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	pkg := &Package{Name: pkgName, Server: server}
	toolOf := map[string]string{} // Go name → tool name
	for _, name := range names {
		t := &Tool{Name: name, GoName: GoName(name)}
		vs := byName[name]
		if other, dup := toolOf[t.GoName]; dup {
			b.fail(vs[0].Key(), "name", nil, fmt.Sprintf("tool name %q has the same Go name %s as %q; rename one", name, t.GoName, other))
			continue
		}
		toolOf[t.GoName] = name
		slices.SortFunc(vs, func(a, b estate.ToolSpec) int { return a.Version.Compare(b.Version) })
		for _, spec := range vs {
			v := &Version{Spec: spec, Tool: t}
			v.GoName = fmt.Sprintf("%sV%d_%d_%d", t.GoName, spec.Version.Major(), spec.Version.Minor(), spec.Version.Patch())
			argsName := v.ArgsName()
			prefix := v.GoName
			if ext, ok := args[spec.Key()]; ok {
				v.ArgsType = &ext
				argsName = wireName(v.GoName)
				prefix = lowerFirst(v.GoName)
			}
			b.start(v, spec.Key(), "inputSchema", prefix)
			v.Args = b.root(spec.InputSchema, argsName)
			if v.Args.Kind != Struct {
				// Arguments are a struct: MCP's inputSchema is an object.
				b.fail(spec.Key(), "inputSchema", nil, "the root of an input schema must be an object: type object, with its properties (not a union, not an enum or a const)")
			}
			if spec.OutputSchema != nil {
				b.start(v, spec.Key(), "outputSchema", v.GoName)
				v.Output = b.root(spec.OutputSchema, v.GoName+"Output")
				if v.Output.Kind != Struct {
					b.fail(spec.Key(), "outputSchema", nil, "the root of an output schema must be an object: type object, with its properties (not a union, not an enum or a const)")
				}
			}
			v.collect()
			t.Versions = append(t.Versions, v)
		}
		t.Lines = lines(t)
		for _, l := range t.Lines {
			b.checkLine(l)
		}
		pkg.Tools = append(pkg.Tools, t)
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return pkg, nil
}

// lines groups t's versions (ascending) into major lines.
func lines(t *Tool) []*Line {
	var out []*Line
	for _, v := range t.Versions {
		major := v.Spec.Version.Major()
		if len(out) == 0 || out[len(out)-1].Major != major {
			out = append(out, &Line{Major: major, GoName: fmt.Sprintf("%sV%d", t.GoName, major)})
		}
		l := out[len(out)-1]
		l.Versions = append(l.Versions, v)
		l.Newest = v
		v.Line = l
	}
	return out
}

// checkLine refuses a major line whose newest version would turn away
// arguments an older version of the line accepts (or return what its
// callers cannot read): its handler could not serve the older version's
// callers. The change is classified as the publish guard and the
// breaking-change gate classify it (estate.ContractDiff), so the three
// cannot disagree on what a minor is.
func (b *builder) checkLine(l *Line) {
	for _, v := range l.Versions[:len(l.Versions)-1] {
		d := estate.ContractDiff(v.Spec, l.Newest.Spec)
		if d.Class != schema.Major {
			continue
		}
		why := ""
		for _, c := range d.Changes {
			if c.Class == schema.Major {
				why = " (" + c.String() + ")"
				break
			}
		}
		b.fail(v.Spec.Key(), "version", nil, fmt.Sprintf(
			"%s and %s are one major line, served by one handler method (%s), but the change between them is major%s: arguments valid for %s may be refused by %s; release the change as %d.0.0",
			v.Spec.Key(), l.Newest.Spec.Key(), l.GoName, why, v.Spec.Version, l.Newest.Spec.Version, l.Major+1))
	}
}

// BuildSchema types one schema on its own, as the root of a document, for
// the generated decoders of the JSON Schema Test Suite (whose schemas are
// not objects): Field names the schema in errors, name is its Go name.
func BuildSchema(s *schema.Schema, name string) (*Version, error) {
	b := &builder{values: true}
	v := &Version{GoName: name, Spec: estate.ToolSpec{Name: name, InputSchema: s}}
	b.start(v, name, "schema", name)
	v.Args = b.root(s, name)
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	v.collect()
	return v, nil
}

// collect lists the named and the delegated types of v, each once, in the
// order a walk from Args, then Output, meets them.
func (v *Version) collect() {
	seen := map[*Type]bool{}
	var walk func(t *Type)
	walk = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.Named() {
			v.Named = append(v.Named, t)
		}
		if t.Delegated && len(t.Roots) > 0 {
			v.Delegated = append(v.Delegated, t)
		}
		for _, f := range t.Fields {
			walk(f.Type)
		}
		walk(t.Extra)
		walk(t.Elem)
		for _, a := range t.Alts {
			walk(a.Type)
		}
	}
	walk(v.Args)
	walk(v.Output)
}

// wireName is the unexported name of the wire form of a version whose
// arguments are a type the team wrote: "paymentsLookupV1_0_0Wire".
func wireName(goName string) string { return lowerFirst(goName) + "Wire" }

func lowerFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
