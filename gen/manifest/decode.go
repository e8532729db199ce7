package manifest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
	"go.yaml.in/yaml/v3"
)

// A manifest is JSON written in YAML (or in JSON). The decoder here walks
// the node tree once, reporting every problem at its node, and refuses what
// YAML has and JSON does not, everywhere in a manifest:
//
//   - anchors, aliases and merge keys (<<): each version states its contract
//     in full, so that editing one version can never change another, which
//     is the immutability the estate promises;
//   - keys that are not strings (quote a property named 200);
//   - a key given twice in one mapping;
//   - explicit tags other than JSON's (!!str, !!int, !!float, !!bool,
//     !!null, !!map, !!seq): !!binary, !!set, !!timestamp, custom tags;
//   - NaN and infinities, and numbers JSON does not write (0x1F, +5, .5,
//     1_000): a number keeps its literal, so it must be a JSON literal.
//
// A plain scalar YAML reads as a timestamp (2026-03-12) is the string it
// spells: JSON has no timestamps.

// decoder reports the problems of one file.
type decoder struct {
	file string
	errs List
	// lines is the number of lines of the file (once read).
	lines int
}

func (d *decoder) pos(n *yaml.Node) Pos { return Pos{d.file, n.Line, n.Column} }

func (d *decoder) errorAt(p Pos, format string, args ...any) {
	if d.lines > 0 && p.Line > d.lines {
		// The YAML parser places what it finds at the end of a file
		// without a final newline (an empty document, a missing node) on
		// the line after the last one.
		p.Line, p.Col = d.lines, 1
	}
	d.errs = append(d.errs, &Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errorAt(d.pos(n), format, args...)
}

// explicitTags are the tags a manifest may spell out, per node kind.
var explicitTags = map[yaml.Kind][]string{
	yaml.ScalarNode:   {"!!str", "!!int", "!!float", "!!bool", "!!null"},
	yaml.MappingNode:  {"!!map"},
	yaml.SequenceNode: {"!!seq"},
}

// usable reports anchors, aliases and foreign tags on n, and whether n can
// be read at all.
func (d *decoder) usable(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		d.errorf(n, "alias *%s: anchors and aliases are not supported (each version states its contract in full)", n.Value)
		return false
	}
	if n.Anchor != "" {
		d.errorf(n, "anchor &%s: anchors and aliases are not supported (each version states its contract in full)", n.Anchor)
	}
	if n.Style&yaml.TaggedStyle != 0 && !slices.Contains(explicitTags[n.Kind], n.ShortTag()) {
		d.errorf(n, "tag %s is not supported: a manifest holds JSON values only", n.Tag)
		return false
	}
	return true
}

// describe names what n holds, for "must be a string, not a list".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!merge":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	}
	return "a " + n.ShortTag() + " value"
}

// pair is one key: value of a mapping.
type pair struct{ key, value *yaml.Node }

// entries returns the pairs of mapping n whose keys are usable strings,
// reporting the others and every repeated key (the first one counts).
func (d *decoder) entries(n *yaml.Node) []pair {
	var out []pair
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !d.usable(k) {
			continue
		}
		switch tag := k.ShortTag(); {
		case k.Kind != yaml.ScalarNode:
			d.errorf(k, "a key must be a string, not %s", describe(k))
			continue
		case tag == "!!merge":
			d.errorf(k, "merge keys (<<) are not supported (each version states its contract in full)")
			continue
		case tag != "!!str":
			d.errorf(k, "key %s is %s, not a string (keys are strings in JSON; quote it)", k.Value, describe(k))
			continue
		}
		if prev, dup := first[k.Value]; dup {
			d.errorf(k, "key %q is repeated (first at line %d)", k.Value, prev.Line)
			continue
		}
		first[k.Value] = k
		out = append(out, pair{k, v})
	}
	return out
}

// value converts n to the JSON value model of runtime/schema (nil, bool,
// json.Number, string, []any, map[string]any), reporting every node that
// has no JSON meaning. ok is false when something was reported.
func (d *decoder) value(n *yaml.Node) (v any, ok bool) {
	if !d.usable(n) {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		before := len(d.errs)
		for _, p := range d.entries(n) {
			m[p.key.Value], _ = d.value(p.value)
		}
		return m, len(d.errs) == before
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		before := len(d.errs)
		for _, e := range n.Content {
			v, _ := d.value(e)
			arr = append(arr, v)
		}
		return arr, len(d.errs) == before
	case yaml.ScalarNode:
		return d.scalar(n)
	}
	d.errorf(n, "unexpected YAML node")
	return nil, false
}

func (d *decoder) scalar(n *yaml.Node) (any, bool) {
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp", "!!merge":
		// YAML reads a plain 2026-03-12 as a timestamp and a plain << as a
		// merge key; outside a key, both are the text they spell.
		return n.Value, true
	case "!!null":
		switch n.Value {
		case "", "~", "null", "Null", "NULL":
			return nil, true
		}
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case "!!int", "!!float":
		switch strings.ToLower(strings.TrimLeft(n.Value, "+-")) {
		case ".nan", ".inf":
			d.errorf(n, "%s is not a JSON number (JSON has no NaN or infinity)", n.Value)
			return nil, false
		}
		if !schema.IsNumberLiteral(n.Value) {
			d.errorf(n, "%s is not written as a JSON number (decimal digits, an optional fraction and exponent; no 0x, +, leading dot or _)", n.Value)
			return nil, false
		}
		return json.Number(n.Value), true
	default:
		d.errorf(n, "a %s value is not supported: a manifest holds JSON values only", tag)
		return nil, false
	}
	d.errorf(n, "%q is not a valid %s value", n.Value, n.ShortTag())
	return nil, false
}

