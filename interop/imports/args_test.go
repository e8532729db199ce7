package imports

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The arguments of a round trip are derived from the tool's published
// input schema, so that a tool nobody here wrote gets a call without
// anyone writing it by hand: a valid object (validArgs) and one that
// breaks the schema in one place (invalidArgs). Both are checked with the
// reference validator before they are sent, so a gap of this generator
// fails the test as such rather than as a disagreement of the servers.

// formatExamples are values of each asserted string format. A uri is a
// data: URI: a server that fetches what it is given (server-everything's
// gzip tool does) then reads it from the call itself, never the network.
var formatExamples = map[string]string{
	"date":                  "2026-03-31",
	"date-time":             "2026-03-31T12:00:00Z",
	"time":                  "12:00:00Z",
	"duration":              "P1D",
	"email":                 "ops@example.com",
	"idn-email":             "ops@example.com",
	"hostname":              "example.com",
	"idn-hostname":          "example.com",
	"ipv4":                  "192.0.2.1",
	"ipv6":                  "2001:db8::1",
	"uri":                   "data:text/plain,mcpgen",
	"uri-reference":         "data:text/plain,mcpgen",
	"iri":                   "data:text/plain,mcpgen",
	"iri-reference":         "data:text/plain,mcpgen",
	"uri-template":          "/items/{id}",
	"uuid":                  "6f1c2e0a-8d3b-4c7e-9a51-2b4d6e8f0a13",
	"regex":                 "^[a-z]+$",
	"json-pointer":          "/a/b",
	"relative-json-pointer": "0/a",
}

// kindOrder is the order a kind is chosen in when a schema admits several:
// the richest first, so that an optional array or object is filled rather
// than sent as null.
var kindOrder = []schema.Kind{schema.KindObject, schema.KindArray, schema.KindString, schema.KindInteger, schema.KindNumber, schema.KindBoolean, schema.KindNull}

// validArgs is a value s accepts: every declared property present (the
// optional ones too, where a value can be made, so the generated decoder
// reads each field), a map with one entry, arrays of one element, numbers
// at 1 or the nearest bound, strings of their format.
func validArgs(s *schema.Schema) (any, error) {
	v, err := example(schema.Conjunction(s), "$", 0)
	if err != nil {
		return nil, err
	}
	if errs := s.Validate(v); len(errs) > 0 {
		return nil, fmt.Errorf("the arguments made for it, %s, are not valid: %v", text(v), errs)
	}
	return v, nil
}

func example(conj []*schema.Schema, path string, depth int) (any, error) {
	if depth > 8 {
		return nil, fmt.Errorf("%s: nested too deep to make a value", path)
	}
	for _, s := range conj {
		if c, ok := s.Const(); ok {
			return c, nil
		}
		if e, ok := s.Enum(); ok && len(e) > 0 {
			return e[0], nil
		}
	}
	kinds := schema.Admitted(conj).Kinds()
	if len(kinds) == 0 {
		return nil, fmt.Errorf("%s: no value satisfies the schema", path)
	}
	kind := kinds[0]
	for _, k := range kindOrder {
		if slices.Contains(kinds, k) {
			kind = k
			break
		}
	}
	v, err := ofKind(conj, kind, path, depth)
	if err != nil {
		return nil, err
	}
	// A union (anyOf, oneOf) is not part of the conjunction: when the value
	// misses it, one of its alternatives' values is tried.
	for _, s := range conj {
		if len(s.Validate(v)) == 0 {
			continue
		}
		for _, alt := range append(s.AnyOf(), s.OneOf()...) {
			if a, err := example(schema.Conjunction(alt), path, depth+1); err == nil && len(s.Validate(a)) == 0 {
				v = a
				break
			}
		}
	}
	return v, nil
}

