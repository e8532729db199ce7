package schema

import (
	"fmt"
	"iter"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Options are what a caller decides when loading a schema. The zero value is
// the contract language as it is.
type Options struct {
	// AnnotationFormats lists format names that are served as written but
	// not asserted. A format that is neither asserted by the language nor
	// listed here is refused: a contract that says "format: phone" would
	// otherwise promise a check nobody makes.
	AnnotationFormats []string
}

// SchemaError is a schema that cannot be loaded: a keyword outside the
// language, a keyword with a value of the wrong shape, a $ref that leaves
// the document, or a pattern RE2 cannot compile. Path locates the offending
// keyword so a manifest loader can turn it into a file:line:col.
type SchemaError struct {
	Path    Path
	Message string
}

func (e *SchemaError) Error() string { return e.Path.String() + ": " + e.Message }

// SchemaErrors is every problem found in one schema, in a deterministic
// order (keywords sorted at each level, reference problems after them).
type SchemaErrors []*SchemaError

func (e SchemaErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// ParseJSON parses a schema from JSON text.
func ParseJSON(data []byte) (*Schema, error) { return ParseJSONWith(data, Options{}) }

// ParseJSONWith is ParseJSON with options.
func ParseJSONWith(data []byte, o Options) (*Schema, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	return ParseWith(v, o)
}

// MustParseJSON is ParseJSON for schemas known to be valid, such as those
// embedded in generated code. It panics on error.
func MustParseJSON(data string) *Schema { return MustParseJSONWith(data, Options{}) }

// MustParseJSONWith is MustParseJSON with options.
func MustParseJSONWith(data string, o Options) *Schema {
	s, err := ParseJSONWith([]byte(data), o)
	if err != nil {
		panic("schema: " + err.Error())
	}
	return s
}

// Parse builds a Schema from a decoded JSON document (see value.go). It
// reports every problem as SchemaErrors.
func Parse(doc any) (*Schema, error) { return ParseWith(doc, Options{}) }

// ParseWith is Parse with options.
func ParseWith(doc any, o Options) (*Schema, error) {
	p := &parser{
		opts:      o,
		nodes:     map[string]*Schema{},
		resources: map[string]*resource{},
	}
	root := p.build(doc, nil, defaultBase, nil)
	p.resolveRefs()
	if len(p.errs) == 0 {
		p.checkLoops()
	}
	if len(p.errs) == 0 {
		p.computeUnions()
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	index := &docIndex{nodes: p.nodes}
	for _, s := range p.nodes {
		s.index = index
		index.secrets = index.secrets || s.secret
	}
	return root, nil
}

// defaultBase is the base URI of a document without a root $id. It is never
// shown: a $ref is reported as written. It is hierarchical so that a
// relative $id inside such a document names a resource of its own.
const defaultBase = "https://contract.invalid/schema.json"

// Dialect is the $schema of the contract language, JSON Schema 2020-12.
const Dialect = "https://json-schema.org/draft/2020-12/schema"

type parser struct {
	opts      Options
	errs      SchemaErrors
	nodes     map[string]*Schema   // JSON pointer in the document → schema
	resources map[string]*resource // base URI → schema resource
	refs      []pendingRef
}

// resource is a schema resource: the document's root, or a subschema with
// an $id. A $ref's fragment is resolved inside the resource its URI names.
type resource struct {
	base    string
	root    *Schema
	anchors map[string]*Schema
}

type pendingRef struct {
	node *Schema
	text string
	base string
	path Path
}

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

// SupportedKeywords lists every keyword Parse accepts, sorted (besides
// vendor extensions, any keyword starting "x-", which are annotations).
var SupportedKeywords = []string{
	"$anchor", "$comment", "$defs", "$id", "$ref", "$schema",
	"additionalProperties", "allOf", "anyOf", "const", "contains", "contentEncoding",
	"contentMediaType", "contentSchema", "default", "definitions", "dependentRequired",
	"dependentSchemas", "deprecated", "description", "discriminator", "else", "enum", "examples",
	"exclusiveMaximum", "exclusiveMinimum", "format", "if", "items", "maxContains", "maxItems",
	"maxLength", "maxProperties", "maximum", "minContains", "minItems", "minLength",
	"minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern", "patternProperties",
	"prefixItems", "properties", "propertyNames", "readOnly", "required", "then", "title", "type",
	"unevaluatedItems", "unevaluatedProperties", "uniqueItems", "writeOnly", "x-secret",
}

// outsideLanguage names the keywords of JSON Schema (and its neighbours)
// that the language refuses, each with what to write instead.
var outsideLanguage = map[string]string{
	"$dynamicRef":      "dynamic references are outside the contract language; use $ref",
	"$dynamicAnchor":   "dynamic references are outside the contract language; use $anchor and $ref",
	"$recursiveRef":    "$recursiveRef is from draft 2019-09; use $ref",
	"$recursiveAnchor": "$recursiveAnchor is from draft 2019-09; use $anchor and $ref",
	"$vocabulary":      "custom meta-schemas are outside the contract language",
	"nullable":         `nullable is OpenAPI 3.0's; write type: [T, "null"] or anyOf: [{...}, {"type": "null"}]`,
	"dependencies":     "dependencies is from draft 7; use dependentRequired or dependentSchemas",
	"additionalItems":  "additionalItems is from draft 7; use prefixItems with items for the rest",
	"id":               "id is from draft 4; use $id",
}

// build makes the Schema for doc at path; base is the base URI in force and
// res the resource it belongs to (nil for the document's root).
func (p *parser) build(doc any, path Path, base string, res *resource) *Schema {
	s := &Schema{doc: doc, loc: slices.Clone(path)}
	p.nodes[path.pointer()] = s
	switch d := doc.(type) {
	case bool:
		s.never = !d
		if res == nil {
			p.newResource(base, s, path)
		}
		return s
	case map[string]any:
		p.object(s, d, path, base, res)
	default:
		p.fail(path, "a schema must be an object or a boolean, not %s", KindOf(doc))
		s.doc = map[string]any{}
	}
	return s
}

func (p *parser) newResource(base string, root *Schema, path Path) *resource {
	if _, dup := p.resources[base]; dup {
		p.fail(path, "$id %q names a schema resource twice in one document", base)
	}
	r := &resource{base: base, root: root, anchors: map[string]*Schema{}}
	p.resources[base] = r
	return r
}

func (p *parser) object(s *Schema, m map[string]any, path Path, base string, res *resource) {
	if id, ok := m["$id"]; ok {
		text, isString := id.(string)
		if !isString {
			p.fail(at(path, "$id"), "$id must be a string")
		} else if abs, frag, err := resolveURI(base, text); err != nil {
			p.fail(at(path, "$id"), "$id %q is not a URI reference: %v", text, err)
		} else if frag != "" {
			p.fail(at(path, "$id"), "$id %q must not have a fragment (name a location with $anchor)", text)
		} else {
			base = abs
			res = p.newResource(base, s, path)
		}
	}
	if res == nil {
		res = p.newResource(base, s, path)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, kp := m[k], at(path, k)
		switch k {
		case "$id":
			// Handled first: it sets the base of every other keyword.
		case "$schema":
			text, ok := v.(string)
			if !ok || (strings.TrimSuffix(text, "#") != Dialect) {
				p.fail(kp, "$schema %s is not JSON Schema 2020-12 (%s), the contract language; a schema written for another draft must be converted (items arrays become prefixItems, dependencies become dependentRequired or dependentSchemas, definitions becomes $defs) and its $schema removed or set to 2020-12", Repr(v), Dialect)
			}
		case "$anchor":
			name, ok := v.(string)
			if !ok || !anchorName.MatchString(name) {
				p.fail(kp, "$anchor must be a plain name (a letter or '_', then letters, digits, '-', '_', '.')")
				continue
			}
			if _, dup := res.anchors[name]; dup {
				p.fail(kp, "$anchor %q is declared twice in one schema resource", name)
				continue
			}
			res.anchors[name] = s
		case "$ref":
			text, ok := v.(string)
			if !ok {
				p.fail(kp, "$ref must be a string")
				continue
			}
			s.refText = text
			p.refs = append(p.refs, pendingRef{node: s, text: text, base: base, path: kp})
		case "$defs", "definitions":
			defs, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "%s must be an object of schemas", k)
				continue
			}
			if s.defs == nil {
				s.defs = map[string]*Schema{}
			}
			for _, name := range sortedKeys(defs) {
				if _, dup := s.defs[name]; dup {
					p.fail(at(kp, name), "%q is defined in both $defs and definitions", name)
				}
				s.defs[name] = p.build(defs[name], at(kp, name), base, res)
			}
		case "$comment", "title", "description", "contentEncoding", "contentMediaType":
			text := p.text(v, kp)
			switch k {
			case "title":
				s.title = text
			case "description":
				s.description = text
			}
		case "contentSchema":
			// An annotation about the decoded content: kept as written,
			// never applied.
			s.content = p.build(v, kp, base, res)
		case "type":
			s.types = p.types(v, kp)
		case "enum":
			arr, ok := v.([]any)
			if !ok {
				p.fail(kp, "enum must be an array")
				continue
			}
			s.enum, s.hasEnum = arr, true
		case "const":
			s.constVal, s.hasConst = v, true
		case "multipleOf":
			if b := p.bound(v, kp); b != nil {
				if b.Value <= 0 {
					p.fail(kp, "multipleOf must be greater than 0")
					continue
				}
				if _, ok := parseDecimal(b.lit); !ok {
					p.fail(kp, "multipleOf %s is beyond the exponents the language computes with", b.lit)
					continue
				}
				s.multipleOf = b
			}
		case "minimum":
			s.minimum = p.bound(v, kp)
		case "maximum":
			s.maximum = p.bound(v, kp)
		case "exclusiveMinimum":
			s.exclusiveMinimum = p.bound(v, kp)
		case "exclusiveMaximum":
			s.exclusiveMaximum = p.bound(v, kp)
		case "format":
			name, ok := v.(string)
			if !ok {
				p.fail(kp, "format must be a string")
				continue
			}
			s.format = name
			switch {
			case isAssertedFormat(name):
				s.formatAsserted = true
			case slices.Contains(p.opts.AnnotationFormats, name):
			default:
				p.fail(kp, "format %q is not one the contract language asserts (%s); to serve it as an annotation that is not checked, list it in the manifest's formatAnnotations", name, strings.Join(AssertedFormats(), ", "))
			}
		case "minLength":
			s.minLength = p.count(v, kp)
		case "maxLength":
			s.maxLength = p.count(v, kp)
		case "pattern":
			s.pattern = p.pattern(v, kp)
		case "prefixItems":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				p.fail(kp, "prefixItems must be a non-empty array of schemas")
				continue
			}
			for i, e := range arr {
				s.prefixItems = append(s.prefixItems, p.build(e, at(kp, fmt.Sprint(i)), base, res))
			}
		case "items":
			if _, isArray := v.([]any); isArray {
				p.fail(kp, "items must be a schema; the array form is from draft 7: use prefixItems for the first elements and items for the rest")
				continue
			}
			s.items = p.build(v, kp, base, res)
		case "contains":
			s.contains = p.build(v, kp, base, res)
		case "minContains":
			s.minContains = p.count(v, kp)
		case "maxContains":
			s.maxContains = p.count(v, kp)
		case "minItems":
			s.minItems = p.count(v, kp)
		case "maxItems":
			s.maxItems = p.count(v, kp)
		case "uniqueItems":
			s.uniqueItems = p.boolean(v, kp)
		case "unevaluatedItems":
			s.unevaluatedItems = p.build(v, kp, base, res)
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "properties must be an object of schemas")
				continue
			}
			s.properties = make(map[string]*Schema, len(props))
			s.propertyOrder = sortedKeys(props)
			for _, name := range s.propertyOrder {
				s.properties[name] = p.build(props[name], at(kp, name), base, res)
			}
		case "patternProperties":
			props, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "patternProperties must be an object of schemas")
				continue
			}
			for _, src := range sortedKeys(props) {
				pat := p.pattern(src, at(kp, src))
				sub := p.build(props[src], at(kp, src), base, res)
				if pat != nil {
					s.patternProperties = append(s.patternProperties, &PatternSchema{Pattern: pat, Schema: sub})
				}
			}
		case "additionalProperties":
			s.additionalProperties = p.build(v, kp, base, res)
		case "propertyNames":
			s.propertyNames = p.build(v, kp, base, res)
		case "required":
			names := p.strings(v, kp)
			sort.Strings(names)
			s.required = slices.Compact(names)
		case "minProperties":
			s.minProperties = p.count(v, kp)
		case "maxProperties":
			s.maxProperties = p.count(v, kp)
		case "dependentRequired":
			deps, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "dependentRequired must be an object of string arrays")
				continue
			}
			s.dependentRequired = map[string][]string{}
			for _, name := range sortedKeys(deps) {
				names := p.strings(deps[name], at(kp, name))
				sort.Strings(names)
				s.dependentRequired[name] = slices.Compact(names)
			}
		case "dependentSchemas":
			deps, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "dependentSchemas must be an object of schemas")
				continue
			}
			s.dependentSchemas = map[string]*Schema{}
			for _, name := range sortedKeys(deps) {
				s.dependentSchemas[name] = p.build(deps[name], at(kp, name), base, res)
			}
		case "unevaluatedProperties":
			s.unevaluatedProperties = p.build(v, kp, base, res)
		case "allOf", "anyOf", "oneOf":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				p.fail(kp, "%s must be a non-empty array of schemas", k)
				continue
			}
			list := make([]*Schema, len(arr))
			for i, e := range arr {
				list[i] = p.build(e, at(kp, fmt.Sprint(i)), base, res)
			}
			switch k {
			case "allOf":
				s.allOf = list
			case "anyOf":
				s.anyOf = list
			default:
				s.oneOf = list
			}
		case "not":
			s.not = p.build(v, kp, base, res)
		case "if":
			s.ifS = p.build(v, kp, base, res)
		case "then":
			s.thenS = p.build(v, kp, base, res)
		case "else":
			s.elseS = p.build(v, kp, base, res)
		case "default":
			s.defaultVal, s.hasDefault = v, true
		case "examples":
			arr, ok := v.([]any)
			if !ok {
				p.fail(kp, "examples must be an array")
				continue
			}
			s.examples = arr
		case "deprecated":
			s.deprecated = p.boolean(v, kp)
		case "readOnly":
			s.readOnly = p.boolean(v, kp)
		case "writeOnly":
			s.writeOnly = p.boolean(v, kp)
		case "x-secret":
			s.secret = p.boolean(v, kp)
		case "discriminator":
			// OpenAPI's hint for a oneOf told apart by a property; checked
			// against the alternatives once references are resolved.
			if _, ok := v.(map[string]any); !ok {
				p.fail(kp, "discriminator must be an object")
			}
		default:
			if strings.HasPrefix(k, "x-") {
				continue // a vendor extension: an annotation, served as written
			}
			if hint, ok := outsideLanguage[k]; ok {
				p.fail(kp, "keyword %q is outside the contract language: %s", k, hint)
				continue
			}
			p.fail(kp, "unknown keyword %q: a constraint the validator does not enforce would be a hole in the contract (the language is JSON Schema 2020-12; vendor annotations start with \"x-\")", k)
		}
	}
	for _, kw := range []string{"const", "default", "enum", "examples"} {
		if v, ok := m[kw]; ok {
			// The hash must be computable for every parsed schema: a value
			// canonical JSON refuses (not JSON, a number beyond a double)
			// is refused here, at load.
			if _, err := CanonicalJSON(v); err != nil {
				p.fail(at(path, kw), "%s holds a value that cannot be hashed: %v", kw, err)
			}
		}
	}
}

