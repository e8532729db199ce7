package schema

import (
	"maps"
	"slices"
	"strings"
)

// Schema is one schema of a parsed contract: the root of a document or any
// subschema in it (a property's schema, an anyOf alternative, a $defs
// entry). A Schema is immutable once parsed: its state is unexported, and
// every accessor that returns a slice, a map or a JSON value returns a copy,
// so nothing a caller does with what it is handed can change what is
// enforced. It is safe for concurrent use.
//
// The zero Schema (and the schema `true` or `{}`) accepts every JSON value.
type Schema struct {
	doc   any  // the schema as written: map[string]any, or bool for a boolean schema
	loc   Path // where the schema is in its document
	never bool // the schema false: no value is valid

	types    []Kind
	enum     []any
	hasEnum  bool
	constVal any
	hasConst bool

	minimum, maximum                   *Bound
	exclusiveMinimum, exclusiveMaximum *Bound
	multipleOf                         *Bound
	format                             string
	formatAsserted                     bool

	minLength, maxLength *int
	pattern              *Pattern

	prefixItems      []*Schema
	items            *Schema
	contains         *Schema
	minContains      *int
	maxContains      *int
	minItems         *int
	maxItems         *int
	uniqueItems      bool
	unevaluatedItems *Schema

	properties            map[string]*Schema
	propertyOrder         []string // the declared names, sorted
	patternProperties     []*PatternSchema
	additionalProperties  *Schema
	propertyNames         *Schema
	required              []string
	minProperties         *int
	maxProperties         *int
	dependentRequired     map[string][]string
	dependentSchemas      map[string]*Schema
	unevaluatedProperties *Schema

	ref     *Schema // what $ref resolves to
	refText string  // $ref as written
	allOf   []*Schema
	anyOf   []*Schema
	oneOf   []*Schema
	not     *Schema
	ifS     *Schema
	thenS   *Schema
	elseS   *Schema
	defs    map[string]*Schema // $defs (and the older definitions), by name

	title, description     string
	defaultVal             any
	hasDefault             bool
	examples               []any
	deprecated, readOnly   bool
	writeOnly              bool
	secret                 bool
	anyOfUnion, oneOfUnion *Union
	content                *Schema   // contentSchema: an annotation, never applied
	index                  *docIndex // every schema of the document, by JSON pointer
}

// docIndex is shared by the schemas of one document.
type docIndex struct {
	nodes map[string]*Schema
	// secrets says a schema of the document is x-secret.
	secrets bool
}

// Bound is a numeric bound as written in the schema.
type Bound struct {
	Value float64
	// Text is the bound in canonical number form, as messages print it.
	Text string
	// lit is the literal as written, for exact decimal arithmetic
	// (multipleOf).
	lit string
}

// Literal is the bound's JSON number literal as written in the schema.
func (b *Bound) Literal() string {
	if b.lit == "" {
		return b.Text
	}
	return b.lit
}

