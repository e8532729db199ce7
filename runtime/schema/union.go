package schema

import "slices"

// A union is anyOf or oneOf. Most unions in tool contracts are told apart by
// something a validator can see before trying any alternative: the JSON type
// of the value (a string or a number; a value or null), or one property whose
// value names the alternative (a "kind" or "type" tag). For those, both the
// reference validator and generated code pick the one alternative that can
// match and report its errors as they are, which is what a caller needs to
// fix its value; an alternative that cannot match is not reported at all.
// Any other union tries every alternative and, when none matches, reports
// one error that names each alternative's first error (see MsgNoneOf).

// UnionKind is how the alternatives of a union are told apart.
type UnionKind uint8

const (
	// UnionGeneral: every alternative is tried.
	UnionGeneral UnionKind = iota
	// UnionByType: the alternatives accept disjoint JSON types, so the
	// value's type picks the only one that can match.
	UnionByType
	// UnionByProperty: every alternative is an object that requires the
	// property Union.Property with a distinct constant string; the value of
	// that property picks the only one that can match.
	UnionByProperty
)

// Union describes how the alternatives of an anyOf or oneOf are told apart.
type Union struct {
	Kind UnionKind
	// Property and Tags describe a union told apart by a property: Tags[i]
	// is the value that picks alternative i.
	Property string
	Tags     []string
	// Kinds[i] are the JSON kinds alternative i accepts, for a union told
	// apart by type. KindInteger stands for integers and KindNumber for
	// numbers that are not integers, so "number" is both.
	Kinds [][]Kind

	atoms []atomSet
}

func (u *Union) clone() *Union {
	if u == nil {
		return nil
	}
	c := *u
	c.Tags = slices.Clone(u.Tags)
	c.Kinds = make([][]Kind, len(u.Kinds))
	for i, k := range u.Kinds {
		c.Kinds[i] = slices.Clone(k)
	}
	c.atoms = slices.Clone(u.atoms)
	return &c
}

// ForKind returns the alternative of a union told apart by type that
// accepts values of kind k, or -1 when none does.
func (u *Union) ForKind(k Kind) int {
	a := atomOf(k)
	for i, set := range u.atoms {
		if set&a != 0 {
			return i
		}
	}
	return -1
}

// ForTag returns the alternative of a union told apart by a property whose
// tag is v, or -1.
func (u *Union) ForTag(v string) int { return slices.Index(u.Tags, v) }

