package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The lint rules: a contract that JSON Schema accepts but that cannot mean
// what its author meant. Each is an error at the keyword's file:line:col,
// whether the version was written as a manifest or as Go structs (whose
// positions are the struct fields').
const (
	// LintTypeMismatch: a keyword on a type it cannot constrain
	// (minimum on a string): JSON Schema ignores it, so the bound the
	// author wrote is enforced on nothing.
	LintTypeMismatch = "keyword-type-mismatch"
	// LintBoundsUnsatisfiable: a lower bound above its upper bound
	// (minimum 20000, maximum 10000): no value is accepted.
	LintBoundsUnsatisfiable = "bounds-unsatisfiable"
	// LintEnumEmpty: an empty enum accepts no value.
	LintEnumEmpty = "enum-empty"
	// LintEnumType: an enum value of a type the schema does not declare
	// (7 in a string enum) can never be sent, and makes the Go field lose
	// its type.
	LintEnumType = "enum-type-mismatch"
	// LintConstOutsideEnum: a const the enum beside it refuses.
	LintConstOutsideEnum = "const-outside-enum"
	// LintDefaultInvalid: a default its own schema refuses.
	LintDefaultInvalid = "default-invalid"
	// LintExampleInvalid: an example its own schema refuses, shown to
	// the model as a value to copy.
	LintExampleInvalid = "example-invalid"
)

var lintHelp = map[string]string{
	LintTypeMismatch:        "A keyword constrains a type the schema does not allow, so it constrains nothing.",
	LintBoundsUnsatisfiable: "A lower bound is above its upper bound: no value is accepted.",
	LintEnumEmpty:           "An empty enum accepts no value.",
	LintEnumType:            "An enum value is of a type the schema does not declare.",
	LintConstOutsideEnum:    "A const is not among the values of the enum beside it.",
	LintDefaultInvalid:      "A default is refused by its own schema.",
	LintExampleInvalid:      "An example is refused by its own schema.",
}

// keywordTypes says which JSON types each type-specific keyword
// constrains (JSON Schema 2020-12 Validation §6.2-6.5).
var keywordTypes = map[string][]string{
	"minimum": {"number", "integer"}, "maximum": {"number", "integer"},
	"exclusiveMinimum": {"number", "integer"}, "exclusiveMaximum": {"number", "integer"},
	"multipleOf": {"number", "integer"},
	"minLength":  {"string"}, "maxLength": {"string"}, "pattern": {"string"},
	"minItems": {"array"}, "maxItems": {"array"}, "uniqueItems": {"array"},
	"items": {"array"}, "prefixItems": {"array"}, "contains": {"array"},
	"minContains": {"array"}, "maxContains": {"array"},
	"minProperties": {"object"}, "maxProperties": {"object"},
	"properties": {"object"}, "required": {"object"}, "patternProperties": {"object"},
	"additionalProperties": {"object"}, "propertyNames": {"object"},
	"dependentRequired": {"object"}, "dependentSchemas": {"object"},
}

// bounds are the pairs of a lower and an upper bound; strict when the two
// may not be equal either.
var bounds = []struct {
	lo, hi string
	strict bool
}{
	{"minimum", "maximum", false},
	{"exclusiveMinimum", "maximum", true},
	{"minimum", "exclusiveMaximum", true},
	{"exclusiveMinimum", "exclusiveMaximum", true},
	{"minLength", "maxLength", false},
	{"minItems", "maxItems", false},
	{"minProperties", "maxProperties", false},
	{"minContains", "maxContains", false},
}