// PatternSchema is one patternProperties entry: properties whose name the
// pattern matches must satisfy the schema.
type PatternSchema struct {
	Pattern *Pattern
	Schema  *Schema
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

// pointer is p as a JSON pointer, with "" for the document itself (the
// form of a $ref fragment).
func (p Path) pointer() string {
	if len(p) == 0 {
		return ""
	}
	return p.String()
}

// The accessors. Each returns what the schema states for one keyword; a
// nil pointer or an empty slice means the keyword is absent.

// Location is where s is in its document, as a path of JSON-pointer
// segments; a manifest loader turns it into a file:line:col.
func (s *Schema) Location() Path { return slices.Clone(s.loc) }

// IsFalse reports whether s is the schema false, which no value satisfies.
func (s *Schema) IsFalse() bool { return s != nil && s.never }

// IsTrue reports whether s states nothing at all: the schema true, {}, or
// a document of annotations only. Every value satisfies it.
func (s *Schema) IsTrue() bool {
	return s == nil || (!s.never && s.constraintCount() == 0)
}

// Types is the declared type or union, in declared order; empty means any
// type.
func (s *Schema) Types() []Kind { return slices.Clone(s.types) }

// Enum returns the allowed values and whether enum is present.
func (s *Schema) Enum() ([]any, bool) { return cloneValues(s.enum), s.hasEnum }

// Const returns the only allowed value and whether const is present.
func (s *Schema) Const() (any, bool) { return Clone(s.constVal), s.hasConst }

// Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum and MultipleOf are
// the numeric keywords.
func (s *Schema) Minimum() *Bound          { return cloneBound(s.minimum) }
func (s *Schema) Maximum() *Bound          { return cloneBound(s.maximum) }
func (s *Schema) ExclusiveMinimum() *Bound { return cloneBound(s.exclusiveMinimum) }
func (s *Schema) ExclusiveMaximum() *Bound { return cloneBound(s.exclusiveMaximum) }
func (s *Schema) MultipleOf() *Bound       { return cloneBound(s.multipleOf) }

// Format returns the format and whether it is asserted (a format listed in
// Options.AnnotationFormats is served but not asserted).
func (s *Schema) Format() (name string, asserted bool) { return s.format, s.formatAsserted }

// MinLength and MaxLength count Unicode code points.
func (s *Schema) MinLength() *int { return cloneInt(s.minLength) }
func (s *Schema) MaxLength() *int { return cloneInt(s.maxLength) }

// Pattern is the pattern, or nil.
func (s *Schema) Pattern() *Pattern { return s.pattern }

// PrefixItems are the schemas of the first elements of an array, in order.
func (s *Schema) PrefixItems() []*Schema { return slices.Clone(s.prefixItems) }

// Items is the schema of the elements after PrefixItems, or nil.
func (s *Schema) Items() *Schema { return s.items }

// Contains is the contains schema, or nil; MinContains and MaxContains
// bound how many elements must match it.
func (s *Schema) Contains() *Schema { return s.contains }
func (s *Schema) MinContains() *int { return cloneInt(s.minContains) }
func (s *Schema) MaxContains() *int { return cloneInt(s.maxContains) }

// MinItems, MaxItems and UniqueItems are the array keywords.
func (s *Schema) MinItems() *int    { return cloneInt(s.minItems) }
func (s *Schema) MaxItems() *int    { return cloneInt(s.maxItems) }
func (s *Schema) UniqueItems() bool { return s.uniqueItems }

// UnevaluatedItems is the unevaluatedItems schema, or nil.
func (s *Schema) UnevaluatedItems() *Schema { return s.unevaluatedItems }

// PropertyNames lists the declared properties, sorted.
func (s *Schema) PropertyNames() []string { return slices.Clone(s.propertyOrder) }

// Property is the schema of the declared property name, or nil.
func (s *Schema) Property(name string) *Schema { return s.properties[name] }

// PatternProperties are the patternProperties entries, sorted by pattern.
func (s *Schema) PatternProperties() []*PatternSchema { return slices.Clone(s.patternProperties) }

// AdditionalProperties is the schema of the properties neither declared
// nor matched by a pattern, or nil when unconstrained.
func (s *Schema) AdditionalProperties() *Schema { return s.additionalProperties }

// Closed reports whether additionalProperties is false.
func (s *Schema) Closed() bool { return s.additionalProperties.IsFalse() }

// PropertyNamesSchema is the propertyNames schema, or nil.
func (s *Schema) PropertyNamesSchema() *Schema { return s.propertyNames }

// Required lists the required properties, sorted, without duplicates.
func (s *Schema) Required() []string { return slices.Clone(s.required) }

// IsRequired reports whether name is in required.
func (s *Schema) IsRequired(name string) bool {
	_, found := slices.BinarySearch(s.required, name)
	return found
}

// MinProperties and MaxProperties bound the number of properties.
func (s *Schema) MinProperties() *int { return cloneInt(s.minProperties) }
func (s *Schema) MaxProperties() *int { return cloneInt(s.maxProperties) }

// DependentRequired maps a property to those that must be present with it.
func (s *Schema) DependentRequired() map[string][]string {
	out := make(map[string][]string, len(s.dependentRequired))
	for k, v := range s.dependentRequired {
		out[k] = slices.Clone(v)
	}
	return out
}

// DependentSchemas maps a property to the schema the whole object must
// satisfy when it is present.
func (s *Schema) DependentSchemas() map[string]*Schema { return maps.Clone(s.dependentSchemas) }

// UnevaluatedProperties is the unevaluatedProperties schema, or nil.
func (s *Schema) UnevaluatedProperties() *Schema { return s.unevaluatedProperties }

// Ref is the schema $ref resolves to, with $ref as written; nil without one.
func (s *Schema) Ref() (*Schema, string) { return s.ref, s.refText }

// AllOf, AnyOf and OneOf are the alternatives of the combinators.
func (s *Schema) AllOf() []*Schema { return slices.Clone(s.allOf) }
func (s *Schema) AnyOf() []*Schema { return slices.Clone(s.anyOf) }
func (s *Schema) OneOf() []*Schema { return slices.Clone(s.oneOf) }

// Not, If, Then and Else are the schemas of those keywords, or nil.
func (s *Schema) Not() *Schema  { return s.not }
func (s *Schema) If() *Schema   { return s.ifS }
func (s *Schema) Then() *Schema { return s.thenS }
func (s *Schema) Else() *Schema { return s.elseS }

// Defs are the $defs entries (and those of the older definitions), by name.
func (s *Schema) Defs() map[string]*Schema { return maps.Clone(s.defs) }

// Title and Description are the annotations of those names.
func (s *Schema) Title() string       { return s.title }
func (s *Schema) Description() string { return s.description }

// Default returns the default annotation and whether it is present.
func (s *Schema) Default() (any, bool) { return Clone(s.defaultVal), s.hasDefault }

// Examples returns the examples annotation.
func (s *Schema) Examples() []any { return cloneValues(s.examples) }

// Deprecated, ReadOnly and WriteOnly are the annotations of those names.
func (s *Schema) Deprecated() bool { return s.deprecated }
func (s *Schema) ReadOnly() bool   { return s.readOnly }
func (s *Schema) WriteOnly() bool  { return s.writeOnly }

// Secret reports x-secret: true, a value the call log redacts.
func (s *Schema) Secret() bool { return s.secret }

// HasSecrets reports whether any schema of s's document is x-secret: when
// none is, Redact returns every value as it is, and a value's text can be
// logged without being decoded.
func (s *Schema) HasSecrets() bool { return s != nil && s.index != nil && s.index.secrets }

// AnyOfUnion and OneOfUnion say how the alternatives of anyOf and oneOf are
// told apart (see Union); nil when the keyword is absent.
func (s *Schema) AnyOfUnion() *Union { return s.anyOfUnion.clone() }
func (s *Schema) OneOfUnion() *Union { return s.oneOfUnion.clone() }

// Document returns a copy of the schema as written (a JSON object; the
// schemas true and false as {} and {"not": {}}).
func (s *Schema) Document() map[string]any {
	switch d := s.doc.(type) {
	case map[string]any:
		return Clone(d).(map[string]any)
	case bool:
		if !d {
			return map[string]any{"not": map[string]any{}}
		}
	}
	return map[string]any{}
}

// Raw returns a copy of the schema as written: a map[string]any, or a bool
// for a boolean schema (the zero Schema is true).
func (s *Schema) Raw() any {
	if s.doc == nil {
		return true
	}
	return Clone(s.doc)
}

func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneBound(b *Bound) *Bound {
	if b == nil {
		return nil
	}
	c := *b
	return &c
}

func cloneValues(vs []any) []any {
	if vs == nil {
		return nil
	}
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = Clone(v)
	}
	return out
}

// constraintCount counts the keywords that constrain values (annotations
// and $defs do not).
func (s *Schema) constraintCount() int {
	n := len(s.types) + len(s.prefixItems) + len(s.properties) + len(s.patternProperties) +
		len(s.required) + len(s.dependentRequired) + len(s.dependentSchemas) +
		len(s.allOf) + len(s.anyOf) + len(s.oneOf)
	for _, p := range []*int{s.minLength, s.maxLength, s.minContains, s.maxContains, s.minItems, s.maxItems, s.minProperties, s.maxProperties} {
		if p != nil {
			n++
		}
	}
	for _, b := range []*Bound{s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum, s.multipleOf} {
		if b != nil {
			n++
		}
	}
	for _, c := range []*Schema{s.items, s.contains, s.unevaluatedItems, s.additionalProperties, s.propertyNames, s.unevaluatedProperties, s.ref, s.not, s.ifS} {
		if c != nil {
			n++
		}
	}
	if s.hasEnum || s.hasConst || s.uniqueItems || s.pattern != nil || s.formatAsserted {
		n++
	}
	return n
}
