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
// between them is left out. text must be one JSON value a strict reader
// accepted (no repeated member names; see textdec.Validate): nothing is
// checked again. A part no schema applies to is copied whole, unread.
func (s *Schema) AppendRedacted(dst, text, mask []byte) []byte {
	var root [4]*Schema
	return appendRedacted(dst, textdec.TrimSpace(text), s.applying(root[:0]), mask)
}

// applying adds to set s and every schema that applies to the same value
// through $ref and the in-place keywords.
func (s *Schema) applying(set []*Schema) []*Schema {
	if s == nil || slices.Contains(set, s) {
		return set
	}
	set = append(set, s)
	for _, c := range s.inPlace() {
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

// appendRedacted is AppendRedacted of v, a value's text without the
// whitespace around it, which the schemas of set apply to.
func appendRedacted(dst, v []byte, set []*Schema, mask []byte) []byte {
	if secretIn(set) {
		return append(dst, mask...)
	}
	if len(set) == 0 {
		// No schema applies to v, so none to any part of it.
		return textdec.AppendCompact(dst, v)
	}
	switch textdec.Kind(v) {
	case '{':
		dst = append(dst, '{')
		var sub [4]*Schema
		first := true
		textdec.EachMember(v, func(m textdec.Member) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(append(dst, m.Name...), ':')
			name := m.Name[1 : len(m.Name)-1]
			if m.Escaped {
				name = m.UnquotedName(nil) // rare: a name written with an escape
			}
			// The name's bytes live while the member is written.
			schemas := memberSchemas(sub[:0], set, unsafe.String(unsafe.SliceData(name), len(name)))
			dst = appendRedacted(dst, m.Value, schemas, mask)
		})
		return append(dst, '}')
	case '[':
		dst = append(dst, '[')
		var sub [4]*Schema
		i := 0
		textdec.EachElement(v, func(e []byte) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendRedacted(dst, e, elementSchemas(sub[:0], set, i), mask)
			i++
		})
		return append(dst, ']')
	}
	return append(dst, v...)
}
