package schema

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Validate checks v (a JSON value, see value.go) against s and returns every
// error, sorted by (path, message), at most MaxErrors of them; nil when v is
// valid. It never stops at the first error: a repair turn should fix
// everything at once.
//
// The rules beyond JSON Schema's verdict, which only say what is reported:
//
//   - After a type error nothing further is checked against that schema
//     for that value: every further message would be noise. (Another
//     schema applying to the same value, through allOf or $ref, is checked
//     as usual.)
//   - A typed schema promises its Go type: int64 for an integer-only
//     schema, float64 for a number. A literal that type cannot hold is
//     refused like a type error (MsgIntegerRange, MsgNumberRange).
//   - An integer is a number literal with neither a fraction nor an
//     exponent: 5.0 is not an integer (Repair turns it into 5).
//   - A union told apart by type or by a tag property (see Union) reports
//     the errors of the one alternative that can match; any other union
//     that fails reports one MsgNoneOf (or MsgManyOf).
//
// This is the reference validator. Generated validators implement the same
// semantics in straight-line code and are tested against it.
func (s *Schema) Validate(v any) Errors {
	var c Collector
	s.ValidateAt(v, "$", &c)
	return c.Result()
}

// ValidateJSON decodes data and validates it. A decoding failure is returned
// as the error, separately from validation errors.
func (s *Schema) ValidateJSON(data []byte) (Errors, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	return s.Validate(v), nil
}

// ValidateAt adds the errors of v, found at path, to c. Generated
// validators call it for the parts of a schema they hand to the reference
// validator whole.
func (s *Schema) ValidateAt(v any, path string, c *Collector) {
	if s == nil {
		return
	}
	s.eval(v, path, c)
}

// Valid reports whether v satisfies s, without building any message.
func (s *Schema) Valid(v any) bool {
	var c Collector
	s.ValidateAt(v, "$", &c)
	return c.Empty()
}

// evaluated is what one evaluation of a schema covered of an object or an
// array: the properties and elements that unevaluatedProperties and
// unevaluatedItems must leave alone. (JSON Schema calls these annotations.)
type evaluated struct {
	props    map[string]bool
	allProps bool
	items    int // elements [0, items) were evaluated
	allItems bool
	itemSet  map[int]bool // elements contains matched
}

func (e *evaluated) prop(name string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[name] = true
}

func (e *evaluated) merge(o evaluated) {
	e.allProps = e.allProps || o.allProps
	for name := range o.props {
		e.prop(name)
	}
	e.items = max(e.items, o.items)
	e.allItems = e.allItems || o.allItems
	for i := range o.itemSet {
		if e.itemSet == nil {
			e.itemSet = map[int]bool{}
		}
		e.itemSet[i] = true
	}
}

func (e *evaluated) hasProp(name string) bool { return e.allProps || e.props[name] }

func (e *evaluated) hasItem(i int) bool { return e.allItems || i < e.items || e.itemSet[i] }

// eval validates v against s at path, adding errors to c, and returns what
// it evaluated.
func (s *Schema) eval(v any, path string, c *Collector) (ev evaluated) {
	if s.never {
		c.Add(path, MsgFalse)
		return ev
	}
	if s.doc == nil {
		return ev
	}
	k := KindOf(v)
	if len(s.types) > 0 && !s.Allows(k) {
		c.Add(path, MsgType(s.types, k))
		return ev
	}
	if msg := s.rangeError(v, k); msg != "" {
		c.Add(path, msg)
		return ev
	}
	if s.hasConst && !Equal(v, s.constVal) {
		c.Add(path, MsgConst(s.constVal))
	}
	if s.hasEnum && !inEnum(v, s.enum) {
		c.Add(path, MsgEnum(s.enum))
	}
	switch k {
	case KindString:
		s.evalString(v.(string), path, c)
	case KindInteger, KindNumber:
		s.evalNumber(v, path, c)
	case KindObject:
		s.evalObject(v.(map[string]any), path, c, &ev)
	case KindArray:
		s.evalArray(v.([]any), path, c, &ev)
	}
	s.evalInPlace(v, k, path, c, &ev)
	switch k {
	case KindObject:
		s.evalUnevaluatedProperties(v.(map[string]any), path, c, &ev)
	case KindArray:
		s.evalUnevaluatedItems(v.([]any), path, c, &ev)
	}
	return ev
}

