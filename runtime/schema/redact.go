package schema

import (
	"slices"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// Redact returns v with the value of every part the schema marks x-secret
// replaced by mask. It follows every schema that can apply to a part: the
// properties, patternProperties and additionalProperties of objects, the
// items of arrays, and through $ref and the combinators (a value any of
// which marks secret is redacted, whichever alternative it matches). v is
// not modified: objects and arrays are copied.
func (s *Schema) Redact(v any, mask any) any {
	return redact(v, s.applying(nil), mask)
}

// AppendRedacted appends to dst the JSON text text with the value of every
// part the schema marks x-secret replaced by mask, the text of a JSON
// value: Redact's rule, applied to the text instead of a decoded value, so
// that a call's arguments are logged without being decoded. Members and
// elements keep their order and their text as written; the whitespace
// between them is left out. text must be one JSON value DecodeJSON accepts
// (valid UTF-8, no repeated member names), as the server's reader has
// checked a call's arguments: nothing is checked again, and on other text
// the result is unspecified (the walk only stops). A part no schema
// applies to is copied whole; the work is linear in the text.
func (s *Schema) AppendRedacted(dst, text, mask []byte) []byte {
	var root [4]*Schema
	dst, _ = appendRedacted(dst, text, 0, s.applying(root[:0]), mask)
	return dst
}

// applying adds to set s and every schema that applies to the same value
// through $ref and the in-place keywords.
func (s *Schema) applying(set []*Schema) []*Schema {
	if s == nil || slices.Contains(set, s) {
		return set
	}
	set = append(set, s)
	for c := range s.inPlace() {
		set = c.applying(set)
	}
	return set
}

// secretIn reports whether a schema of set marks its value secret.
func secretIn(set []*Schema) bool {
	for _, s := range set {
		if s.secret {
			return true
		}
	}
	return false
}

// memberSchemas appends to sub the schemas that apply to the member name
// of an object the schemas of set apply to: its properties entry, the
// patternProperties it matches, or else additionalProperties, and
// unevaluatedProperties; each with what applies in place.
func memberSchemas(sub, set []*Schema, name string) []*Schema {
	for _, s := range set {
		matched := false
		if ps := s.properties[name]; ps != nil {
			sub, matched = ps.applying(sub), true
		}
		for _, p := range s.patternProperties {
			if p.Pattern.MatchString(name) {
				sub, matched = p.Schema.applying(sub), true
			}
		}
		if !matched {
			sub = s.additionalProperties.applying(sub)
		}
		sub = s.unevaluatedProperties.applying(sub)
	}
	return sub
}

// elementSchemas appends to sub the schemas that apply to element i of an
// array the schemas of set apply to: its prefixItems entry or else items,
// contains and unevaluatedItems; each with what applies in place.
func elementSchemas(sub, set []*Schema, i int) []*Schema {
	for _, s := range set {
		if i < len(s.prefixItems) {
			sub = s.prefixItems[i].applying(sub)
		} else {
			sub = s.items.applying(sub)
		}
		sub = s.contains.applying(sub)
		sub = s.unevaluatedItems.applying(sub)
	}
	return sub
}

func redact(v any, set []*Schema, mask any) any {
	if secretIn(set) {
		return mask
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for name, pv := range v {
			out[name] = redact(pv, memberSchemas(nil, set, name), mask)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redact(e, elementSchemas(nil, set, i), mask)
		}
		return out
	}
	return v
}

// appendRedacted appends the value that begins at data[i] (after any
// whitespace), which the schemas of set apply to, redacted, and returns
// the offset just after it. It reads the text once (textdec.WalkObject
// and WalkArray): a part it copies or replaces whole is scanned to its end
// once, and a part it walks into is not scanned ahead, so that the work is
// linear in the text however deep it nests. (Finding each member's end
// first and then walking into it, as a walk over textdec.EachMember does,
// reads a value once for every level above it: 2.3 ms for a tree 500
// levels deep, BenchmarkAppendRedacted at e4667b7.) On text a strict
// reader would refuse it stops, without reading past data or looping.
func appendRedacted(dst, data []byte, i int, set []*Schema, mask []byte) ([]byte, int) {
	if i = textdec.SkipSpace(data, i); i >= len(data) {
		return dst, i // not text a strict reader accepted: nothing more is read
	}
	if secretIn(set) {
		return append(dst, mask...), textdec.ValueEnd(data, i)
	}
	if len(set) == 0 || (data[i] != '{' && data[i] != '[') {
		// A scalar, or a value no schema applies to, nor so to any of
		// its parts: copied as written.
		end := textdec.ValueEnd(data, i)
		return textdec.AppendCompact(dst, data[i:end]), end
	}
	var sub [4]*Schema
	if data[i] == '{' {
		dst = append(dst, '{')
		first := true
		end := textdec.WalkObject(data, i, func(m textdec.Member, value int) (end int) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(append(dst, m.Name...), ':')
			name := m.UnquotedName(nil) // allocates only for a name with an escape
			// The name's bytes live while the member is written.
			schemas := memberSchemas(sub[:0], set, unsafe.String(unsafe.SliceData(name), len(name)))
			dst, end = appendRedacted(dst, data, value, schemas, mask)
			return end
		})
		return append(dst, '}'), end
	}
	dst = append(dst, '[')
	end := textdec.WalkArray(data, i, func(n, value int) (end int) {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst, end = appendRedacted(dst, data, value, elementSchemas(sub[:0], set, n), mask)
		return end
	})
	return append(dst, ']'), end
}