var anchorName = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
	f, ok := NumberValue(v)
	if (k != KindInteger && k != KindNumber) || !ok {
		p.fail(path, "%s must be a number", path[len(path)-1])
		return nil
	}
	lit, _ := numberText(v)
	return &Bound{Value: f, Text: FormatNumber(f), lit: lit}
}

// count reads a non-negative integer keyword. JSON Schema counts 2.0 as the
// integer 2 here, as everywhere in a schema's own keywords.
func (p *parser) count(v any, path Path) *int {
	if k := KindOf(v); k == KindInteger || k == KindNumber {
		if text, ok := numberText(v); ok {
			if lit, ok := integerLiteral(text); ok {
				var n int64
				if _, err := fmt.Sscan(lit, &n); err == nil && n >= 0 && n < 1<<31 {
					c := int(n)
					return &c
				}
			}
		}
	}
	p.fail(path, "%s must be a non-negative integer", path[len(path)-1])
	return nil
}

func (p *parser) pattern(v any, path Path) *Pattern {
	src, ok := v.(string)
	if !ok {
		p.fail(path, "pattern must be a string")
		return nil
	}
	pat, err := CompilePattern(src)
	if err != nil {
		p.fail(path, "%v", err)
		return nil
	}
	return pat
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

// resolveRefs points every $ref at its schema. A reference that leaves the
// document is refused: a contract is one self-contained document, and a
// validator that fetched schemas would make the contract depend on what a
// server answers at run time.
func (p *parser) resolveRefs() {
	for _, r := range p.refs {
		target, msg := p.lookup(r.base, r.text)
		if target == nil {
			p.fail(r.path, "$ref %q %s", r.text, msg)
			continue
		}
		r.node.ref = target
	}
}

func (p *parser) lookup(base, ref string) (*Schema, string) {
	doc, frag, err := resolveURI(base, ref)
	if err != nil {
		return nil, "is not a URI reference: " + err.Error()
	}
	res := p.resources[doc]
	if res == nil {
		return nil, "leaves this document (remote references are outside the contract language: a contract is one self-contained document; put the schema under $defs and write \"#/$defs/name\")"
	}
	if frag == "" {
		return res.root, ""
	}
	if !strings.HasPrefix(frag, "/") {
		if s := res.anchors[frag]; s != nil {
			return s, ""
		}
		return nil, fmt.Sprintf("names an anchor %q that is not declared in its schema resource", frag)
	}
	var path Path
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		path = append(path, seg)
	}
	full := append(slices.Clone(res.root.loc), path...)
	if s := p.nodes[full.pointer()]; s != nil {
		return s, ""
	}
	return nil, "does not point at a schema in this document"
}