// shape is what one kind of manifest mapping holds: the fields the loader
// reads, and those it insists on. The JSON Schemas of the formats list the
// same fields (a test keeps the two equal).
type shape struct {
	what     string // "a version", for messages
	fields   []string
	required []string
}

// object is a decoded manifest mapping.
type object struct {
	node   *yaml.Node
	fields map[string]pair
}

// get returns the named field's pair; ok is false when it is absent.
func (o *object) get(name string) (pair, bool) {
	p, ok := o.fields[name]
	return p, ok
}

// object checks that n is a mapping of s, reporting unknown fields (with a
// suggestion) and missing required ones (at the mapping). It returns nil
// when n is not a mapping.
func (d *decoder) object(n *yaml.Node, s shape) *object {
	if !d.usable(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s must be a mapping, not %s", s.what, describe(n))
		return nil
	}
	o := &object{node: n, fields: map[string]pair{}}
	for _, p := range d.entries(n) {
		if !slices.Contains(s.fields, p.key.Value) {
			d.errorf(p.key, "unknown field %q in %s%s", p.key.Value, s.what, suggest(p.key.Value, s.fields))
			continue
		}
		o.fields[p.key.Value] = p
	}
	for _, name := range s.required {
		if _, ok := o.fields[name]; !ok {
			d.errorf(n, "%s is missing required field %q", s.what, name)
		}
	}
	return o
}

// str decodes a string field.
func (d *decoder) str(p pair) (string, bool) {
	v, ok := d.value(p.value)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		d.errorf(p.value, "%s must be a string, not %s", p.key.Value, describe(p.value))
	}
	return s, ok
}

// strList decodes a list of strings, reporting each element that is not
// one; check, when set, returns a problem with one element or "".
func (d *decoder) strList(p pair, check func(string) string) ([]string, bool) {
	if !d.usable(p.value) {
		return nil, false
	}
	if p.value.Kind != yaml.SequenceNode {
		d.errorf(p.value, "%s must be a list of strings, not %s", p.key.Value, describe(p.value))
		return nil, false
	}
	out := make([]string, 0, len(p.value.Content))
	ok := true
	for i, e := range p.value.Content {
		v, good := d.value(e)
		s, isStr := v.(string)
		switch {
		case !good:
			ok = false
		case !isStr:
			d.errorf(e, "%s[%d] must be a string, not %s", p.key.Value, i, describe(e))
			ok = false
		default:
			if check != nil {
				if msg := check(s); msg != "" {
					d.errorf(e, "%s", msg)
					ok = false
				}
			}
			out = append(out, s)
		}
	}
	return out, ok
}

// boolean decodes a boolean field.
func (d *decoder) boolean(p pair) (bool, bool) {
	v, ok := d.value(p.value)
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		d.errorf(p.value, "%s must be a boolean, not %s", p.key.Value, describe(p.value))
	}
	return b, ok
}

// list returns the elements of a list field.
func (d *decoder) list(p pair) ([]*yaml.Node, bool) {
	if !d.usable(p.value) {
		return nil, false
	}
	if p.value.Kind != yaml.SequenceNode {
		d.errorf(p.value, "%s must be a list, not %s", p.key.Value, describe(p.value))
		return nil, false
	}
	return p.value.Content, true
}

// suggest returns " (did you mean "x"?)" for the known name closest to an
// unknown one, or the list of known names when none is close.
func suggest(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, name) {
			best, bestDist = k, 0
			break
		}
		if dist := editDistance(strings.ToLower(name), strings.ToLower(k)); dist < bestDist {
			best, bestDist = k, dist
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return " (known: " + strings.Join(known, ", ") + ")"
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// locate finds the node a path inside the value of p names: the key of
// each mapping segment, the element of each list index. It stops at the
// deepest node that exists. When the node reached is a list and msg quotes
// one of its scalar elements (`required property "x" is not declared`), the
// element is returned.
func locate(p pair, path []string, msg string) *yaml.Node {
	at, cur := p.key, p.value
walk:
	for _, seg := range path {
		switch cur.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(cur.Content); i += 2 {
				if k := cur.Content[i]; k.Kind == yaml.ScalarNode && k.Value == seg {
					at, cur = k, cur.Content[i+1]
					continue walk
				}
			}
			break walk
		case yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(cur.Content) {
				break walk
			}
			at, cur = cur.Content[i], cur.Content[i]
		default:
			break walk
		}
	}
	if msg != "" && cur.Kind == yaml.SequenceNode {
		for _, e := range cur.Content {
			if e.Kind == yaml.ScalarNode && strings.Contains(msg, strconv.Quote(e.Value)) {
				return e
			}
		}
	}
	return at
}