func ofKind(conj []*schema.Schema, kind schema.Kind, path string, depth int) (any, error) {
	switch kind {
	case schema.KindNull:
		return nil, nil
	case schema.KindBoolean:
		return true, nil
	case schema.KindInteger, schema.KindNumber:
		return number(conj, kind == schema.KindInteger), nil
	case schema.KindString:
		return str(conj, path)
	case schema.KindArray:
		n := 1
		for _, s := range conj {
			if m := s.MinItems(); m != nil && *m > n {
				n = *m
			}
			if m := s.MaxItems(); m != nil && *m < n {
				n = *m
			}
		}
		out := []any{}
		for i := range n {
			e, err := example(schema.Conjunction(schema.ElementSchemas(conj, i)...), schema.IndexPath(path, i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	default:
		m := map[string]any{}
		for _, name := range declared(conj) {
			v, err := example(schema.Conjunction(schema.PropertySchemas(conj, name)...), schema.PropertyPath(path, name), depth+1)
			if err != nil {
				if required(conj, name) {
					return nil, err
				}
				continue
			}
			m[name] = v
		}
		// A map (no properties, a schema for the others) gets one entry,
		// so its values are decoded too.
		if len(m) == 0 {
			if extra := schema.PropertySchemas(conj, "key"); len(extra) > 0 && !slices.ContainsFunc(extra, (*schema.Schema).IsFalse) {
				if v, err := example(schema.Conjunction(extra...), schema.PropertyPath(path, "key"), depth+1); err == nil {
					m["key"] = v
				}
			}
		}
		return m, nil
	}
}

// declared is every property name conj declares, in order, each once.
func declared(conj []*schema.Schema) []string {
	var out []string
	for _, s := range conj {
		for _, name := range s.PropertyNames() {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func required(conj []*schema.Schema, name string) bool {
	return slices.ContainsFunc(conj, func(s *schema.Schema) bool { return s.IsRequired(name) })
}

// number is 1, or the bound nearest it when 1 is out of range, on the
// grid of multipleOf.
func number(conj []*schema.Schema, integer bool) json.Number {
	lo, hi := math.Inf(-1), math.Inf(1)
	step := 0.0
	for _, s := range conj {
		if b := s.Minimum(); b != nil {
			lo = max(lo, b.Value)
		}
		if b := s.ExclusiveMinimum(); b != nil {
			lo = max(lo, math.Nextafter(b.Value, math.Inf(1)))
		}
		if b := s.Maximum(); b != nil {
			hi = min(hi, b.Value)
		}
		if b := s.ExclusiveMaximum(); b != nil {
			hi = min(hi, math.Nextafter(b.Value, math.Inf(-1)))
		}
		if b := s.MultipleOf(); b != nil {
			step = b.Value
		}
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	v := min(max(1, lo), hi)
	if step > 0 {
		v = math.Ceil(v/step) * step
	}
	return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
}

// str is a string of the schema's format, padded or cut to its lengths.
// A pattern is met only by an example the schema gives.
func str(conj []*schema.Schema, path string) (any, error) {
	v := "mcpgen"
	for _, s := range conj {
		if f, _ := s.Format(); formatExamples[f] != "" {
			v = formatExamples[f]
		}
	}
	for _, s := range conj {
		if n := s.MinLength(); n != nil && len([]rune(v)) < *n {
			v += strings.Repeat("x", *n-len([]rune(v)))
		}
		if n := s.MaxLength(); n != nil && len([]rune(v)) > *n {
			v = string([]rune(v)[:*n])
		}
	}
	for _, s := range conj {
		if s.Pattern() == nil || len(s.Validate(v)) == 0 {
			continue
		}
		for _, e := range s.Examples() {
			if len(s.Validate(e)) == 0 {
				return e, nil
			}
		}
		return nil, fmt.Errorf("%s: no example matches pattern %s", path, s.Pattern().Source)
	}
	return v, nil
}

// wrongValues are tried in order for a value of the wrong type.
var wrongValues = []any{json.Number("12345"), "not-valid", true, []any{}, map[string]any{}, nil}

// invalidArgs is valid with one thing broken, and what: the first
// required property left out; failing that, the first property given a
// value of another type; failing that, a property the schema does not
// declare, where it declares every one; and for a schema every object
// satisfies, arguments that are no object at all.
func invalidArgs(s *schema.Schema, valid any) (any, string, error) {
	conj := schema.Conjunction(s)
	obj, _ := valid.(map[string]any)
	var tries []struct {
		v    any
		what string
	}
	try := func(v any, format string, args ...any) {
		tries = append(tries, struct {
			v    any
			what string
		}{v, fmt.Sprintf(format, args...)})
	}
	for _, name := range declared(conj) {
		if required(conj, name) {
			m := clone(obj)
			delete(m, name)
			try(m, "required %q left out", name)
		}
	}
	for _, name := range declared(conj) {
		for _, w := range wrongValues {
			m := clone(obj)
			m[name] = w
			try(m, "%q given %s", name, text(w))
		}
	}
	m := clone(obj)
	m["mcpgenUndeclared"] = "x"
	try(m, "undeclared property mcpgenUndeclared")
	try([]any{}, "arguments that are an array")
	for _, t := range tries {
		if len(s.Validate(t.v)) > 0 {
			return t.v, t.what, nil
		}
	}
	return nil, "", fmt.Errorf("no invalid arguments found")
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func text(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
