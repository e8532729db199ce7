package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Class is how a contract change must be released. The classes are ordered:
// a change is as severe as its most severe part.
type Class int

// The change classes. None means the two contracts are the same document.
const (
	None  Class = iota // nothing changed
	Patch              // annotations only (title, description, examples, default, x-secret): nobody breaks
	Minor              // the contract got looser: every old caller keeps working
	Major              // the contract got stricter: some old caller breaks
)

var classNames = [...]string{None: "none", Patch: "patch", Minor: "minor", Major: "major"}

// String returns "none", "patch", "minor" or "major".
func (c Class) String() string {
	if c >= None && c <= Major {
		return classNames[c]
	}
	return "invalid"
}

// ParseClass is the inverse of Class.String.
func ParseClass(s string) (Class, bool) {
	for c, name := range classNames {
		if name == s {
			return Class(c), true
		}
	}
	return None, false
}

// MarshalText writes the class name, so classes read well in JSON reports.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class name.
func (c *Class) UnmarshalText(b []byte) error {
	v, ok := ParseClass(string(b))
	if !ok {
		return &SchemaError{Message: "unknown change class " + string(b)}
	}
	*c = v
	return nil
}

// Direction says which side of the contract a schema describes.
type Direction int

const (
	// Input is a schema the caller's values must satisfy (inputSchema): a
	// new contract that rejects something the old one accepted is Major.
	Input Direction = iota
	// Output is a schema the server's values satisfy (outputSchema): a new
	// contract that allows something the old one did not is Major, since a
	// consumer written against the old one may not handle it.
	Output
)

// Change is one reason for a classification.
type Change struct {
	// Rule is a stable identifier of the rule that fired, such as
	// "required-added" or "enum-narrowed".
	Rule string `json:"rule"`
	// Path locates the change in value terms: "$" is the whole value,
	// "$.as_of" a property, "$.legs[*]" every array element, "$.meta.*"
	// every undeclared property.
	Path string `json:"path"`
	// Class is what this change alone requires.
	Class Class `json:"class"`
	// Text is a one-line reason for people.
	Text string `json:"text"`
}

// String renders the change as "class rule path: text".
func (c Change) String() string {
	return c.Class.String() + " " + c.Rule + " " + c.Path + ": " + c.Text
}

// Diff is the classification of a change and every reason for it.
type Diff struct {
	Class   Class    `json:"class"`
	Changes []Change `json:"changes"`
}

// Classify decides how the change from old to new must be released, and
// why. The question is the seeds' "who breaks?": in the Input direction, does
// new accept every value old accepted? Each way in which new rejects
// something old accepted is Major; each way in which it accepts something old
// rejected is Minor; annotation edits are Patch. The Output direction swaps
// the two (seed 000 §4, DESIGN.md). Every reason is returned, with its path,
// not only the first or the most severe: a reviewer needs the whole list, and
// a classifier that stopped at the first Minor would under-report a Major
// hiding behind it.
//
// The comparison recurses through properties, array items and schema-valued
// additionalProperties; a property's old schema, when the property is new,
// is whatever old allowed for undeclared properties. Constraints that apply
// to one JSON type (a string's pattern, a number's bounds) are compared only
// when both schemas accept that type, so a type change is one reason, not a
// cascade of noise. Keywords are compared one by one: minimum and
// exclusiveMinimum are not reasoned about together, which can only make the
// verdict more conservative (never Minor where Major is due).
//
// Decisions where reasonable classifiers disagree (docs/decisions.md):
//   - A new required property is Major even when it declares a default: the
//     default is an annotation, the validator does not apply it, and an old
//     caller that omits the property is refused.
//   - A new property on an object that allowed undeclared properties is
//     judged against what the object accepted there before: unconstrained
//     means the new property's constraints are tightenings (a caller that
//     sent "as_of": 5 to an open object now breaks). On a closed object it is
//     Minor: no old caller could have sent it.
//   - Removing a declared property is Major in both directions, even on an
//     open object: the server stops understanding a field callers rely on.
//   - A changed const or pattern is Major in both directions: neither
//     contract contains the other.
func Classify(old, new *Schema, dir Direction) Diff {
	if old == nil {
		old = &Schema{}
	}
	if new == nil {
		new = &Schema{}
	}
	c := classifier{dir: dir}
	c.compare(old, new, "$")
	if len(c.changes) == 0 && !Equal(old.Document(), new.Document()) {
		c.add(annotate, "document-reformatted", "$", "the document changed without changing what it accepts")
	}
	slices.SortFunc(c.changes, func(a, b Change) int {
		if x := strings.Compare(a.Path, b.Path); x != 0 {
			return x
		}
		if x := strings.Compare(a.Rule, b.Rule); x != 0 {
			return x
		}
		return strings.Compare(a.Text, b.Text)
	})
	d := Diff{Class: None, Changes: c.changes}
	for _, ch := range c.changes {
		d.Class = max(d.Class, ch.Class)
	}
	return d
}

// effect is what a change does to the set of accepted values.
type effect int

const (
	annotate effect = iota // nothing: titles, descriptions, examples
	tighten                // new rejects something old accepted
	loosen                 // new accepts something old rejected
	replace                // both at once: neither contains the other
)

