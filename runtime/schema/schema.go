// Package schema implements the contract language, JSON Schema 2020-12 as
// tool contracts use it: a typed model parsed once, a reference validator
// that reports every error sorted by (path, message), repair of
// syntax-level mistakes, the canonical JSON form and schema hash, and the
// change classifier that decides whether a new contract still accepts
// everything the old one accepted.
//
// Generated validators, the registry's publish guard, the generator's
// breaking-change gate and the client's drift check all import this package;
// none of them has its own copy of a rule that is here.
//
// # The language
//
// A contract is one self-contained document. In it, every keyword of draft
// 2020-12 that constrains or describes a value:
//
//   - references: $defs (and the older definitions), $ref to a JSON
//     pointer, an $anchor or an $id of the same document, recursion
//     included; $id sets the base URI of a subschema;
//   - combinators: allOf, anyOf, oneOf, not, if/then/else,
//     dependentSchemas; boolean schemas (true, false) wherever a schema
//     may stand;
//   - any value: type (a name or a list, "null" included), enum, const
//     (compared as JSON values: 1 equals 1.0, objects regardless of key
//     order);
//   - numbers: minimum, maximum, exclusiveMinimum, exclusiveMaximum,
//     multipleOf (exact decimal arithmetic), and format int32, int64,
//     float, double;
//   - strings: minLength and maxLength (in code points), pattern (Go's
//     RE2, unanchored), format as an assertion (see AssertedFormats);
//   - arrays: prefixItems, items, contains, minContains, maxContains,
//     minItems, maxItems, uniqueItems, unevaluatedItems;
//   - objects: properties, patternProperties, additionalProperties,
//     propertyNames, required, minProperties, maxProperties,
//     dependentRequired, unevaluatedProperties;
//   - annotations, kept and served as written: title, description, default,
//     examples, deprecated, readOnly, writeOnly, contentEncoding,
//     contentMediaType, contentSchema, $comment, $schema (2020-12 only),
//     vendor keywords starting "x-", OpenAPI's discriminator where it
//     agrees with the schema, and x-secret (a value the call log redacts).
//
// Outside the language, and refused by Parse with the keyword's path and
// what to write instead: a $ref to another document (a contract does not
// depend on what a server answers at run time), $dynamicRef and
// $dynamicAnchor, $vocabulary and custom meta-schemas, the keywords of
// older drafts (items as an array, additionalItems, dependencies), any
// other keyword, a format the language does not assert (unless the caller
// lists it as an annotation, see Options), and a pattern RE2 cannot compile.
// A constraint that is not enforced is a hole in the contract.
package schema

import (
	"slices"
	"strings"
)

// Public returns the schema as it is shown to clients: the document with
// every x-secret marker removed (the marker is for the call log, not for the
// model). Only the keyword is removed, at every schema position; a property
// that happens to be named "x-secret", or such a key inside a const or an
// enum value, is content and stays. It is a fresh copy.
func (s *Schema) Public() map[string]any {
	switch v := s.public().(type) {
	case map[string]any:
		return v
	case bool:
		if !v {
			return map[string]any{"not": map[string]any{}}
		}
	}
	return map[string]any{}
}

// PublicRaw is Public keeping a boolean schema boolean.
func (s *Schema) PublicRaw() any { return s.public() }