// subschemaKeywords are the keywords whose value is a schema, a list of
// schemas, or a map of names to schemas: where Lint descends.
var (
	schemaValued = []string{"additionalProperties", "items", "contains", "not", "if", "then", "else",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// Lint checks the schemas of one version and returns a finding for each
// rule broken, at the keyword that breaks it.
func Lint(v *manifest.Version) []Finding {
	var out []Finding
	for _, side := range []struct {
		field string
		s     *schema.Schema
	}{{"inputSchema", v.InputSchema}, {"outputSchema", v.OutputSchema}} {
		if side.s == nil {
			continue
		}
		l := linter{v: v, field: side.field, root: side.s}
		l.walk(side.s.Document(), nil)
		out = append(out, l.out...)
	}
	return out
}

type linter struct {
	v     *manifest.Version
	field string
	root  *schema.Schema
	out   []Finding
}

func (l *linter) add(rule string, path []string, format string, args ...any) {
	l.out = append(l.out, Finding{Rule: rule, Level: Error, Tool: l.v.Key(),
		Path: l.field + "/" + strings.Join(path, "/"), Pos: l.v.Pos(l.field, path...), Message: fmt.Sprintf(format, args...)})
}

// at is path with more segments, in a new slice.
func at(path []string, more ...string) []string {
	return append(slices.Clip(path), more...)
}

// declaredTypes is the schema's type keyword as a list, nil when absent.
func declaredTypes(node map[string]any) []string {
	switch t := node["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// admits reports whether a value of kind k is of one of the types.
func admits(types []string, k schema.Kind) bool {
	for _, t := range types {
		switch {
		case t == k.String():
			return true
		case t == "number" && k == schema.KindInteger:
			return true
		}
	}
	return false
}

func (l *linter) walk(node map[string]any, path []string) {
	types := declaredTypes(node)
	if types != nil {
		for _, kw := range slices.Sorted(maps.Keys(node)) {
			want, ok := keywordTypes[kw]
			if !ok || slices.ContainsFunc(want, func(t string) bool { return slices.Contains(types, t) }) {
				continue
			}
			l.add(LintTypeMismatch, at(path, kw), "%s constrains %s values, and this schema's type is %s: it would constrain nothing",
				kw, strings.Join(want, " or "), strings.Join(types, " or "))
		}
	}
	for _, b := range bounds {
		lo, okLo := schema.NumberValue(node[b.lo])
		hi, okHi := schema.NumberValue(node[b.hi])
		if okLo && okHi && (lo > hi || b.strict && lo == hi) {
			l.add(LintBoundsUnsatisfiable, at(path, b.lo), "%s %v is not below %s %v: no value is accepted", b.lo, node[b.lo], b.hi, node[b.hi])
		}
	}
	enum, hasEnum := node["enum"].([]any)
	if hasEnum && len(enum) == 0 {
		l.add(LintEnumEmpty, at(path, "enum"), "the enum is empty: no value is accepted")
	}
	if types != nil {
		for i, e := range enum {
			if k := schema.KindOf(e); !admits(types, k) {
				l.add(LintEnumType, at(path, "enum", fmt.Sprint(i)), "enum value %s is of type %s, and this schema's type is %s: it can never be sent",
					show(e), k, strings.Join(types, " or "))
			}
		}
	}
	if c, ok := node["const"]; ok && hasEnum && !slices.ContainsFunc(enum, func(e any) bool { return schema.Equal(e, c) }) {
		l.add(LintConstOutsideEnum, at(path, "const"), "const %s is not one of the enum's values: no value is accepted", show(c))
	}
	l.values(node, path)
	for _, kw := range schemaValued {
		if sub, ok := node[kw].(map[string]any); ok {
			l.walk(sub, at(path, kw))
		}
	}
	for _, kw := range schemaLists {
		if list, ok := node[kw].([]any); ok {
			for i, x := range list {
				if sub, ok := x.(map[string]any); ok {
					l.walk(sub, at(path, kw, fmt.Sprint(i)))
				}
			}
		}
	}
	for _, kw := range schemaMaps {
		if m, ok := node[kw].(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(m)) {
				if sub, ok := m[name].(map[string]any); ok {
					l.walk(sub, at(path, kw, name))
				}
			}
		}
	}
}

// values checks default and examples against the schema they are written
// in, as the runtime validates a call: an annotation the contract refuses
// teaches a client (or a model) to send what will be refused.
func (l *linter) values(node map[string]any, path []string) {
	_, hasDefault := node["default"]
	examples, hasExamples := node["examples"].([]any)
	if !hasDefault && !hasExamples {
		return
	}
	ptr := ""
	for _, seg := range path {
		ptr += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(seg)
	}
	sub := l.root.Lookup(ptr)
	if sub == nil {
		return
	}
	if hasDefault {
		if errs := sub.Validate(node["default"]); len(errs) > 0 {
			l.add(LintDefaultInvalid, at(path, "default"), "default %s is refused by its own schema: %s", show(node["default"]), errs[0].String())
		}
	}
	for i, e := range examples {
		if errs := sub.Validate(e); len(errs) > 0 {
			l.add(LintExampleInvalid, at(path, "examples", fmt.Sprint(i)), "example %s is refused by its own schema: %s", show(e), errs[0].String())
		}
	}
}

// show renders a JSON value as a manifest writes it.
func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