type classifier struct {
	dir     Direction
	changes []Change
}

func (c *classifier) add(e effect, rule, path, format string, args ...any) {
	class := Patch
	switch e {
	case tighten:
		class = Major
		if c.dir == Output {
			class = Minor
		}
	case loosen:
		class = Minor
		if c.dir == Output {
			class = Major
		}
	case replace:
		class = Major
	}
	c.changes = append(c.changes, Change{Rule: rule, Path: path, Class: class, Text: fmt.Sprintf(format, args...)})
}

// atom is a JSON type as far as type constraints can tell apart: a number
// with a fraction is a separate atom from an integer because "integer"
// accepts one and not the other.
type atom uint8

const (
	atomNull atom = iota
	atomBoolean
	atomInteger
	atomFraction
	atomString
	atomArray
	atomObject
)

var atomNames = [...]string{"null", "boolean", "integer", "non-integer number", "string", "array", "object"}

func (s *Schema) acceptsAtom(a atom) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, t := range s.Types {
		switch {
		case t == KindNumber && (a == atomInteger || a == atomFraction),
			t == KindInteger && a == atomInteger,
			t == KindNull && a == atomNull,
			t == KindBoolean && a == atomBoolean,
			t == KindString && a == atomString,
			t == KindArray && a == atomArray,
			t == KindObject && a == atomObject:
			return true
		}
	}
	return false
}

func (s *Schema) typeText() string {
	if len(s.Types) == 0 {
		return "any type"
	}
	names := make([]string, len(s.Types))
	for i, k := range s.Types {
		names[i] = k.String()
	}
	return strings.Join(names, "|")
}

func (c *classifier) compare(old, new *Schema, path string) {
	c.compareTypes(old, new, path)
	c.compareValues(old, new, path)
	both := func(as ...atom) bool {
		for _, a := range as {
			if old.acceptsAtom(a) && new.acceptsAtom(a) {
				return true
			}
		}
		return false
	}
	if both(atomString) {
		c.compareCount("minLength", old.MinLength, new.MinLength, true, path)
		c.compareCount("maxLength", old.MaxLength, new.MaxLength, false, path)
		c.comparePattern(old, new, path)
	}
	if both(atomInteger, atomFraction) {
		c.compareBound("minimum", old.Minimum, new.Minimum, true, path)
		c.compareBound("exclusiveMinimum", old.ExclusiveMinimum, new.ExclusiveMinimum, true, path)
		c.compareBound("maximum", old.Maximum, new.Maximum, false, path)
		c.compareBound("exclusiveMaximum", old.ExclusiveMaximum, new.ExclusiveMaximum, false, path)
	}
	if both(atomArray) {
		c.compareCount("minItems", old.MinItems, new.MinItems, true, path)
		c.compareCount("maxItems", old.MaxItems, new.MaxItems, false, path)
		switch {
		case !old.UniqueItems && new.UniqueItems:
			c.add(tighten, "uniqueItems-added", path, "items must now be unique")
		case old.UniqueItems && !new.UniqueItems:
			c.add(loosen, "uniqueItems-removed", path, "items no longer need to be unique")
		}
		if old.Items != nil || new.Items != nil {
			c.compare(orAny(old.Items), orAny(new.Items), path+"[*]")
		}
	}
	if both(atomObject) {
		c.compareObject(old, new, path)
	}
	c.compareAnnotations(old, new, path)
}

func orAny(s *Schema) *Schema {
	if s == nil {
		return &Schema{}
	}
	return s
}

func (c *classifier) compareTypes(old, new *Schema, path string) {
	var lost, gained []string
	for a := atomNull; a <= atomObject; a++ {
		o, n := old.acceptsAtom(a), new.acceptsAtom(a)
		switch {
		case o && !n:
			lost = append(lost, atomNames[a])
		case !o && n:
			gained = append(gained, atomNames[a])
		}
	}
	if len(lost) > 0 {
		c.add(tighten, "type-narrowed", path, "type is %s, was %s: %s no longer accepted",
			new.typeText(), old.typeText(), strings.Join(lost, ", "))
	}
	if len(gained) > 0 {
		c.add(loosen, "type-widened", path, "type is %s, was %s: %s now accepted",
			new.typeText(), old.typeText(), strings.Join(gained, ", "))
	}
}

func (c *classifier) compareValues(old, new *Schema, path string) {
	switch {
	case !old.HasEnum && new.HasEnum:
		c.add(tighten, "enum-added", path, "only %s accepted now", Repr(new.Enum))
	case old.HasEnum && !new.HasEnum:
		c.add(loosen, "enum-removed", path, "no longer limited to %s", Repr(old.Enum))
	case old.HasEnum && new.HasEnum:
		if removed := missingFrom(old.Enum, new.Enum); len(removed) > 0 {
			c.add(tighten, "enum-narrowed", path, "enum no longer accepts %s", Repr(removed))
		}
		if added := missingFrom(new.Enum, old.Enum); len(added) > 0 {
			c.add(loosen, "enum-widened", path, "enum now accepts %s", Repr(added))
		}
	}
	switch {
	case !old.HasConst && new.HasConst:
		c.add(tighten, "const-added", path, "must now be %s", Repr(new.Const))
	case old.HasConst && !new.HasConst:
		c.add(loosen, "const-removed", path, "no longer fixed to %s", Repr(old.Const))
	case old.HasConst && new.HasConst && !Equal(old.Const, new.Const):
		c.add(replace, "const-changed", path, "must be %s, was %s", Repr(new.Const), Repr(old.Const))
	}
}