func (s *Schema) public() any {
	m, ok := s.doc.(map[string]any)
	if !ok {
		if s.doc == nil {
			return map[string]any{}
		}
		return s.doc
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != "x-secret" {
			out[k] = Clone(v)
		}
	}
	s.each(func(kw, key string, sub *Schema) {
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			out[kw].(map[string]any)[key] = sub.public()
		case "allOf", "anyOf", "oneOf", "prefixItems":
			out[kw].([]any)[atoi(key)] = sub.public()
		default:
			out[kw] = sub.public()
		}
	})
	return out
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// each calls fn for every subschema s holds directly, in a fixed order,
// with its keyword and, inside a keyword that holds several, its name or
// index.
func (s *Schema) each(fn func(kw, key string, sub *Schema)) {
	maps := []struct {
		kw string
		m  map[string]*Schema
	}{
		{"properties", s.properties},
		{"dependentSchemas", s.dependentSchemas},
	}
	for _, m := range maps {
		for _, name := range sortedKeys(m.m) {
			fn(m.kw, name, m.m[name])
		}
	}
	for _, p := range s.patternProperties {
		fn("patternProperties", p.Pattern.Source, p.Schema)
	}
	if doc, ok := s.doc.(map[string]any); ok {
		for _, kw := range []string{"$defs", "definitions"} {
			if defs, ok := doc[kw].(map[string]any); ok {
				for _, name := range sortedKeys(defs) {
					fn(kw, name, s.defs[name])
				}
			}
		}
	}
	lists := []struct {
		kw   string
		list []*Schema
	}{
		{"allOf", s.allOf}, {"anyOf", s.anyOf}, {"oneOf", s.oneOf}, {"prefixItems", s.prefixItems},
	}
	for _, l := range lists {
		for i, sub := range l.list {
			fn(l.kw, itoa(i), sub)
		}
	}
	singles := []struct {
		kw  string
		sub *Schema
	}{
		{"additionalProperties", s.additionalProperties}, {"contains", s.contains},
		{"contentSchema", s.content}, {"else", s.elseS}, {"if", s.ifS}, {"items", s.items},
		{"not", s.not}, {"propertyNames", s.propertyNames}, {"then", s.thenS},
		{"unevaluatedItems", s.unevaluatedItems}, {"unevaluatedProperties", s.unevaluatedProperties},
	}
	for _, one := range singles {
		if one.sub != nil {
			fn(one.kw, "", one.sub)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}

// Hash is the schema hash of the public form (see [Schema.Public]): what a
// client sees in tools/list is what it pins. Marking a property x-secret
// changes what the log shows, not the contract.
func (s *Schema) Hash() string {
	h, err := HashValue(s.public())
	if err != nil {
		// Parse accepted only JSON values, so this is unreachable for a
		// parsed schema; the zero Schema hashes as {}.
		panic("schema: " + err.Error())
	}
	return h
}

// Lookup returns the schema at the JSON pointer ptr of s's document ("" is
// the document's root, "/properties/a" a property's schema), or nil.
// Generated code reaches the parts of a schema it hands to the reference
// validator with it.
func (s *Schema) Lookup(ptr string) *Schema {
	if s.index == nil {
		if ptr == "" {
			return s
		}
		return nil
	}
	return s.index.nodes[ptr]
}

// Pointers lists the JSON pointer of every schema of s's document, sorted
// ("" is the root): with Lookup, a walk over all of them.
func (s *Schema) Pointers() []string {
	if s.index == nil {
		return []string{""}
	}
	return sortedKeys(s.index.nodes)
}

// AnnotationFormats lists the formats s's document serves without
// asserting them (see Options.AnnotationFormats), sorted: what a copy of
// the document must be parsed with to be the same contract.
func (s *Schema) AnnotationFormats() []string {
	var out []string
	for _, ptr := range s.Pointers() {
		if x := s.Lookup(ptr); x != nil && x.format != "" && !x.formatAsserted && !slices.Contains(out, x.format) {
			out = append(out, x.format)
		}
	}
	slices.Sort(out)
	return out
}

// IsAnnotation reports whether a keyword only describes a value and never
// decides whether it is valid: title, description, default, examples,
// deprecated, readOnly, writeOnly, contentEncoding, contentMediaType,
// $comment, and vendor keywords (x-...).
func IsAnnotation(keyword string) bool {
	switch keyword {
	case "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
		"contentEncoding", "contentMediaType", "$comment":
		return true
	}
	return strings.HasPrefix(keyword, "x-")
}
