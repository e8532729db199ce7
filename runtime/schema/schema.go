// Package schema implements the JSON Schema subset that tool contracts are
// written in: a typed model parsed once, a reference validator that reports
// every error sorted by (path, message), repair of syntax-level mistakes, the
// canonical JSON form and schema hash, and the change classifier that decides
// whether a new contract still accepts everything the old one accepted.
//
// Generated validators, the registry's publish guard, the generator's
// breaking-change gate and the client's drift check all import this package;
// none of them has its own copy of a rule that is here.
//
// # The subset
//
// Constraints: type (a name or a union), enum, const, required, properties,
// additionalProperties (false or a schema), items, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength and maxLength (in code
// points), pattern (Go RE2, unanchored like Python's re.search), minItems,
// maxItems, uniqueItems. Annotations: title, description, examples, default,
// $schema, $comment, and x-secret (a property whose value the call log
// redacts). Any other keyword is refused by [Parse], with its path: a
// constraint that is not enforced is a hole in the contract.
package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Schema is a parsed schema of the supported subset. The zero value accepts
// every JSON value. A Schema is immutable after Parse and safe for concurrent
// use.
type Schema struct {
	// Types is the declared type or union, in declared order; empty means
	// any type.
	Types []Kind

	// Enum holds the allowed values when HasEnum is set.
	Enum    []any
	HasEnum bool
	// Const holds the only allowed value when HasConst is set.
	Const    any
	HasConst bool

	// Properties maps each declared property to its schema;
	// PropertyNames lists them sorted.
	Properties    map[string]*Schema
	PropertyNames []string
	// Required lists the required properties, sorted and without
	// duplicates. Every required name is a declared property.
	Required []string
	// Closed is additionalProperties: false.
	Closed bool
	// AdditionalProperties is the schema of undeclared properties when
	// additionalProperties is a schema; nil when they are unconstrained or
	// forbidden (see Closed).
	AdditionalProperties *Schema

	// Items is the schema of every array element, or nil.
	Items *Schema

	Minimum, Maximum                   *Bound
	ExclusiveMinimum, ExclusiveMaximum *Bound

	MinLength, MaxLength *int // in Unicode code points
	MinItems, MaxItems   *int

	// Pattern is the source of the regular expression and Regexp its
	// compiled form; Pattern is empty when there is none.
	Pattern string
	Regexp  *regexp.Regexp

	UniqueItems bool

	Title       string
	Description string
	Examples    []any
	Default     any
	HasDefault  bool
	// Secret marks a value the call log must redact (x-secret: true).
	Secret bool

	doc map[string]any // the document as written, for hashing and listing
}

// Bound is a numeric bound as written in the schema.
type Bound struct {
	Value float64
	// Text is the bound in canonical number form, as messages print it.
	Text string
}

// Path is a location inside a schema document, one JSON-pointer segment per
// element: ["properties", "reference", "pattern"].
type Path []string

// String renders p as a JSON pointer ("/properties/reference/pattern").
func (p Path) String() string {
	if len(p) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, s := range p {
		b.WriteByte('/')
		s = strings.ReplaceAll(s, "~", "~0")
		b.WriteString(strings.ReplaceAll(s, "/", "~1"))
	}
	return b.String()
}

// SchemaError is a schema that cannot be loaded: an unsupported keyword, a
// keyword with a value of the wrong shape, or a pattern RE2 cannot compile.
// Path locates the offending keyword so a manifest loader can turn it into
// a file:line:col.
type SchemaError struct {
	Path    Path
	Message string
}

func (e *SchemaError) Error() string { return e.Path.String() + ": " + e.Message }

// SchemaErrors is every problem found in one schema, in a deterministic
// order (keywords sorted at each level, cross-keyword checks after them).
type SchemaErrors []*SchemaError

