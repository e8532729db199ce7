// Package ir decides, once, what the generator emits: the Go name of every
// tool version and of every type, the Go type of every schema node, and the
// checks each field needs. The emitters read only the IR, so naming and
// typing rules live in one place (as ogen's gen/ir sits between its spec
// parser and its templates).
package ir

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
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
	Resources     []mcp.Resource
	Prompts       []mcp.Prompt
}

// Tool is one tool name with its versions.
type Tool struct {
	Name     string
	GoName   string     // PaymentsLookup
	Versions []*Version // ascending
}

// Version is one tool version.
type Version struct {
	Spec   estate.ToolSpec
	Tool   *Tool
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
}

// External is a Go type declared outside the generated package.
type External struct {
	// Path and Package are the import path and the name of the package
	// that declares it; Name is the type's name there.
	Path, Package, Name string
}

// ArgsName is the name the version's exported functions are derived from
// (DecodePaymentsLookupV1_0_0Args, RepairPaymentsLookupV1_0_0Args): the
// name of its argument type when the package declares it.
func (v *Version) ArgsName() string { return v.GoName + "Args" }

// Kind is how a schema node is represented in Go.
type Kind int

const (
	// Any is a node decoded into runtime/schema's JSON value model and
	// checked by the reference validator: type unions, untyped schemas,
	// null. Generated code stays straight-line for everything else.
	Any Kind = iota
	Struct
	String
	Integer
	Number
	Boolean
	Array
)

// Type is the Go representation of one schema node.
type Type struct {
	Kind   Kind
	Schema *schema.Schema
	// Name is the Go type name of named types: structs, and strings with
	// an enum (which get typed constants).
	Name string
	// Doc is the schema's description (or title), for the doc comment.
	Doc string
	// Fields of a struct, sorted by JSON name.
	Fields []*Field
	// Elem is an array's element type.
	Elem *Type
	// Path is the schema path of this node inside its input or output
	// schema, for error positions.
	Path schema.Path
}

// Field is one property of a struct.
type Field struct {
	JSONName string
	GoName   string
	Type     *Type
	Required bool
	// Index numbers the properties of one object, for the decoder's
	// presence bitmask.
	Index int
}

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
	b := builder{}
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
			b.key, b.field = spec.Key(), "inputSchema"
			argsName := v.ArgsName()
			if ext, ok := args[spec.Key()]; ok {
				v.ArgsType = &ext
				argsName = wireName(v.GoName)
			}
			v.Args = b.typeOf(spec.InputSchema, argsName, nil)
			if v.Args.Kind != Struct {
				// Arguments are a struct; a root the reference validator
				// would have to hold whole (an enum or const on the object)
				// has no Go struct form.
				b.fail(spec.Key(), "inputSchema", nil, "the root of an input schema must be a plain object: type object, without enum or const")
			}
			if spec.OutputSchema != nil {
				b.field = "outputSchema"
				v.Output = b.typeOf(spec.OutputSchema, v.GoName+"Output", nil)
				if v.Output.Kind != Struct {
					b.fail(spec.Key(), "outputSchema", nil, "the root of an output schema must be a plain object: type object, without enum or const")
				}
			}
			t.Versions = append(t.Versions, v)
		}
		pkg.Tools = append(pkg.Tools, t)
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return pkg, nil
}

type builder struct {
	key, field string
	errs       Errors
}

func (b *builder) fail(key, field string, path schema.Path, msg string) {
	b.errs = append(b.errs, &NameError{Key: key, Field: field, Path: slices.Clone(path), Msg: msg})
}

// typeOf chooses the Go representation of s; name is the Go name the node
// gets if it needs one.
func (b *builder) typeOf(s *schema.Schema, name string, path schema.Path) *Type {
	t := &Type{Schema: s, Doc: s.Description, Path: slices.Clone(path)}
	if t.Doc == "" {
		t.Doc = s.Title
	}
	if len(s.Types) != 1 {
		t.Kind = Any
		return t
	}
	if (s.Types[0] == schema.KindObject || s.Types[0] == schema.KindArray) && (s.HasEnum || s.HasConst) {
		// Whole-value equality on a container: the reference validator
		// holds the value and compares it.
		t.Kind = Any
		return t
	}
	switch s.Types[0] {
	case schema.KindObject:
		t.Kind, t.Name = Struct, name
		goNames := map[string]string{}
		for i, prop := range s.PropertyNames {
			f := &Field{JSONName: prop, GoName: GoName(prop), Index: i, Required: slices.Contains(s.Required, prop)}
			propPath := append(slices.Clone(path), "properties", prop)
			if other, dup := goNames[f.GoName]; dup {
				b.fail(b.key, b.field, propPath, fmt.Sprintf("properties %q and %q both become the Go field %s; rename one", other, prop, f.GoName))
				continue
			}
			goNames[f.GoName] = prop
			f.Type = b.typeOf(s.Properties[prop], name+f.GoName, propPath)
			t.Fields = append(t.Fields, f)
		}
	case schema.KindArray:
		t.Kind = Array
		if s.Items != nil {
			t.Elem = b.typeOf(s.Items, name+"Item", append(slices.Clone(path), "items"))
		} else {
			t.Elem = &Type{Kind: Any, Schema: &schema.Schema{}, Path: append(slices.Clone(path), "items")}
		}
		if s.UniqueItems && !t.Elem.Scalar() {
			// Uniqueness of objects and arrays is JSON-value equality,
			// which the reference validator decides.
			t.Kind, t.Elem = Any, nil
		}
	case schema.KindString:
		t.Kind = String
		if s.HasEnum && allStrings(s.Enum) {
			t.Name = name
		}
	case schema.KindInteger:
		t.Kind = Integer
	case schema.KindNumber:
		t.Kind = Number
	case schema.KindBoolean:
		t.Kind = Boolean
	default: // null
		t.Kind = Any
	}
	return t
}

// Scalar reports whether values of t are Go scalars (string, int64,
// float64, bool), comparable with ==.
func (t *Type) Scalar() bool {
	switch t.Kind {
	case String, Integer, Number, Boolean:
		return true
	}
	return false
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// enumWord is the Go word for an enum value: codes written in capitals stay
// as they are (AED, USD), anything else goes through GoName.
func enumWord(s string) string {
	if s == "" {
		return "Empty"
	}
	upper := true
	for i, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && i > 0) {
			upper = false
			break
		}
	}
	if upper {
		return s
	}
	return GoName(s)
}

// EnumConsts returns the typed constants of a string enum type:
// (Go name, value) in enum order. Values whose Go names collide get a
// numeric suffix, so every value has a constant.
func (t *Type) EnumConsts() [][2]string {
	if t.Kind != String || t.Name == "" {
		return nil
	}
	var out [][2]string
	used := map[string]bool{}
	for i, v := range t.Schema.Enum {
		s := v.(string)
		n := t.Name + enumWord(s)
		if used[n] {
			n = fmt.Sprintf("%s%d", n, i)
		}
		used[n] = true
		out = append(out, [2]string{n, s})
	}
	return out
}

// wireName is the unexported name of the wire form of a version whose
// arguments are a type the team wrote: "paymentsLookupV1_0_0Wire".
func wireName(goName string) string {
	r := []rune(goName)
	r[0] = unicode.ToLower(r[0])
	return string(r) + "Wire"
}