// missingFrom returns the values of a that are not in b.
func missingFrom(a, b []any) []any {
	var out []any
	for _, v := range a {
		if !inEnum(v, b) {
			out = append(out, v)
		}
	}
	return out
}

// compareBound compares a numeric bound; lower says whether raising it
// tightens (minimum) or loosens (maximum). An absent bound is -inf for a
// lower bound and +inf for an upper one (seed 000 §3): adding minimum 0
// is a tightening.
func (c *classifier) compareBound(kw string, old, new *Bound, lower bool, path string) {
	switch {
	case old == nil && new == nil:
	case old == nil:
		c.add(tighten, kw+"-added", path, "%s %s added", kw, new.Text)
	case new == nil:
		c.add(loosen, kw+"-removed", path, "%s %s removed", kw, old.Text)
	case new.Value > old.Value:
		c.add(pick(lower, tighten, loosen), kw+"-raised", path, "%s raised from %s to %s", kw, old.Text, new.Text)
	case new.Value < old.Value:
		c.add(pick(lower, loosen, tighten), kw+"-lowered", path, "%s lowered from %s to %s", kw, old.Text, new.Text)
	}
}

func (c *classifier) compareCount(kw string, old, new *int, lower bool, path string) {
	var o, n *Bound
	if old != nil {
		o = &Bound{Value: float64(*old), Text: strconv.Itoa(*old)}
	}
	if new != nil {
		n = &Bound{Value: float64(*new), Text: strconv.Itoa(*new)}
	}
	c.compareBound(kw, o, n, lower, path)
}

func pick(cond bool, a, b effect) effect {
	if cond {
		return a
	}
	return b
}

func (c *classifier) comparePattern(old, new *Schema, path string) {
	switch {
	case old.Pattern == new.Pattern:
	case old.Pattern == "":
		c.add(tighten, "pattern-added", path, "must now match %s", Repr(new.Pattern))
	case new.Pattern == "":
		c.add(loosen, "pattern-removed", path, "no longer has to match %s", Repr(old.Pattern))
	default:
		c.add(replace, "pattern-changed", path, "must match %s, was %s", Repr(new.Pattern), Repr(old.Pattern))
	}
}

func (c *classifier) compareObject(old, new *Schema, path string) {
	for _, name := range new.Required {
		if !slices.Contains(old.Required, name) {
			c.add(tighten, "required-added", PropertyPath(path, name), "property %q is now required", name)
		}
	}
	for _, name := range old.Required {
		if !slices.Contains(new.Required, name) {
			c.add(loosen, "required-removed", PropertyPath(path, name), "property %q is no longer required", name)
		}
	}
	for _, name := range old.PropertyNames {
		p := PropertyPath(path, name)
		newProp, ok := new.Properties[name]
		if !ok {
			c.add(replace, "property-removed", p, "property %q was removed", name)
			continue
		}
		c.compare(old.Properties[name], newProp, p)
	}
	for _, name := range new.PropertyNames {
		if _, ok := old.Properties[name]; ok {
			continue
		}
		p := PropertyPath(path, name)
		if old.Closed {
			c.add(loosen, "property-added", p, "property %q added", name)
			continue
		}
		// The object already accepted this name as an undeclared
		// property: judge the new declaration against what it allowed.
		c.add(annotate, "property-declared", p, "property %q declared (undeclared properties were allowed)", name)
		c.compare(orAny(old.AdditionalProperties), new.Properties[name], p)
	}
	rest := path + ".*"
	switch {
	case !old.Closed && new.Closed:
		c.add(tighten, "additionalProperties-closed", rest, "undeclared properties are no longer allowed")
	case old.Closed && !new.Closed:
		c.add(loosen, "additionalProperties-opened", rest, "undeclared properties are now allowed")
	case !old.Closed && !new.Closed && (old.AdditionalProperties != nil || new.AdditionalProperties != nil):
		c.compare(orAny(old.AdditionalProperties), orAny(new.AdditionalProperties), rest)
	}
}

func (c *classifier) compareAnnotations(old, new *Schema, path string) {
	if old.Title != new.Title {
		c.add(annotate, "title-changed", path, "title changed")
	}
	if old.Description != new.Description {
		c.add(annotate, "description-changed", path, "description changed")
	}
	od, nd := old.Document(), new.Document()
	for _, kw := range []string{"examples", "default", "x-secret", "$comment", "$schema"} {
		ov, oHas := od[kw]
		nv, nHas := nd[kw]
		if oHas != nHas || (oHas && !Equal(ov, nv)) {
			c.add(annotate, kw+"-changed", path, "%s changed", kw)
		}
	}
}