func (e SchemaErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// ParseJSON parses a schema from JSON text.
func ParseJSON(data []byte) (*Schema, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	return Parse(v)
}

// MustParseJSON is ParseJSON for schemas known to be valid, such as those
// embedded in generated code. It panics on error.
func MustParseJSON(data string) *Schema {
	s, err := ParseJSON([]byte(data))
	if err != nil {
		panic("schema: " + err.Error())
	}
	return s
}

// Parse builds a Schema from a decoded JSON document (see value.go). It
// reports every problem as SchemaErrors.
func Parse(doc any) (*Schema, error) {
	p := parser{}
	s := p.schema(doc, nil)
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return s, nil
}

type parser struct{ errs SchemaErrors }

func (p *parser) fail(path Path, format string, args ...any) {
	p.errs = append(p.errs, &SchemaError{Path: slices.Clone(path), Message: fmt.Sprintf(format, args...)})
}

func at(path Path, seg ...string) Path {
	out := make(Path, 0, len(path)+len(seg))
	return append(append(out, path...), seg...)
}

var typeNames = map[string]Kind{
	"null": KindNull, "boolean": KindBoolean, "integer": KindInteger, "number": KindNumber,
	"string": KindString, "array": KindArray, "object": KindObject,
}

// SupportedKeywords lists every keyword Parse accepts, sorted.
var SupportedKeywords = []string{
	"$comment", "$schema", "additionalProperties", "const", "default", "description", "enum",
	"examples", "exclusiveMaximum", "exclusiveMinimum", "items", "maxItems", "maxLength",
	"maximum", "minItems", "minLength", "minimum", "pattern", "properties", "required",
	"title", "type", "uniqueItems", "x-secret",
}

func (p *parser) schema(doc any, path Path) *Schema {
	m, ok := doc.(map[string]any)
	if !ok {
		p.fail(path, "a schema must be an object, not %s", KindOf(doc))
		return &Schema{}
	}
	s := &Schema{doc: m}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, kp := m[k], at(path, k)
		switch k {
		case "type":
			s.Types = p.types(v, kp)
		case "enum":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				p.fail(kp, "enum must be a non-empty array")
				continue
			}
			s.Enum, s.HasEnum = arr, true
		case "const":
			s.Const, s.HasConst = v, true
		case "required":
			s.Required = p.strings(v, kp)
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "properties must be an object")
				continue
			}
			s.Properties = make(map[string]*Schema, len(props))
			for name := range props {
				s.PropertyNames = append(s.PropertyNames, name)
			}
			sort.Strings(s.PropertyNames)
			for _, name := range s.PropertyNames {
				s.Properties[name] = p.schema(props[name], at(kp, name))
			}
		case "additionalProperties":
			switch v := v.(type) {
			case bool:
				s.Closed = !v
			case map[string]any:
				s.AdditionalProperties = p.schema(v, kp)
			default:
				p.fail(kp, "additionalProperties must be a boolean or a schema")
			}
		case "items":
			if _, ok := v.(map[string]any); !ok {
				p.fail(kp, "items must be a schema (the array form is not supported)")
				continue
			}
			s.Items = p.schema(v, kp)
		case "minimum":
			s.Minimum = p.bound(v, kp)
		case "maximum":
			s.Maximum = p.bound(v, kp)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = p.bound(v, kp)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = p.bound(v, kp)
		case "minLength":
			s.MinLength = p.count(v, kp)
		case "maxLength":
			s.MaxLength = p.count(v, kp)
		case "minItems":
			s.MinItems = p.count(v, kp)
		case "maxItems":
			s.MaxItems = p.count(v, kp)
		case "pattern":
			src, ok := v.(string)
			if !ok {
				p.fail(kp, "pattern must be a string")
				continue
			}
			re, err := regexp.Compile(src)
			if err != nil {
				p.fail(kp, "pattern %q does not compile with Go's regexp (RE2): %v", src, err)
				continue
			}
			s.Pattern, s.Regexp = src, re
		case "uniqueItems":
			s.UniqueItems = p.boolean(v, kp)
		case "x-secret":
			s.Secret = p.boolean(v, kp)
		case "title":
			s.Title = p.text(v, kp)
		case "description":
			s.Description = p.text(v, kp)
		case "$comment", "$schema":
			p.text(v, kp)
		case "examples":
			arr, ok := v.([]any)
			if !ok {
				p.fail(kp, "examples must be an array")
				continue
			}
			s.Examples = arr
		case "default":
			s.Default, s.HasDefault = v, true
		default:
			p.fail(kp, "unsupported keyword %q (supported: %s)", k, strings.Join(SupportedKeywords, ", "))
		}
	}
	if len(s.Required) > 0 {
		sort.Strings(s.Required)
		s.Required = slices.Compact(s.Required)
		for _, name := range s.Required {
			if _, ok := s.Properties[name]; !ok {
				p.fail(at(path, "required"), "required property %q is not declared in properties", name)
			}
		}
	}
	for _, kw := range []string{"const", "default", "enum", "examples"} {
		if v, ok := m[kw]; ok {
			// The hash must be computable for every parsed schema: a
			// value canonical JSON refuses (not JSON, a number beyond a
			// double) is refused here, at load.
			if _, err := CanonicalJSON(v); err != nil {
				p.fail(at(path, kw), "%s holds a value that cannot be hashed: %v", kw, err)
			}
		}
	}
	return s
}