// TypeNames are the types the alternatives accept, in alternative order,
// for the message of a value no alternative of a union told apart by type
// accepts.
func (u *Union) TypeNames() []Kind {
	var out []Kind
	for _, set := range u.atoms {
		for _, k := range set.kinds() {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// atomSet is a set of JSON types as type constraints tell them apart: an
// integer and a number with a fraction are different atoms, because
// "integer" accepts one and not the other.
type atomSet uint8

const (
	atomNull atomSet = 1 << iota
	atomBoolean
	atomInteger
	atomFraction
	atomString
	atomArray
	atomObject

	atomAll = atomNull | atomBoolean | atomInteger | atomFraction | atomString | atomArray | atomObject
)

func atomOf(k Kind) atomSet {
	switch k {
	case KindNull:
		return atomNull
	case KindBoolean:
		return atomBoolean
	case KindInteger:
		return atomInteger
	case KindNumber:
		return atomFraction
	case KindString:
		return atomString
	case KindArray:
		return atomArray
	case KindObject:
		return atomObject
	}
	return 0
}

// atomsOfTypes is the set a type keyword accepts.
func atomsOfTypes(types []Kind) atomSet {
	if len(types) == 0 {
		return atomAll
	}
	var set atomSet
	for _, k := range types {
		set |= atomOf(k)
		if k == KindNumber {
			set |= atomInteger
		}
	}
	return set
}

// atomsOfValues is the set of the values' types: a value equal to one of
// them has one of these. A number equals numbers of either atom (1 equals
// 1.0).
func atomsOfValues(values []any) atomSet {
	var set atomSet
	for _, v := range values {
		switch k := KindOf(v); k {
		case KindInteger, KindNumber:
			set |= atomInteger | atomFraction
		default:
			set |= atomOf(k)
		}
	}
	return set
}

// kinds names the set as type names: integer and fraction together are
// "number".
func (a atomSet) kinds() []Kind {
	var out []Kind
	for _, k := range []Kind{KindNull, KindBoolean, KindInteger, KindNumber, KindString, KindArray, KindObject} {
		switch {
		case k == KindInteger:
			if a&atomInteger != 0 && a&atomFraction == 0 {
				out = append(out, KindInteger)
			}
		case k == KindNumber:
			if a&atomFraction != 0 {
				out = append(out, KindNumber)
			}
		case a&atomOf(k) != 0:
			out = append(out, k)
		}
	}
	return out
}

// atomKinds lists the atoms of the set as kinds, KindNumber standing for
// the fraction atom alone (see Union.Kinds).
func (a atomSet) atomKinds() []Kind {
	var out []Kind
	for _, k := range []Kind{KindNull, KindBoolean, KindInteger, KindNumber, KindString, KindArray, KindObject} {
		if a&atomOf(k) != 0 {
			out = append(out, k)
		}
	}
	return out
}

// admitted computes, for every schema, the JSON types a value can have and
// still satisfy it, looking through $ref, allOf, anyOf and oneOf: a
// necessary condition, which is what telling alternatives apart needs.
type admitted struct {
	memo map[*Schema]atomSet
	busy map[*Schema]bool
	// typesOnly leaves enum and const out: Repair converts a value to a
	// type the schemas declare, never to one an enum or const implies.
	typesOnly bool
}

func (a *admitted) of(s *Schema) atomSet {
	if s == nil {
		return atomAll
	}
	if set, ok := a.memo[s]; ok {
		return set
	}
	if a.busy[s] {
		return atomAll // a cycle through descending keywords: no narrowing
	}
	a.busy[s] = true
	defer delete(a.busy, s)
	set := atomAll
	if s.never {
		set = 0
	} else {
		set &= atomsOfTypes(s.types)
		if s.hasConst && !a.typesOnly {
			set &= atomsOfValues([]any{s.constVal})
		}
		if s.hasEnum && !a.typesOnly {
			set &= atomsOfValues(s.enum)
		}
		if s.ref != nil {
			set &= a.of(s.ref)
		}
		for _, b := range s.allOf {
			set &= a.of(b)
		}
		for _, list := range [][]*Schema{s.anyOf, s.oneOf} {
			if len(list) > 0 {
				var any atomSet
				for _, b := range list {
					any |= a.of(b)
				}
				set &= any
			}
		}
	}
	a.memo[s] = set
	return set
}

// computeUnions decides, for every anyOf and oneOf of the document, how its
// alternatives are told apart, and checks an OpenAPI discriminator against
// them.
func (p *parser) computeUnions() {
	a := &admitted{memo: map[*Schema]atomSet{}, busy: map[*Schema]bool{}}
	for _, ptr := range sortedKeys(p.nodes) {
		s := p.nodes[ptr]
		if len(s.anyOf) > 0 {
			s.anyOfUnion = a.union(s.anyOf)
		}
		if len(s.oneOf) > 0 {
			s.oneOfUnion = a.union(s.oneOf)
		}
		doc, _ := s.doc.(map[string]any)
		if d, ok := doc["discriminator"].(map[string]any); ok {
			p.checkDiscriminator(s, d)
		}
	}
}

func (a *admitted) union(alts []*Schema) *Union {
	u := &Union{Kind: UnionGeneral}
	sets := make([]atomSet, len(alts))
	disjoint := true
	var seen atomSet
	for i, b := range alts {
		sets[i] = a.of(b)
		if sets[i] == 0 || sets[i]&seen != 0 {
			disjoint = false
		}
		seen |= sets[i]
	}
	if disjoint {
		u.Kind, u.atoms = UnionByType, sets
		for _, set := range sets {
			u.Kinds = append(u.Kinds, set.atomKinds())
		}
		return u
	}
	for _, set := range sets {
		if set != atomObject {
			return u
		}
	}
	// Every alternative is an object: look for a property they all
	// require with a distinct constant string.
	var candidates []string
	for i, b := range alts {
		tags := tagProperties(b, map[*Schema]bool{})
		if i == 0 {
			candidates = sortedKeys(tags)
			continue
		}
		candidates = slices.DeleteFunc(candidates, func(name string) bool { _, ok := tags[name]; return !ok })
	}
	for _, name := range candidates {
		values := make([]string, len(alts))
		distinct := true
		for i, b := range alts {
			values[i] = tagProperties(b, map[*Schema]bool{})[name]
			if slices.Contains(values[:i], values[i]) {
				distinct = false
			}
		}
		if distinct && len(alts) > 1 {
			u.Kind, u.Property, u.Tags = UnionByProperty, name, values
			return u
		}
	}
	return u
}

// tagProperties returns the properties s requires whose schema admits one
// string only (const, or an enum of one), with that string, looking through
// $ref and allOf.
func tagProperties(s *Schema, seen map[*Schema]bool) map[string]string {
	out := map[string]string{}
	if s == nil || seen[s] {
		return out
	}
	seen[s] = true
	for _, name := range s.required {
		if ps := s.properties[name]; ps != nil {
			if v, ok := onlyString(ps); ok {
				out[name] = v
			}
		}
	}
	// A tag declared in one in-place schema and required in another
	// (allOf: [{required: [kind]}, {properties: {kind: {const: a}}}]).
	var declared, required []*Schema
	declared, required = append(declared, s), append(required, s)
	var walk func(x *Schema)
	walk = func(x *Schema) {
		for _, y := range append(append([]*Schema{}, x.allOf...), x.ref) {
			if y != nil && !seen[y] {
				seen[y] = true
				declared, required = append(declared, y), append(required, y)
				walk(y)
			}
		}
	}
	walk(s)
	for _, r := range required {
		for _, name := range r.required {
			if _, done := out[name]; done {
				continue
			}
			for _, d := range declared {
				if ps := d.properties[name]; ps != nil {
					if v, ok := onlyString(ps); ok {
						out[name] = v
						break
					}
				}
			}
		}
	}
	return out
}

// onlyString reports the one string s admits, if it admits exactly one
// value and that value is a string.
func onlyString(s *Schema) (string, bool) {
	if s.hasConst {
		v, ok := s.constVal.(string)
		return v, ok
	}
	if s.hasEnum && len(s.enum) == 1 {
		v, ok := s.enum[0].(string)
		return v, ok
	}
	return "", false
}

// checkDiscriminator accepts OpenAPI's discriminator as an annotation only
// where it says what the schema already enforces: a oneOf or anyOf told
// apart by the named property, each mapping entry naming the alternative
// that carries that tag.
func (p *parser) checkDiscriminator(s *Schema, d map[string]any) {
	path := at(s.loc, "discriminator")
	name, _ := d["propertyName"].(string)
	if name == "" {
		p.fail(path, "discriminator.propertyName must be a non-empty string")
		return
	}
	u := s.oneOfUnion
	if u == nil {
		u = s.anyOfUnion
	}
	if u == nil || u.Kind != UnionByProperty || u.Property != name {
		p.fail(path, "discriminator names property %q, but the oneOf/anyOf beside it is not told apart by a required %q with a distinct constant string in each alternative; it would be a promise the validator does not keep", name, name)
		return
	}
	for _, k := range sortedKeys(d) {
		switch k {
		case "propertyName":
		case "mapping":
			m, ok := d[k].(map[string]any)
			if !ok {
				p.fail(at(path, k), "discriminator.mapping must be an object of $ref strings")
				continue
			}
			alts := s.oneOf
			if s.oneOfUnion == nil {
				alts = s.anyOf
			}
			for _, tag := range sortedKeys(m) {
				ref, _ := m[tag].(string)
				i := u.ForTag(tag)
				target, _ := p.lookup(s.baseOf(p), ref)
				if i < 0 || target == nil || !reaches(alts[i], target) {
					p.fail(at(path, k, tag), "discriminator.mapping[%q] = %s does not name the alternative whose %q is %q", tag, Repr(m[tag]), name, tag)
				}
			}
		default:
			p.fail(at(path, k), "unknown discriminator member %q", k)
		}
	}
}

// reaches reports whether alt is target or refers to it through $ref.
func reaches(alt, target *Schema) bool {
	for seen := map[*Schema]bool{}; alt != nil && !seen[alt]; alt = alt.ref {
		if alt == target {
			return true
		}
		seen[alt] = true
	}
	return false
}

// baseOf finds the base URI in force at s: that of the resource whose root
// is nearest above it.
func (s *Schema) baseOf(p *parser) string {
	best, depth := defaultBase, -1
	for base, r := range p.resources {
		loc := r.root.loc
		if len(loc) <= len(s.loc) && slices.Equal(loc, s.loc[:len(loc)]) && len(loc) > depth {
			best, depth = base, len(loc)
		}
	}
	return best
}