// rangeError is the check that follows the type check for numbers: a typed
// schema promises its Go type, int64 for an integer-only schema and float64
// for a number, and a literal that type cannot hold is refused (and, like a
// type error, ends the checks of that value). Untyped schemas hold the
// literal as written and have no range.
func (s *Schema) rangeError(v any, k Kind) string {
	n, ok := v.(json.Number)
	if !ok || len(s.types) == 0 || (k != KindInteger && k != KindNumber) {
		return ""
	}
	number := slices.Contains(s.types, KindNumber)
	if k == KindInteger && !number {
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return MsgIntegerRange
		}
		return ""
	}
	if _, err := strconv.ParseFloat(string(n), 64); err != nil {
		return MsgNumberRange
	}
	return ""
}

// Allows reports whether the type keyword admits a value of kind k (an
// integer is a number); true when there is none.
func (s *Schema) Allows(k Kind) bool {
	if len(s.types) == 0 {
		return true
	}
	for _, t := range s.types {
		if t == k || (t == KindNumber && k == KindInteger) {
			return true
		}
	}
	return false
}

func inEnum(v any, values []any) bool {
	for _, e := range values {
		if Equal(v, e) {
			return true
		}
	}
	return false
}

func (s *Schema) evalString(v, path string, c *Collector) {
	if s.minLength != nil || s.maxLength != nil {
		n := utf8.RuneCountInString(v)
		if s.minLength != nil && n < *s.minLength {
			c.Add(path, MsgMinLength(*s.minLength))
		}
		if s.maxLength != nil && n > *s.maxLength {
			c.Add(path, MsgMaxLength(*s.maxLength))
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(v) {
		c.Add(path, s.pattern.msg)
	}
	if s.formatAsserted {
		if check, ok := StringFormat(s.format); ok && !check(v) {
			c.Add(path, MsgFormat(s.format))
		}
	}
}

func (s *Schema) evalNumber(v any, path string, c *Collector) {
	f, _ := NumberValue(v)
	if s.minimum != nil && f < s.minimum.Value {
		c.Add(path, MsgMinimum(s.minimum))
	}
	if s.maximum != nil && f > s.maximum.Value {
		c.Add(path, MsgMaximum(s.maximum))
	}
	if s.exclusiveMinimum != nil && f <= s.exclusiveMinimum.Value {
		c.Add(path, MsgExclusiveMinimum(s.exclusiveMinimum))
	}
	if s.exclusiveMaximum != nil && f >= s.exclusiveMaximum.Value {
		c.Add(path, MsgExclusiveMaximum(s.exclusiveMaximum))
	}
	if s.multipleOf != nil || s.formatAsserted {
		lit, _ := numberText(v)
		if s.multipleOf != nil && !MultipleOf(lit, s.multipleOf) {
			c.Add(path, MsgMultipleOf(s.multipleOf))
		}
		if s.formatAsserted {
			if check, ok := NumberFormat(s.format); ok && !check(lit) {
				c.Add(path, MsgFormat(s.format))
			}
		}
	}
}

func (s *Schema) evalObject(v map[string]any, path string, c *Collector, ev *evaluated) {
	names := sortedKeys(v)
	for _, name := range s.required {
		if _, ok := v[name]; !ok {
			c.Add(PropertyPath(path, name), MsgRequired)
		}
	}
	if s.minProperties != nil && len(v) < *s.minProperties {
		c.Add(path, MsgMinProperties(*s.minProperties))
	}
	if s.maxProperties != nil && len(v) > *s.maxProperties {
		c.Add(path, MsgMaxProperties(*s.maxProperties))
	}
	for _, trigger := range sortedKeys(s.dependentRequired) {
		if _, ok := v[trigger]; !ok {
			continue
		}
		for _, name := range s.dependentRequired[trigger] {
			if _, ok := v[name]; !ok {
				c.Add(PropertyPath(path, name), MsgDependentRequired(trigger))
			}
		}
	}
	for _, name := range names {
		pv, pp := v[name], PropertyPath(path, name)
		if s.propertyNames != nil {
			var nc Collector
			s.propertyNames.eval(name, "$", &nc)
			for _, e := range nc.Result() {
				c.Add(pp, MsgPropertyName(e.Message))
			}
		}
		matched := false
		if ps, ok := s.properties[name]; ok {
			ps.eval(pv, pp, c)
			matched = true
		}
		for _, pat := range s.patternProperties {
			if pat.Pattern.MatchString(name) {
				pat.Schema.eval(pv, pp, c)
				matched = true
			}
		}
		if matched {
			ev.prop(name)
			continue
		}
		if ap := s.additionalProperties; ap != nil {
			if ap.never {
				c.Add(pp, MsgAdditional)
			} else {
				ap.eval(pv, pp, c)
			}
			ev.prop(name)
		}
	}
}

func (s *Schema) evalArray(v []any, path string, c *Collector, ev *evaluated) {
	if s.minItems != nil && len(v) < *s.minItems {
		c.Add(path, MsgMinItems(*s.minItems))
	}
	if s.maxItems != nil && len(v) > *s.maxItems {
		c.Add(path, MsgMaxItems(*s.maxItems))
	}
	if s.uniqueItems && !Unique(v) {
		c.Add(path, MsgUnique)
	}
	for i, e := range v {
		switch {
		case i < len(s.prefixItems):
			s.prefixItems[i].eval(e, IndexPath(path, i), c)
		case s.items == nil:
		case s.items.never:
			c.Add(IndexPath(path, i), MsgAdditionalItem)
		default:
			s.items.eval(e, IndexPath(path, i), c)
		}
	}
	ev.items = min(len(v), len(s.prefixItems))
	if s.items != nil {
		ev.allItems = true
	}
	if s.contains != nil {
		matched := 0
		for i, e := range v {
			var cc Collector
			s.contains.eval(e, IndexPath(path, i), &cc)
			if cc.Empty() {
				matched++
				if ev.itemSet == nil {
					ev.itemSet = map[int]bool{}
				}
				ev.itemSet[i] = true
			}
		}
		switch {
		case s.minContains == nil && matched == 0:
			c.Add(path, MsgContains)
		case s.minContains != nil && matched < *s.minContains:
			c.Add(path, MsgMinContains(*s.minContains))
		}
		if s.maxContains != nil && matched > *s.maxContains {
			c.Add(path, MsgMaxContains(*s.maxContains))
		}
	}
}

// evalInPlace applies the keywords whose subschemas apply to v itself:
// $ref, the combinators, not, if/then/else and dependentSchemas.
func (s *Schema) evalInPlace(v any, k Kind, path string, c *Collector, ev *evaluated) {
	if s.ref != nil {
		ev.merge(s.ref.eval(v, path, c))
	}
	for _, b := range s.allOf {
		ev.merge(b.eval(v, path, c))
	}
	if len(s.anyOf) > 0 {
		evalUnion("anyOf", s.anyOf, s.anyOfUnion, v, k, path, c, ev)
	}
	if len(s.oneOf) > 0 {
		evalUnion("oneOf", s.oneOf, s.oneOfUnion, v, k, path, c, ev)
	}
	if s.not != nil {
		var nc Collector
		s.not.eval(v, path, &nc)
		if nc.Empty() {
			c.Add(path, MsgNot)
		}
	}
	if s.ifS != nil {
		var ic Collector
		iev := s.ifS.eval(v, path, &ic)
		branch := s.elseS
		if ic.Empty() {
			ev.merge(iev)
			branch = s.thenS
		}
		if branch != nil {
			var bc Collector
			bev := branch.eval(v, path, &bc)
			if bc.Empty() {
				ev.merge(bev)
			}
			addAll(c, &bc)
		}
	}
	if k == KindObject && len(s.dependentSchemas) > 0 {
		m := v.(map[string]any)
		for _, trigger := range sortedKeys(s.dependentSchemas) {
			if _, ok := m[trigger]; !ok {
				continue
			}
			var dc Collector
			dev := s.dependentSchemas[trigger].eval(v, path, &dc)
			if dc.Empty() {
				ev.merge(dev)
			}
			addAll(c, &dc)
		}
	}
}

func addAll(c, from *Collector) {
	for _, e := range from.errs {
		c.Add(e.Path, e.Message)
	}
	c.more += from.more
}

// evalAlternative applies the one alternative of a union that can match:
// its errors are the union's, and what it evaluated counts when it
// matched.
func evalAlternative(alt *Schema, v any, path string, c *Collector, ev *evaluated) {
	var bc Collector
	bev := alt.eval(v, path, &bc)
	if bc.Empty() {
		ev.merge(bev)
	}
	addAll(c, &bc)
}

// evalUnion applies anyOf or oneOf (see Union for how alternatives are told
// apart). Only alternatives that match contribute what they evaluated.
func evalUnion(keyword string, alts []*Schema, u *Union, v any, k Kind, path string, c *Collector, ev *evaluated) {
	switch u.Kind {
	case UnionByType:
		i := u.ForKind(k)
		if i < 0 {
			c.Add(path, MsgType(u.TypeNames(), k))
			return
		}
		evalAlternative(alts[i], v, path, c, ev)
		return
	case UnionByProperty:
		m, ok := v.(map[string]any)
		if !ok {
			c.Add(path, MsgType([]Kind{KindObject}, k))
			return
		}
		tag, present := m[u.Property]
		if !present {
			c.Add(PropertyPath(path, u.Property), MsgRequired)
			return
		}
		name, _ := tag.(string)
		i := u.ForTag(name)
		if _, isString := tag.(string); !isString || i < 0 {
			c.Add(PropertyPath(path, u.Property), MsgEnum(stringValues(u.Tags)))
			return
		}
		evalAlternative(alts[i], v, path, c, ev)
		return
	}
	firsts := make([]ValidationError, len(alts))
	counts := make([]int, len(alts))
	var matched []int
	for i, b := range alts {
		var bc Collector
		bev := b.eval(v, path, &bc)
		if first, n, failed := bc.First(); failed {
			firsts[i], counts[i] = first, n
			continue
		}
		matched = append(matched, i)
		ev.merge(bev)
	}
	switch {
	case len(matched) == 0:
		c.Add(path, MsgNoneOf(keyword, firsts, counts))
	case keyword == "oneOf" && len(matched) > 1:
		c.Add(path, MsgManyOf(matched))
	}
}

func stringValues(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func (s *Schema) evalUnevaluatedProperties(v map[string]any, path string, c *Collector, ev *evaluated) {
	u := s.unevaluatedProperties
	if u == nil {
		return
	}
	for _, name := range sortedKeys(v) {
		if ev.hasProp(name) {
			continue
		}
		if u.never {
			c.Add(PropertyPath(path, name), MsgAdditional)
		} else {
			u.eval(v[name], PropertyPath(path, name), c)
		}
	}
	ev.allProps = true
}

func (s *Schema) evalUnevaluatedItems(v []any, path string, c *Collector, ev *evaluated) {
	u := s.unevaluatedItems
	if u == nil {
		return
	}
	for i, e := range v {
		if ev.hasItem(i) {
			continue
		}
		if u.never {
			c.Add(IndexPath(path, i), MsgAdditionalItem)
		} else {
			u.eval(e, IndexPath(path, i), c)
		}
	}
	ev.allItems = true
}

// Unique reports whether no two elements of v are equal JSON values, by
// Equal (1 and 1.0 are equal; objects compare without regard to key order).
// The canonical form buckets the elements; Equal decides within a bucket, so
// two integers beyond 2^53 that share a canonical form stay distinct.
func Unique(v []any) bool {
	if len(v) < 2 {
		return true
	}
	buckets := make(map[string][]any, len(v))
	for _, e := range v {
		key, err := CanonicalJSON(e)
		if err != nil {
			key = nil // not JSON: everything such shares one bucket
		}
		for _, other := range buckets[string(key)] {
			if Equal(e, other) {
				return false
			}
		}
		buckets[string(key)] = append(buckets[string(key)], e)
	}
	return true
}
