package schema

import (
	"fmt"
	"math/bits"
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
	// "$.as_of" a property, "$.legs[*]" every array element, "$.legs[0]"
	// the first (prefixItems), "$.meta.*" every undeclared property and
	// "$.meta./^x-/" the properties a pattern matches.
	Path string `json:"path"`
	// Class is what this change alone requires.
	Class Class `json:"class"`
	// Text is a one-line reason for people.
	Text string `json:"text"`
	// Where is the location of the changed schema in the new document (in
	// the old one when it was removed): inside $defs when the change is
	// to a definition, whichever value paths use it.
	Where Path `json:"where,omitempty"`
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
// why. The question is "who breaks?": in the Input direction, does new
// accept every value old accepted? Each way in which new rejects something
// old accepted is Major; each way in which it accepts something old rejected
// is Minor; annotation edits are Patch. The Output direction swaps the two.
// Every reason is returned, with its path, not only the first or the most
// severe: a reviewer needs the whole list, and a classifier that stopped at
// the first Minor would under-report a Major hiding behind it.
//
// The comparison follows the value: properties, pattern properties,
// undeclared properties, array elements. At each value it compares all the
// schemas that apply there together, looking through $ref and allOf, so
// moving a schema into $defs changes nothing, and a change to a definition
// is reported at every value that uses it (with Where locating the
// definition). A reference cycle (a tree) is compared once per level it
// recurses through, then stops. Constraints that apply to one JSON type (a
// string's pattern, a number's bounds) are compared only when both schemas
// accept that type, so a type change is one reason, not a cascade of noise.
// Keywords are compared one by one: minimum and exclusiveMinimum are not
// reasoned about together, which can only make the verdict more
// conservative (never Minor where Major is due).
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
//   - A changed const, pattern, format or not is Major in both directions:
//     neither contract contains the other.
//   - An alternative added to anyOf is Minor; added to a oneOf whose
//     alternatives are told apart (by type or by a tag) it is Minor too,
//     but added to any other oneOf it is Major, since a value that matches
//     two alternatives is refused. A removed alternative is Major.
//   - Alternatives are paired by content, then by tag or type, then by
//     position, and each pair is compared like any two schemas.
func Classify(old, new *Schema, dir Direction) Diff {
	if old == nil {
		old = &Schema{}
	}
	if new == nil {
		new = &Schema{}
	}
	c := classifier{dir: dir}
	c.compare(conjOf(old), conjOf(new), "$")
	if len(c.changes) == 0 && !Equal(old.Raw(), new.Raw()) {
		c.add(annotate, "document-reformatted", "$", new, "the document changed without changing what it accepts")
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
	c.changes = slices.CompactFunc(c.changes, func(a, b Change) bool {
		return a.Path == b.Path && a.Rule == b.Rule && a.Text == b.Text
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
	stack   []string // the (old, new) pairs being compared, against cycles
	// stripped are the owners of unions without them (see distribute);
	// restrictions the type schemas of restrict.
	stripped     map[string]*Schema
	restrictions map[atomSet]*Schema
}

func (c *classifier) add(e effect, rule, path string, where *Schema, format string, args ...any) {
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
	ch := Change{Rule: rule, Path: path, Class: class, Text: fmt.Sprintf(format, args...)}
	if where != nil {
		ch.Where = slices.Clone(where.loc)
	}
	c.changes = append(c.changes, ch)
}

// conj is the schemas that all apply to one value: a schema with what it
// reaches through $ref and allOf.
type conj []*Schema

func conjOf(ss ...*Schema) conj {
	var out conj
	var visit func(s *Schema)
	visit = func(s *Schema) {
		if s == nil || slices.Contains(out, s) {
			return
		}
		out = append(out, s)
		visit(s.ref)
		for _, b := range s.allOf {
			visit(b)
		}
	}
	for _, s := range ss {
		visit(s)
	}
	return out
}

// key identifies the conjunction for cycle detection.
func (k conj) key() string {
	var b strings.Builder
	for _, s := range k {
		fmt.Fprintf(&b, "%p,", s)
	}
	return b.String()
}

// head is the first schema of the conjunction: the one written at the
// value (a property's own schema), whose annotations describe it.
func (k conj) head() *Schema {
	if len(k) == 0 {
		return nil
	}
	return k[0]
}

// site is the schema a change of a constraint is located at: the first
// one that says more than a $ref, so that a change to a definition is
// located in $defs, not at the reference that brought it.
func (k conj) site() *Schema {
	for _, s := range k {
		if s.doc == nil && s.loc == nil {
			continue // a type restriction of the classifier's own
		}
		doc, ok := s.doc.(map[string]any)
		if !ok {
			return s
		}
		for kw := range doc {
			if kw != "$ref" && kw != "$defs" && !IsAnnotation(kw) {
				return s
			}
		}
	}
	return k.head()
}

func (k conj) atoms() atomSet {
	set := atomAll
	for _, s := range k {
		if s.never {
			return 0
		}
		set &= atomsOfTypes(s.types)
	}
	return set
}

func (k conj) typeText() string {
	a := k.atoms()
	switch a {
	case atomAll:
		return "any type"
	case 0:
		return "nothing"
	}
	names := []string{}
	for _, kind := range a.kinds() {
		names = append(names, kind.String())
	}
	return strings.Join(names, "|")
}

func (k conj) enum() ([]any, bool) {
	var out []any
	has := false
	for _, s := range k {
		if !s.hasEnum {
			continue
		}
		if !has {
			out, has = slices.Clone(s.enum), true
			continue
		}
		out = slices.DeleteFunc(out, func(v any) bool { return !inEnum(v, s.enum) })
	}
	return out, has
}

func (k conj) constant() (any, bool) {
	for _, s := range k {
		if s.hasConst {
			return s.constVal, true
		}
	}
	return nil, false
}

// bound is the tightest of one numeric keyword: the largest lower bound or
// the smallest upper one.
func (k conj) bound(get func(*Schema) *Bound, lower bool) *Bound {
	var best *Bound
	for _, s := range k {
		b := get(s)
		if b == nil {
			continue
		}
		if best == nil || (lower && b.Value > best.Value) || (!lower && b.Value < best.Value) {
			best = b
		}
	}
	return best
}

func (k conj) count(get func(*Schema) *int, lower bool) *int {
	var best *int
	for _, s := range k {
		n := get(s)
		if n == nil {
			continue
		}
		if best == nil || (lower && *n > *best) || (!lower && *n < *best) {
			best = n
		}
	}
	return best
}

func (k conj) strings(get func(*Schema) []string) []string {
	var out []string
	for _, s := range k {
		out = append(out, get(s)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (k conj) patterns() []string {
	return k.strings(func(s *Schema) []string {
		if s.pattern == nil {
			return nil
		}
		return []string{s.pattern.Source}
	})
}

func (k conj) formats() []string {
	return k.strings(func(s *Schema) []string {
		if !s.formatAsserted {
			return nil
		}
		return []string{s.format}
	})
}

func (k conj) multiples() []*Bound {
	var out []*Bound
	for _, s := range k {
		if s.multipleOf != nil && !slices.ContainsFunc(out, func(b *Bound) bool { return b.Literal() == s.multipleOf.Literal() }) {
			out = append(out, s.multipleOf)
		}
	}
	return out
}

func (k conj) unique() bool {
	return slices.ContainsFunc(k, func(s *Schema) bool { return s.uniqueItems })
}

func (k conj) maxPrefix() int {
	n := 0
	for _, s := range k {
		n = max(n, len(s.prefixItems))
	}
	return n
}

// element is what applies to element i (i < 0: the elements past every
// prefix; see ElementSchemas).
func (k conj) element(i int) conj { return conjOf(ElementSchemas(k, i)...) }

func (k conj) sub(get func(*Schema) *Schema) conj {
	var out []*Schema
	for _, s := range k {
		if x := get(s); x != nil {
			out = append(out, x)
		}
	}
	return conjOf(out...)
}

func (k conj) declared() []string {
	return k.strings(func(s *Schema) []string { return s.propertyOrder })
}

// prop is what applies to the property name (see PropertySchemas).
func (k conj) prop(name string) conj { return conjOf(PropertySchemas(k, name)...) }

func (k conj) declares(name string) bool {
	return slices.ContainsFunc(k, func(s *Schema) bool { return s.properties[name] != nil })
}

// closed reports whether undeclared properties are refused.
func (k conj) closed() bool {
	return slices.ContainsFunc(k, func(s *Schema) bool { return s.additionalProperties.IsFalse() })
}

func (k conj) patternSources() []string {
	return k.strings(func(s *Schema) []string {
		var out []string
		for _, p := range s.patternProperties {
			out = append(out, p.Pattern.Source)
		}
		return out
	})
}

func (k conj) pattern(src string) conj {
	var out []*Schema
	for _, s := range k {
		for _, p := range s.patternProperties {
			if p.Pattern.Source == src {
				out = append(out, p.Schema)
			}
		}
	}
	return conjOf(out...)
}

func (k conj) dependentRequired() map[string][]string {
	out := map[string][]string{}
	for _, s := range k {
		for trigger, names := range s.dependentRequired {
			out[trigger] = append(out[trigger], names...)
		}
	}
	for trigger := range out {
		slices.Sort(out[trigger])
		out[trigger] = slices.Compact(out[trigger])
	}
	return out
}

func (k conj) dependentSchemas() map[string]conj {
	out := map[string]conj{}
	for _, s := range k {
		for trigger, d := range s.dependentSchemas {
			out[trigger] = conjOf(append(out[trigger], d)...)
		}
	}
	return out
}

// union is an anyOf or oneOf of a schema in a conjunction.
type union struct {
	keyword string
	alts    []*Schema
	u       *Union
	owner   *Schema
}

func (k conj) unions() []union {
	var out []union
	for _, s := range k {
		if len(s.anyOf) > 0 {
			out = append(out, union{"anyOf", s.anyOf, s.anyOfUnion, s})
		}
		if len(s.oneOf) > 0 {
			out = append(out, union{"oneOf", s.oneOf, s.oneOfUnion, s})
		}
	}
	return out
}

func (c *classifier) compare(old, new conj, path string) {
	key := old.key() + "|" + new.key()
	if slices.Contains(c.stack, key) {
		return // a recursive schema: this level was compared further up
	}
	c.stack = append(c.stack, key)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()

	if c.compareOneSidedUnion(old, new, path) {
		return
	}
	oa, na := old.atoms(), new.atoms()
	c.compareTypes(old, new, path)
	if oa == 0 || na == 0 {
		return // nothing accepted on one side: the type reason says it all
	}
	c.compareValues(old, new, path)
	both := func(a atomSet) bool { return oa&na&a != 0 }
	if both(atomString | atomInteger | atomFraction) {
		c.compareSets("format", old.formats(), new.formats(), path, new)
	}
	if both(atomString) {
		c.compareCount("minLength", old.count((*Schema).MinLength, true), new.count((*Schema).MinLength, true), true, path, new)
		c.compareCount("maxLength", old.count((*Schema).MaxLength, false), new.count((*Schema).MaxLength, false), false, path, new)
		c.compareSets("pattern", old.patterns(), new.patterns(), path, new)
	}
	if both(atomInteger | atomFraction) {
		get := func(f func(*Schema) *Bound) func(*Schema) *Bound { return f }
		c.compareBound("minimum", old.bound(get(func(s *Schema) *Bound { return s.minimum }), true), new.bound(get(func(s *Schema) *Bound { return s.minimum }), true), true, path, new)
		c.compareBound("exclusiveMinimum", old.bound(func(s *Schema) *Bound { return s.exclusiveMinimum }, true), new.bound(func(s *Schema) *Bound { return s.exclusiveMinimum }, true), true, path, new)
		c.compareBound("maximum", old.bound(func(s *Schema) *Bound { return s.maximum }, false), new.bound(func(s *Schema) *Bound { return s.maximum }, false), false, path, new)
		c.compareBound("exclusiveMaximum", old.bound(func(s *Schema) *Bound { return s.exclusiveMaximum }, false), new.bound(func(s *Schema) *Bound { return s.exclusiveMaximum }, false), false, path, new)
		c.compareMultiples(old.multiples(), new.multiples(), path, new)
	}
	if both(atomArray) {
		c.compareArray(old, new, path)
	}
	if both(atomObject) {
		c.compareObject(old, new, path)
	}
	c.compareUnions(old, new, path)
	c.compareNot(old, new, path)
	c.compareConditions(old, new, path)
	c.compareAnnotations(old.head(), new.head(), path)
}

func (c *classifier) compareTypes(old, new conj, path string) {
	var lost, gained []string
	oa, na := old.atoms(), new.atoms()
	for _, a := range []atomSet{atomNull, atomBoolean, atomInteger, atomFraction, atomString, atomArray, atomObject} {
		o, n := oa&a != 0, na&a != 0
		switch {
		case o && !n:
			lost = append(lost, atomName(a))
		case !o && n:
			gained = append(gained, atomName(a))
		}
	}
	if len(lost) > 0 {
		c.add(tighten, "type-narrowed", path, new.site(), "type is %s, was %s: %s no longer accepted",
			new.typeText(), old.typeText(), strings.Join(lost, ", "))
	}
	if len(gained) > 0 {
		c.add(loosen, "type-widened", path, new.site(), "type is %s, was %s: %s now accepted",
			new.typeText(), old.typeText(), strings.Join(gained, ", "))
	}
}

func atomName(a atomSet) string {
	switch a {
	case atomNull:
		return "null"
	case atomBoolean:
		return "boolean"
	case atomInteger:
		return "integer"
	case atomFraction:
		return "non-integer number"
	case atomString:
		return "string"
	case atomArray:
		return "array"
	}
	return "object"
}

func (c *classifier) compareValues(old, new conj, path string) {
	oe, oHas := old.enum()
	ne, nHas := new.enum()
	switch {
	case !oHas && nHas:
		c.add(tighten, "enum-added", path, new.site(), "only %s accepted now", Repr(ne))
	case oHas && !nHas:
		c.add(loosen, "enum-removed", path, new.site(), "no longer limited to %s", Repr(oe))
	case oHas && nHas:
		if removed := missingFrom(oe, ne); len(removed) > 0 {
			c.add(tighten, "enum-narrowed", path, new.site(), "enum no longer accepts %s", Repr(removed))
		}
		if added := missingFrom(ne, oe); len(added) > 0 {
			c.add(loosen, "enum-widened", path, new.site(), "enum now accepts %s", Repr(added))
		}
	}
	oc, oHas := old.constant()
	nc, nHas := new.constant()
	switch {
	case !oHas && nHas:
		c.add(tighten, "const-added", path, new.site(), "must now be %s", Repr(nc))
	case oHas && !nHas:
		c.add(loosen, "const-removed", path, new.site(), "no longer fixed to %s", Repr(oc))
	case oHas && nHas && !Equal(oc, nc):
		c.add(replace, "const-changed", path, new.site(), "must be %s, was %s", Repr(nc), Repr(oc))
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

// compareSets compares a keyword every value of which must hold (patterns,
// formats): one replaced by another is neither looser nor stricter.
func (c *classifier) compareSets(kw string, old, new []string, path string, where conj) {
	var added, removed []string
	for _, v := range new {
		if !slices.Contains(old, v) {
			added = append(added, v)
		}
	}
	for _, v := range old {
		if !slices.Contains(new, v) {
			removed = append(removed, v)
		}
	}
	if len(added) == 1 && len(removed) == 1 {
		c.add(replace, kw+"-changed", path, where.site(), "must match %s %s, was %s", kw, Repr(added[0]), Repr(removed[0]))
		return
	}
	for _, v := range added {
		c.add(tighten, kw+"-added", path, where.site(), "must now match %s %s", kw, Repr(v))
	}
	for _, v := range removed {
		c.add(loosen, kw+"-removed", path, where.site(), "no longer has to match %s %s", kw, Repr(v))
	}
}

// compareBound compares a numeric bound; lower says whether raising it
// tightens (minimum) or loosens (maximum). An absent bound is -inf for a
// lower bound and +inf for an upper one: adding minimum 0 is a tightening.
func (c *classifier) compareBound(kw string, old, new *Bound, lower bool, path string, where conj) {
	switch {
	case old == nil && new == nil:
	case old == nil:
		c.add(tighten, kw+"-added", path, where.site(), "%s %s added", kw, new.Text)
	case new == nil:
		c.add(loosen, kw+"-removed", path, where.site(), "%s %s removed", kw, old.Text)
	case new.Value > old.Value:
		c.add(pick(lower, tighten, loosen), kw+"-raised", path, where.site(), "%s raised from %s to %s", kw, old.Text, new.Text)
	case new.Value < old.Value:
		c.add(pick(lower, loosen, tighten), kw+"-lowered", path, where.site(), "%s lowered from %s to %s", kw, old.Text, new.Text)
	}
}

func (c *classifier) compareCount(kw string, old, new *int, lower bool, path string, where conj) {
	var o, n *Bound
	if old != nil {
		o = &Bound{Value: float64(*old), Text: strconv.Itoa(*old)}
	}
	if new != nil {
		n = &Bound{Value: float64(*new), Text: strconv.Itoa(*new)}
	}
	c.compareBound(kw, o, n, lower, path, where)
}

func pick(cond bool, a, b effect) effect {
	if cond {
		return a
	}
	return b
}

// compareMultiples compares multipleOf: a new divisor that divides the old
// one accepts more (every multiple of 0.02 is a multiple of 0.01).
func (c *classifier) compareMultiples(old, new []*Bound, path string, where conj) {
	divides := func(m *Bound, of []*Bound) bool {
		return slices.ContainsFunc(of, func(b *Bound) bool { return MultipleOf(b.Literal(), m) })
	}
	for _, n := range new {
		if slices.ContainsFunc(old, func(b *Bound) bool { return b.Literal() == n.Literal() }) {
			continue
		}
		switch {
		case len(old) == 0:
			c.add(tighten, "multipleOf-added", path, where.site(), "must now be a multiple of %s", n.Text)
		case divides(n, old):
			// n divides every old divisor: at least as loose.
		default:
			c.add(tighten, "multipleOf-changed", path, where.site(), "must be a multiple of %s, which not every old multiple is", n.Text)
		}
	}
	for _, o := range old {
		if slices.ContainsFunc(new, func(b *Bound) bool { return b.Literal() == o.Literal() }) {
			continue
		}
		switch {
		case len(new) == 0:
			c.add(loosen, "multipleOf-removed", path, where.site(), "no longer has to be a multiple of %s", o.Text)
		case divides(o, new):
			// A new divisor is a multiple of o: o still holds.
		default:
			c.add(loosen, "multipleOf-loosened", path, where.site(), "no longer has to be a multiple of %s", o.Text)
		}
	}
}

func (c *classifier) compareArray(old, new conj, path string) {
	c.compareCount("minItems", old.count((*Schema).MinItems, true), new.count((*Schema).MinItems, true), true, path, new)
	c.compareCount("maxItems", old.count((*Schema).MaxItems, false), new.count((*Schema).MaxItems, false), false, path, new)
	switch ou, nu := old.unique(), new.unique(); {
	case !ou && nu:
		c.add(tighten, "uniqueItems-added", path, new.site(), "items must now be unique")
	case ou && !nu:
		c.add(loosen, "uniqueItems-removed", path, new.site(), "items no longer need to be unique")
	}
	prefix := max(old.maxPrefix(), new.maxPrefix())
	for i := range prefix {
		o, n := old.element(i), new.element(i)
		if len(o) > 0 || len(n) > 0 {
			c.compare(o, n, IndexPath(path, i))
		}
	}
	if o, n := old.element(-1), new.element(-1); len(o) > 0 || len(n) > 0 {
		c.compare(o, n, path+"[*]")
	}
	oc, nc := old.sub(func(s *Schema) *Schema { return s.contains }), new.sub(func(s *Schema) *Schema { return s.contains })
	switch {
	case len(oc) == 0 && len(nc) > 0:
		c.add(tighten, "contains-added", path, new.site(), "must now contain an item matching a schema")
	case len(oc) > 0 && len(nc) == 0:
		c.add(loosen, "contains-removed", path, new.site(), "no longer has to contain a matching item")
	case len(oc) > 0:
		// A looser contains schema is a looser array.
		c.compare(oc, nc, path+"[contains]")
		c.compareCount("minContains", old.count((*Schema).MinContains, true), new.count((*Schema).MinContains, true), true, path, new)
		c.compareCount("maxContains", old.count((*Schema).MaxContains, false), new.count((*Schema).MaxContains, false), false, path, new)
	}
	c.compareRest("unevaluatedItems", old.sub(func(s *Schema) *Schema { return s.unevaluatedItems }),
		new.sub(func(s *Schema) *Schema { return s.unevaluatedItems }), path+"[*]", new)
}

// compareRest compares a keyword that applies to what the others left
// (unevaluatedItems, unevaluatedProperties): false is "closed".
func (c *classifier) compareRest(kw string, old, new conj, path string, where conj) {
	oc, nc := old.atoms() == 0 && len(old) > 0, new.atoms() == 0 && len(new) > 0
	switch {
	case !oc && nc:
		c.add(tighten, kw+"-closed", path, where.site(), "what the other keywords do not cover is no longer allowed")
	case oc && !nc:
		c.add(loosen, kw+"-opened", path, where.site(), "what the other keywords do not cover is now allowed")
	case !oc && !nc && (len(old) > 0 || len(new) > 0):
		c.compare(old, new, path)
	}
}

func (c *classifier) compareObject(old, new conj, path string) {
	oreq, nreq := old.strings((*Schema).Required), new.strings((*Schema).Required)
	for _, name := range nreq {
		if !slices.Contains(oreq, name) {
			c.add(tighten, "required-added", PropertyPath(path, name), new.site(), "property %q is now required", name)
		}
	}
	for _, name := range oreq {
		if !slices.Contains(nreq, name) {
			c.add(loosen, "required-removed", PropertyPath(path, name), new.site(), "property %q is no longer required", name)
		}
	}
	for _, name := range old.declared() {
		p := PropertyPath(path, name)
		if !new.declares(name) {
			c.add(replace, "property-removed", p, old.prop(name).head(), "property %q was removed", name)
			continue
		}
		c.compare(old.prop(name), new.prop(name), p)
	}
	for _, name := range new.declared() {
		if old.declares(name) {
			continue
		}
		p := PropertyPath(path, name)
		before := old.prop(name)
		if before.atoms() == 0 && len(before) > 0 {
			c.add(loosen, "property-added", p, new.prop(name).head(), "property %q added", name)
			continue
		}
		// The object already accepted this name as an undeclared
		// property: judge the new declaration against what it allowed.
		c.add(annotate, "property-declared", p, new.prop(name).head(), "property %q declared (undeclared properties were allowed)", name)
		c.compare(before, new.prop(name), p)
	}
	osrc, nsrc := old.patternSources(), new.patternSources()
	for _, src := range nsrc {
		p := path + "./" + src + "/"
		switch {
		case slices.Contains(osrc, src):
			c.compare(old.pattern(src), new.pattern(src), p)
		case old.closed():
			c.add(loosen, "patternProperties-added", p, new.site(), "properties matching %s are now allowed", Repr(src))
		default:
			c.add(annotate, "patternProperties-declared", p, new.site(), "properties matching %s now have a schema", Repr(src))
			c.compare(old.sub(func(s *Schema) *Schema { return s.additionalProperties }), new.pattern(src), p)
		}
	}
	for _, src := range osrc {
		if !slices.Contains(nsrc, src) {
			c.add(replace, "patternProperties-removed", path+"./"+src+"/", old.head(), "properties matching %s lost their schema", Repr(src))
		}
	}
	rest := path + ".*"
	oadd := old.sub(func(s *Schema) *Schema { return s.additionalProperties })
	nadd := new.sub(func(s *Schema) *Schema { return s.additionalProperties })
	switch oc, nc := old.closed(), new.closed(); {
	case !oc && nc:
		c.add(tighten, "additionalProperties-closed", rest, new.site(), "undeclared properties are no longer allowed")
	case oc && !nc:
		c.add(loosen, "additionalProperties-opened", rest, new.site(), "undeclared properties are now allowed")
	case !oc && !nc && (len(oadd) > 0 || len(nadd) > 0):
		c.compare(oadd, nadd, rest)
	}
	on, nn := old.sub(func(s *Schema) *Schema { return s.propertyNames }), new.sub(func(s *Schema) *Schema { return s.propertyNames })
	if len(on) > 0 || len(nn) > 0 {
		c.compare(on, nn, path+".<name>")
	}
	c.compareCount("minProperties", old.count((*Schema).MinProperties, true), new.count((*Schema).MinProperties, true), true, path, new)
	c.compareCount("maxProperties", old.count((*Schema).MaxProperties, false), new.count((*Schema).MaxProperties, false), false, path, new)
	odr, ndr := old.dependentRequired(), new.dependentRequired()
	for _, trigger := range sortedKeys(ndr) {
		for _, name := range ndr[trigger] {
			if !slices.Contains(odr[trigger], name) {
				c.add(tighten, "dependentRequired-added", PropertyPath(path, name), new.site(), "property %q is now required when %q is present", name, trigger)
			}
		}
	}
	for _, trigger := range sortedKeys(odr) {
		for _, name := range odr[trigger] {
			if !slices.Contains(ndr[trigger], name) {
				c.add(loosen, "dependentRequired-removed", PropertyPath(path, name), new.site(), "property %q is no longer required when %q is present", name, trigger)
			}
		}
	}
	ods, nds := old.dependentSchemas(), new.dependentSchemas()
	for _, trigger := range sortedKeys(nds) {
		if o, ok := ods[trigger]; ok {
			c.compare(o, nds[trigger], path)
		} else {
			c.add(tighten, "dependentSchemas-added", path, nds[trigger].head(), "a schema now applies when %q is present", trigger)
		}
	}
	for _, trigger := range sortedKeys(ods) {
		if _, ok := nds[trigger]; !ok {
			c.add(loosen, "dependentSchemas-removed", path, new.site(), "the schema that applied when %q is present was removed", trigger)
		}
	}
	c.compareRest("unevaluatedProperties", old.sub(func(s *Schema) *Schema { return s.unevaluatedProperties }),
		new.sub(func(s *Schema) *Schema { return s.unevaluatedProperties }), rest, new)
}

func (c *classifier) compareUnions(old, new conj, path string) {
	ou, nu := old.unions(), new.unions()
	for i := 0; i < max(len(ou), len(nu)); i++ {
		switch {
		case i >= len(ou):
			n := nu[i]
			c.add(tighten, n.keyword+"-added", path, n.owner, "must now match %s of %d alternatives", n.keyword, len(n.alts))
		case i >= len(nu):
			o := ou[i]
			c.add(loosen, o.keyword+"-removed", path, new.site(), "no longer has to match %s", o.keyword)
		default:
			c.compareUnion(ou[i], nu[i], path)
		}
	}
}

// compareOneSidedUnion compares a value typed by one anyOf or oneOf on one
// side and by no union on the other, as a string made nullable is
// ({"type": "string"} became {"anyOf": [{"type": "string"}, {"type":
// "null"}]}). The union side is distributed into its alternatives, each
// with the rest of its conjunction; the other side is paired with the one
// that accepts the most of its types and compared with it, and the
// alternatives left over are added (or removed) alternatives. So making a
// value nullable is one minor change, not "anyOf added" plus a type
// widening. It reports whether it compared the two.
func (c *classifier) compareOneSidedUnion(old, new conj, path string) bool {
	ou, nu := old.unions(), new.unions()
	switch {
	case len(ou) == 0 && len(nu) == 1 && nu[0].u.Kind == UnionByType:
		c.compareByType(old, c.distribute(new, nu[0]), nu[0], path, true)
		return true
	case len(ou) == 1 && len(nu) == 0 && ou[0].u.Kind == UnionByType:
		c.compareByType(new, c.distribute(old, ou[0]), ou[0], path, false)
		return true
	case len(ou) == 0 && len(nu) == 1:
		alts := c.distribute(new, nu[0])
		i := pairWith(old, alts)
		c.compare(old, alts[i], path)
		for j := range alts {
			if j != i {
				c.alternativeAdded(nu[0], j, path)
			}
		}
		return true
	case len(ou) == 1 && len(nu) == 0:
		alts := c.distribute(old, ou[0])
		i := pairWith(new, alts)
		c.compare(alts[i], new, path)
		for j := range alts {
			if j != i {
				c.alternativeRemoved(ou[0], j, new.site(), path)
			}
		}
		return true
	}
	return false
}

// compareByType compares k, a conjunction without a union, with the
// alternatives of a union told apart by type (alts, distributed): each
// alternative with the part of k of its types, so that a value of each
// type is judged by the schemas that apply to it on each side. An
// alternative none of whose types k accepts was added (unionIsNew) or
// removed; types of k no alternative has were lost or gained.
func (c *classifier) compareByType(k conj, alts []conj, u union, path string, unionIsNew bool) {
	covered := atomSet(0)
	for i, alt := range alts {
		covered |= alt.atoms()
		overlap := k.atoms() & alt.atoms()
		switch {
		case overlap == 0 && unionIsNew:
			c.alternativeAdded(u, i, path)
		case overlap == 0:
			c.alternativeRemoved(u, i, k.site(), path)
		case unionIsNew:
			c.compare(c.restrict(k, alt.atoms()), alt, path)
		default:
			c.compare(alt, c.restrict(k, alt.atoms()), path)
		}
	}
	var names []string
	for _, a := range []atomSet{atomNull, atomBoolean, atomInteger, atomFraction, atomString, atomArray, atomObject} {
		if k.atoms()&a != 0 && covered&a == 0 {
			names = append(names, atomName(a))
		}
	}
	if len(names) == 0 {
		return
	}
	if unionIsNew {
		c.add(tighten, "type-narrowed", path, u.owner, "no %s alternative accepts %s: no longer accepted", u.keyword, strings.Join(names, ", "))
	} else {
		c.add(loosen, "type-widened", path, k.site(), "%s now accepted, which no %s alternative accepted", strings.Join(names, ", "), u.keyword)
	}
}

// restrict is k limited to the types of atoms, through a type schema the
// classifier keeps (one per set), so that recursion meets it again.
func (c *classifier) restrict(k conj, atoms atomSet) conj {
	if k.atoms()&^atoms == 0 {
		return k
	}
	s, ok := c.restrictions[atoms]
	if !ok {
		s = &Schema{types: atoms.kinds()}
		if c.restrictions == nil {
			c.restrictions = map[atomSet]*Schema{}
		}
		c.restrictions[atoms] = s
	}
	return append(slices.Clone(k), s)
}

// distribute returns, for each alternative of u, the conjunction k with
// u's owner stripped of u and the alternative added. The stripped owners
// are kept, so that a recursive schema meets the same conjunctions again
// and the comparison stops.
func (c *classifier) distribute(k conj, u union) []conj {
	key := fmt.Sprintf("%p/%s", u.owner, u.keyword)
	stripped, ok := c.stripped[key]
	if !ok {
		cp := *u.owner
		if u.keyword == "anyOf" {
			cp.anyOf, cp.anyOfUnion = nil, nil
		} else {
			cp.oneOf, cp.oneOfUnion = nil, nil
		}
		stripped = &cp
		if c.stripped == nil {
			c.stripped = map[string]*Schema{}
		}
		c.stripped[key] = stripped
	}
	rest := make(conj, 0, len(k))
	for _, s := range k {
		if s == u.owner {
			s = stripped
		}
		rest = append(rest, s)
	}
	out := make([]conj, len(u.alts))
	for i, alt := range u.alts {
		out[i] = append(slices.Clone(rest), conjOf(alt)...)
	}
	return out
}

// pairWith returns the alternative that accepts the most of k's types
// (the first of those).
func pairWith(k conj, alts []conj) int {
	best, most := 0, -1
	for i, alt := range alts {
		if n := bits.OnesCount(uint(k.atoms() & alt.atoms())); n > most {
			best, most = i, n
		}
	}
	return best
}

func (c *classifier) alternativeAdded(n union, i int, path string) {
	if n.keyword == "oneOf" && n.u.Kind == UnionGeneral {
		c.add(replace, "oneOf-alternative-added", path, n.alts[i], "oneOf alternative #%d added: a value it accepts is now refused if another alternative accepts it too", i)
		return
	}
	c.add(loosen, n.keyword+"-alternative-added", path, n.alts[i], "%s alternative #%d (%s) added", n.keyword, i, n.altText(i))
}

func (c *classifier) alternativeRemoved(o union, i int, where *Schema, path string) {
	c.add(tighten, o.keyword+"-alternative-removed", path, where, "%s alternative #%d (%s) removed", o.keyword, i, o.altText(i))
}

// altText names alternative i in a reason: by its tag in a union told
// apart by one, else by its JSON when short, else by its hash.
func (u union) altText(i int) string {
	if u.u != nil && u.u.Kind == UnionByProperty {
		return fmt.Sprintf("%s: %s", Repr(u.u.Property), Repr(u.u.Tags[i]))
	}
	if b, err := CanonicalJSON(u.alts[i].doc); err == nil && len(b) <= 60 {
		return string(b)
	}
	return u.alts[i].Hash()
}

// compareUnion pairs the alternatives of two unions and compares each pair.
func (c *classifier) compareUnion(o, n union, path string) {
	paired := make([]int, len(n.alts)) // new alternative → old, or -1
	used := make([]bool, len(o.alts))
	for i := range paired {
		paired[i] = -1
	}
	match := func(same func(oi, ni int) bool) {
		for ni := range n.alts {
			if paired[ni] >= 0 {
				continue
			}
			for oi := range o.alts {
				if !used[oi] && same(oi, ni) {
					paired[ni], used[oi] = oi, true
					break
				}
			}
		}
	}
	match(func(oi, ni int) bool { return o.alts[oi].Hash() == n.alts[ni].Hash() })
	if o.u.Kind == UnionByProperty && n.u.Kind == UnionByProperty && o.u.Property == n.u.Property {
		match(func(oi, ni int) bool { return o.u.Tags[oi] == n.u.Tags[ni] })
	}
	if o.u.Kind == UnionByType && n.u.Kind == UnionByType {
		match(func(oi, ni int) bool { return o.u.atoms[oi]&n.u.atoms[ni] != 0 })
	}
	match(func(oi, ni int) bool { return oi == ni })
	match(func(oi, ni int) bool { return true })
	told := n.u.Kind != UnionGeneral
	if o.keyword != n.keyword {
		if n.keyword == "oneOf" && !told {
			c.add(tighten, "union-changed", path, n.owner, "anyOf became oneOf: a value matching two alternatives is now refused")
		} else {
			c.add(annotate, "union-changed", path, n.owner, "%s became %s", o.keyword, n.keyword)
		}
	}
	for ni, oi := range paired {
		alt := n.alts[ni]
		if oi >= 0 {
			c.compare(conjOf(o.alts[oi]), conjOf(alt), path)
			continue
		}
		c.alternativeAdded(n, ni, path)
	}
	for oi := range o.alts {
		if !used[oi] {
			c.alternativeRemoved(o, oi, n.owner, path)
		}
	}
}

func (c *classifier) compareNot(old, new conj, path string) {
	hashes := func(k conj) []string {
		var out []string
		for _, s := range k {
			if s.not != nil {
				out = append(out, s.not.Hash())
			}
		}
		slices.Sort(out)
		return out
	}
	oh, nh := hashes(old), hashes(new)
	switch {
	case slices.Equal(oh, nh):
	case len(oh) == 0:
		c.add(tighten, "not-added", path, new.site(), "must now not match a schema")
	case len(nh) == 0:
		c.add(loosen, "not-removed", path, new.site(), "no longer excluded by not")
	default:
		c.add(replace, "not-changed", path, new.site(), "the schema in not changed")
	}
}

func (c *classifier) compareConditions(old, new conj, path string) {
	conds := func(k conj) []*Schema {
		var out []*Schema
		for _, s := range k {
			if s.ifS != nil {
				out = append(out, s)
			}
		}
		return out
	}
	oc, nc := conds(old), conds(new)
	for i := 0; i < max(len(oc), len(nc)); i++ {
		switch {
		case i >= len(oc):
			c.add(tighten, "if-added", path, nc[i], "a condition (if/then/else) now applies")
		case i >= len(nc):
			c.add(loosen, "if-removed", path, new.site(), "a condition (if/then/else) no longer applies")
		case oc[i].ifS.Hash() != nc[i].ifS.Hash():
			c.add(replace, "if-changed", path, nc[i], "the condition in if changed")
		default:
			c.compare(conjOf(orTrue(oc[i].thenS)), conjOf(orTrue(nc[i].thenS)), path)
			c.compare(conjOf(orTrue(oc[i].elseS)), conjOf(orTrue(nc[i].elseS)), path)
		}
	}
}

func orTrue(s *Schema) *Schema {
	if s == nil {
		return &Schema{}
	}
	return s
}

func (c *classifier) compareAnnotations(old, new *Schema, path string) {
	if old == nil || new == nil {
		return
	}
	if old.title != new.title {
		c.add(annotate, "title-changed", path, new, "title changed")
	}
	if old.description != new.description {
		c.add(annotate, "description-changed", path, new, "description changed")
	}
	od, _ := old.doc.(map[string]any)
	nd, _ := new.doc.(map[string]any)
	keys := map[string]bool{}
	for _, d := range []map[string]any{od, nd} {
		for k := range d {
			if k == "x-secret" || k == "examples" || k == "default" || k == "$comment" || k == "$schema" ||
				k == "deprecated" || k == "readOnly" || k == "writeOnly" || k == "contentEncoding" ||
				k == "contentMediaType" || k == "contentSchema" || strings.HasPrefix(k, "x-") {
				keys[k] = true
			}
		}
	}
	if (old.format != new.format) && !(old.formatAsserted && new.formatAsserted) && !(old.format == "" && new.formatAsserted) && !(new.format == "" && old.formatAsserted) {
		c.add(annotate, "format-changed", path, new, "format annotation changed")
	}
	for _, kw := range sortedKeys(keys) {
		ov, oHas := od[kw]
		nv, nHas := nd[kw]
		if oHas != nHas || (oHas && !Equal(ov, nv)) {
			c.add(annotate, kw+"-changed", path, new, "%s changed", kw)
		}
	}
}