func (p *parser) types(v any, path Path) []Kind {
	var names []string
	switch v := v.(type) {
	case string:
		names = []string{v}
	case []any:
		if len(v) == 0 {
			p.fail(path, "type must not be an empty array")
			return nil
		}
		for _, e := range v {
			name, ok := e.(string)
			if !ok {
				p.fail(path, "type must be a string or an array of strings")
				return nil
			}
			names = append(names, name)
		}
	default:
		p.fail(path, "type must be a string or an array of strings")
		return nil
	}
	kinds := make([]Kind, 0, len(names))
	for _, name := range names {
		k, ok := typeNames[name]
		if !ok {
			p.fail(path, "unknown type %q", name)
			continue
		}
		if slices.Contains(kinds, k) {
			p.fail(path, "type %q is listed twice", name)
			continue
		}
		kinds = append(kinds, k)
	}
	return kinds
}

func (p *parser) strings(v any, path Path) []string {
	arr, ok := v.([]any)
	if !ok {
		p.fail(path, "must be an array of strings")
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			p.fail(path, "must be an array of strings")
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) bound(v any, path Path) *Bound {
	k := KindOf(v)
	if k != KindInteger && k != KindNumber {
		p.fail(path, "%s must be a number", path[len(path)-1])
		return nil
	}
	f, ok := NumberValue(v)
	if !ok {
		p.fail(path, "%s must be a number", path[len(path)-1])
		return nil
	}
	return &Bound{Value: f, Text: FormatNumber(f)}
}

func (p *parser) count(v any, path Path) *int {
	if KindOf(v) == KindInteger {
		if n, ok := exactInt(normalizeInt(v)); ok && n >= 0 && n < 1<<31 {
			c := int(n)
			return &c
		}
	}
	p.fail(path, "%s must be a non-negative integer", path[len(path)-1])
	return nil
}

func normalizeInt(v any) any {
	if f, ok := v.(float64); ok {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return v
}

func (p *parser) boolean(v any, path Path) bool {
	b, ok := v.(bool)
	if !ok {
		p.fail(path, "%s must be a boolean", path[len(path)-1])
	}
	return b
}

func (p *parser) text(v any, path Path) string {
	s, ok := v.(string)
	if !ok {
		p.fail(path, "%s must be a string", path[len(path)-1])
	}
	return s
}

// Document returns the schema as written (a JSON object). The caller must
// not modify it.
func (s *Schema) Document() map[string]any {
	if s.doc == nil {
		return map[string]any{}
	}
	return s.doc
}

// Public returns the schema as it is shown to clients: the document with
// every x-secret marker removed (the marker is for the call log, not for the
// model). Only the keyword is removed, at every schema position; a property
// that happens to be named "x-secret", or such a key inside a const or an
// enum value, is content and stays. It is a fresh copy.
func (s *Schema) Public() map[string]any {
	doc := s.Document()
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		switch k {
		case "x-secret":
			continue
		case "properties":
			props := make(map[string]any, len(s.Properties))
			for name, sub := range s.Properties {
				props[name] = sub.Public()
			}
			v = props
		case "items":
			if s.Items != nil {
				v = s.Items.Public()
			}
		case "additionalProperties":
			if s.AdditionalProperties != nil {
				v = s.AdditionalProperties.Public()
			}
		}
		out[k] = v
	}
	return out
}

// Hash is the schema hash of the public form (see [Schema.Public]): what a
// client sees in tools/list is what it pins. Marking a property x-secret
// changes what the log shows, not the contract.
func (s *Schema) Hash() string {
	h, err := HashValue(s.Public())
	if err != nil {
		// Parse accepted only JSON values, so this is unreachable for a
		// parsed schema; the zero Schema hashes as {}.
		panic("schema: " + err.Error())
	}
	return h
}

// Allows reports whether the type constraint admits a value of kind k
// (an integer is a number).
func (s *Schema) Allows(k Kind) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, t := range s.Types {
		if t == k || (t == KindNumber && k == KindInteger) {
			return true
		}
	}
	return false
}

// At returns the sub-schema at path (segments as in SchemaError paths:
// "properties", name, "items", "additionalProperties"), or nil when there
// is none. Generated code uses it to reach the parts of a schema it hands
// to the reference validator.
func (s *Schema) At(path ...string) *Schema {
	for i := 0; s != nil && i < len(path); i++ {
		switch path[i] {
		case "properties":
			if i+1 >= len(path) {
				return nil
			}
			s = s.Properties[path[i+1]]
			i++
		case "items":
			s = s.Items
		case "additionalProperties":
			s = s.AdditionalProperties
		default:
			return nil
		}
	}
	return s
}
