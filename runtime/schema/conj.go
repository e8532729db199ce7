package schema

// A value is constrained by every schema that applies to it at once: its
// own schema, what that reaches through $ref and allOf, and, for a
// property, the patternProperties and additionalProperties of each object
// schema that does not declare it. The classifier compares such
// conjunctions, Repair follows them, and the generator types a value by
// them; these are the one place that says what applies.

// Conjunction returns roots and every schema they reach through $ref and
// allOf, each once, roots first.
func Conjunction(roots ...*Schema) []*Schema { return conjOf(roots...) }

// PropertySchemas returns the schemas of conj that apply to property name
// (roots, in conj order): its declaration in each schema that declares it;
// in one that does not, the patternProperties whose pattern matches name
// or, when none does, additionalProperties.
func PropertySchemas(conj []*Schema, name string) []*Schema {
	var out []*Schema
	for _, s := range conj {
		if ps := s.properties[name]; ps != nil {
			out = append(out, ps)
			continue
		}
		matched := false
		for _, p := range s.patternProperties {
			if p.Pattern.MatchString(name) {
				out, matched = append(out, p.Schema), true
			}
		}
		if !matched && s.additionalProperties != nil {
			out = append(out, s.additionalProperties)
		}
	}
	return out
}

// ElementSchemas returns the schemas of conj that apply to element i of an
// array (prefixItems, then items); i < 0 asks for the elements past every
// prefix.
func ElementSchemas(conj []*Schema, i int) []*Schema {
	var out []*Schema
	for _, s := range conj {
		switch {
		case i >= 0 && i < len(s.prefixItems):
			out = append(out, s.prefixItems[i])
		case s.items != nil:
			out = append(out, s.items)
		}
	}
	return out
}

// KindSet is a set of JSON types as a type constraint tells them apart:
// Has(KindInteger) for integers, Has(KindNumber) for numbers that are not
// integers.
type KindSet uint8

// Has reports whether k is in the set (see KindSet for numbers).
func (s KindSet) Has(k Kind) bool { return atomSet(s)&atomOf(k) != 0 }

// Kinds lists the set as type names, "number" standing for integers and
// other numbers together: the form of a type keyword.
func (s KindSet) Kinds() []Kind { return atomSet(s).kinds() }

// Admitted returns the JSON types a value can have and satisfy every schema
// of conj, looking through $ref and the combinators (a necessary
// condition: a value of another type fails).
func Admitted(conj []*Schema) KindSet {
	a := &admitted{memo: map[*Schema]atomSet{}, busy: map[*Schema]bool{}}
	set := atomAll
	for _, s := range conj {
		set &= a.of(s)
	}
	return KindSet(set)
}