// resolveURI resolves ref against base and splits the result into the
// document URI and the fragment, percent-decoded. Absolute URIs that are not
// hierarchical (urn:...) are compared as written.
func resolveURI(base, ref string) (doc, frag string, err error) {
	refDoc, rawFrag, _ := strings.Cut(ref, "#")
	if rawFrag != "" {
		if frag, err = url.PathUnescape(rawFrag); err != nil {
			return "", "", err
		}
	}
	switch {
	case refDoc == "":
		return base, frag, nil
	case hasScheme(refDoc):
		u, err := url.Parse(refDoc)
		if err != nil {
			return "", "", err
		}
		if u.Opaque != "" {
			return refDoc, frag, nil
		}
		return u.String(), frag, nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	r, err := url.Parse(refDoc)
	if err != nil {
		return "", "", err
	}
	if b.Opaque != "" {
		// A relative reference against a URN names nothing resolvable.
		return "relative:" + refDoc, frag, nil
	}
	return b.ResolveReference(r).String(), frag, nil
}

func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// inPlace yields the subschemas of s that apply to the same value s does:
// evaluating s evaluates them without descending into the value. It
// allocates nothing for a schema without dependentSchemas: the call log's
// redaction asks it for every member and element it walks.
func (s *Schema) inPlace() iter.Seq[*Schema] {
	return func(yield func(*Schema) bool) {
		if s.ref != nil && !yield(s.ref) {
			return
		}
		for _, list := range [...][]*Schema{s.allOf, s.anyOf, s.oneOf} {
			for _, c := range list {
				if !yield(c) {
					return
				}
			}
		}
		for _, c := range [...]*Schema{s.not, s.ifS, s.thenS, s.elseS} {
			if c != nil && !yield(c) {
				return
			}
		}
		if len(s.dependentSchemas) > 0 {
			for _, name := range sortedKeys(s.dependentSchemas) {
				if !yield(s.dependentSchemas[name]) {
					return
				}
			}
		}
	}
}

// checkLoops refuses a schema that reaches itself through applicators that
// stay on the same value ($ref, allOf, ...): validating any value against
// it would never end. A recursive schema that descends first (a tree whose
// children are trees) is fine.
func (p *parser) checkLoops() {
	const (
		unseen = iota
		active
		done
	)
	state := map[*Schema]int{}
	reported := false
	var visit func(s *Schema)
	visit = func(s *Schema) {
		switch state[s] {
		case active:
			if !reported {
				p.fail(s.loc, "this schema applies to itself without descending into the value (through $ref and the in-place applicators): validating anything against it would never end")
				reported = true
			}
			return
		case done:
			return
		}
		state[s] = active
		for c := range s.inPlace() {
			visit(c)
		}
		state[s] = done
	}
	for _, ptr := range sortedKeys(p.nodes) {
		visit(p.nodes[ptr])
	}
}
