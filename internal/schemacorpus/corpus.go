// Package schemacorpus is a deterministic generator of random schemas of the
// supported subset and of values for them. Tests that must hold for every
// schema draw from it: the repair properties, the reference validator's
// agreement with an independent implementation, and the generated decoders'
// agreement with the reference validator. The same starting number always
// gives the same schemas and values, so a failure found with it is
// reproducible from the number the test prints.
//
// Schemas are feasible by construction (every generated schema has valid
// values), so the valid-value generator always succeeds: numeric bounds lie
// on a grid of hundredths, string lengths are chosen inside what the pattern
// can match, uniqueItems never comes with minItems above 1, and an enum or
// const is drawn from valid values of the rest of the schema.
package schemacorpus

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Corpus is one stream of random schemas and values. It is not safe for
// concurrent use: every draw advances the stream.
type Corpus struct {
	r *rand.Rand
}

// New returns the stream of seed.
func New(seed uint64) *Corpus {
	return &Corpus{r: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}
}

// MaxDepth is the deepest nesting of generated container schemas.
const MaxDepth = 3

var corpusKinds = []schema.Kind{schema.KindNull, schema.KindBoolean, schema.KindInteger, schema.KindNumber, schema.KindString, schema.KindArray, schema.KindObject}

// propertyPool names declared properties; extraPool names properties no
// generated schema declares. Neither holds a '.', so a value path names one
// property only.
var (
	propertyPool = []string{"id", "name", "amount", "currency", "legs", "tags", "meta", "note", "a b", "é", "x-y", "ok", "0"}
	extraPool    = []string{"extra", "zz", "ünknown", "constructor"}
)

// safePattern is a pattern with a generator of matching strings of exactly
// n code points, for min <= n (and n <= max when max >= 0).
type safePattern struct {
	re       string
	min, max int
	gen      func(r *rand.Rand, n int) string
}

var safePatterns = []safePattern{
	{`^[a-z]*$`, 0, -1, func(r *rand.Rand, n int) string { return runesFrom(r, "abcdefghijklmnopqrstuvwxyz", n) }},
	{`^[A-Z][a-z]*$`, 1, -1, func(r *rand.Rand, n int) string {
		return runesFrom(r, "ABCXYZ", 1) + runesFrom(r, "abcxyz", n-1)
	}},
	{`^PMT-\d{3,}$`, 7, -1, func(r *rand.Rand, n int) string { return "PMT-" + runesFrom(r, "0123456789", n-4) }},
	{`\d`, 1, -1, func(r *rand.Rand, n int) string {
		s := []rune(runesFrom(r, stringAlphabet, n-1))
		i := r.IntN(len(s) + 1)
		return string(slices.Insert(s, i, '7'))
	}},
	{`^(AED|USD|EUR)$`, 3, 3, func(r *rand.Rand, n int) string { return []string{"AED", "USD", "EUR"}[r.IntN(3)] }},
	{`^[äöü€ ]*$`, 0, -1, func(r *rand.Rand, n int) string { return runesFrom(r, "äöü€ ", n) }},
	{`^[a-z]+@[a-z]+$`, 3, -1, func(r *rand.Rand, n int) string {
		local := 1 + r.IntN(n-2)
		return runesFrom(r, "abc", local) + "@" + runesFrom(r, "xyz", n-1-local)
	}},
	{`ab|cd`, 2, -1, func(r *rand.Rand, n int) string {
		s := []rune(runesFrom(r, stringAlphabet, n-2))
		i := r.IntN(len(s) + 1)
		return string(slices.Insert(s, i, []rune([]string{"ab", "cd"}[r.IntN(2)])...))
	}},
}

// stringAlphabet mixes ASCII, characters JSON must escape, and code points
// of two, three and four UTF-8 bytes (the last outside the BMP, where code
// points and UTF-16 units differ).
const stringAlphabet = "abcXYZ019 -_'\"\\/\n\téü€😀"

// numberLikeStrings are strings a repair could misread as numbers or
// booleans: valid wherever a string is, they must never be converted.
var numberLikeStrings = []string{"42", "-1.5", "true", "FALSE", "0", "1e2", "5.0"}

func runesFrom(r *rand.Rand, alphabet string, n int) string {
	rs := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[r.IntN(len(rs))])
	}
	return b.String()
}

func findSafePattern(re string) (safePattern, bool) {
	for _, p := range safePatterns {
		if p.re == re {
			return p, true
		}
	}
	return safePattern{}, false
}

// Schema returns a random schema document (as schema.DecodeJSON would give
// it, numbers as json.Number) at the given nesting depth: 0 for a root,
// which is usually but not always an object; containers stop at MaxDepth.
// The document always parses (see MustParse).
func (c *Corpus) Schema(depth int) map[string]any {
	doc := map[string]any{}
	kinds := c.types(depth)
	constrained := kinds
	switch len(kinds) {
	case 0:
		// No type keyword: constraints for some kinds still apply to
		// values of those kinds.
		pool := corpusKinds
		if depth >= MaxDepth {
			pool = corpusKinds[:5]
		}
		for range c.r.IntN(3) {
			constrained = append(constrained, pool[c.r.IntN(len(pool))])
		}
	case 1:
		doc["type"] = kinds[0].String()
	default:
		names := make([]any, len(kinds))
		for i, k := range kinds {
			names[i] = k.String()
		}
		doc["type"] = names
	}
	has := func(k schema.Kind) bool { return slices.Contains(constrained, k) }
	if has(schema.KindString) {
		c.stringConstraints(doc)
	}
	if has(schema.KindInteger) || has(schema.KindNumber) {
		c.numberConstraints(doc, has(schema.KindInteger))
	}
	if has(schema.KindArray) {
		c.arrayConstraints(doc, depth)
	}
	if has(schema.KindObject) {
		c.objectConstraints(doc, depth)
	}
	if c.r.IntN(10) == 0 {
		doc["description"] = "generated"
	}
	if c.r.IntN(20) == 0 {
		doc["x-secret"] = true
	}
	switch roll := c.r.IntN(100); {
	case roll < 10:
		doc["enum"] = c.validValues(doc, 1+c.r.IntN(3), depth)
	case roll < 14:
		doc["const"] = c.validValues(doc, 1, depth)[0]
	}
	return doc
}

// types picks the type keyword: none, one kind, or a union of two or three.
// Containers stop at MaxDepth; a root is usually an object, as tool
// arguments are.
func (c *Corpus) types(depth int) []schema.Kind {
	pool := corpusKinds
	if depth >= MaxDepth {
		pool = corpusKinds[:5]
	}
	if depth == 0 && c.r.IntN(10) < 6 {
		return []schema.Kind{schema.KindObject}
	}
	n := 1
	switch roll := c.r.IntN(100); {
	case roll < 8:
		return nil
	case roll >= 75:
		n = 2 + c.r.IntN(2)
	}
	perm := c.r.Perm(len(pool))
	kinds := make([]schema.Kind, n)
	for i := range kinds {
		kinds[i] = pool[perm[i]]
	}
	return kinds
}

func (c *Corpus) stringConstraints(doc map[string]any) {
	lo, hi := 0, -1
	if c.r.IntN(100) < 30 {
		p := safePatterns[c.r.IntN(len(safePatterns))]
		doc["pattern"] = p.re
		lo, hi = p.min, p.max
	}
	if c.r.IntN(2) == 0 {
		n := lo + c.r.IntN(4)
		if hi >= 0 && n > hi {
			n = hi
		}
		doc["minLength"] = intLiteral(n)
		lo = n
	}
	if c.r.IntN(2) == 0 {
		n := lo + c.r.IntN(7)
		if hi >= 0 && n > hi {
			n = hi
		}
		doc["maxLength"] = intLiteral(n)
	}
}

// numberConstraints sets bounds on the grid of hundredths. With integer set,
// an integer always lies inside them (a bound may still be fractional:
// minimum 2.5 admits the integers from 3).
func (c *Corpus) numberConstraints(doc map[string]any, integer bool) {
	var lo, hi int // in hundredths
	if integer {
		lo = (c.r.IntN(101) - 50) * 100
		hi = lo + c.r.IntN(41)*100
	} else {
		lo = c.r.IntN(10001) - 5000
		hi = lo + c.r.IntN(4001)
	}
	slack := 1
	if integer {
		slack = 50 + c.r.IntN(50) // a fractional bound still admitting lo
	}
	switch c.r.IntN(4) {
	case 1:
		doc["minimum"] = c.centsLiteral(lo)
	case 2:
		doc["minimum"] = c.centsLiteral(lo - slack + 1)
	case 3:
		doc["exclusiveMinimum"] = c.centsLiteral(lo - slack)
	}
	switch c.r.IntN(4) {
	case 1:
		doc["maximum"] = c.centsLiteral(hi)
	case 2:
		doc["maximum"] = c.centsLiteral(hi + slack - 1)
	case 3:
		doc["exclusiveMaximum"] = c.centsLiteral(hi + slack)
	}
}

func (c *Corpus) arrayConstraints(doc map[string]any, depth int) {
	if c.r.IntN(10) < 7 {
		doc["items"] = c.Schema(depth + 1)
	}
	unique := c.r.IntN(4) == 0
	if unique {
		doc["uniqueItems"] = true
	}
	lo := 0
	if c.r.IntN(2) == 0 {
		lo = c.r.IntN(4)
		if unique {
			lo = min(lo, 1)
		}
		doc["minItems"] = intLiteral(lo)
	}
	if c.r.IntN(2) == 0 {
		doc["maxItems"] = intLiteral(lo + c.r.IntN(4))
	}
}

func (c *Corpus) objectConstraints(doc map[string]any, depth int) {
	perm := c.r.Perm(len(propertyPool))
	n := c.r.IntN(5)
	props := map[string]any{}
	var required []any
	for _, i := range perm[:n] {
		name := propertyPool[i]
		props[name] = c.Schema(depth + 1)
		if c.r.IntN(2) == 0 {
			required = append(required, name)
		}
	}
	if n > 0 || c.r.IntN(2) == 0 {
		doc["properties"] = props
	}
	if len(required) > 0 || (n > 0 && c.r.IntN(4) == 0) {
		if required == nil {
			required = []any{}
		}
		doc["required"] = required
	}
	switch roll := c.r.IntN(10); {
	case roll < 4:
		doc["additionalProperties"] = false
	case roll < 6:
		doc["additionalProperties"] = c.Schema(depth + 1)
	case roll < 7:
		doc["additionalProperties"] = true
	}
}

// validValues returns n distinct valid values of the schema doc describes.
func (c *Corpus) validValues(doc map[string]any, n, depth int) []any {
	s := MustParse(doc)
	var out []any
	for range 4 * n {
		v := c.Valid(s, depth)
		if !slices.ContainsFunc(out, func(e any) bool { return schema.Equal(e, v) }) {
			out = append(out, v)
		}
		if len(out) == n {
			break
		}
	}
	return out
}

// MustParse parses a generated schema document. It panics if the document
// does not parse, which would be a bug of the generator.
func MustParse(doc map[string]any) *schema.Schema {
	s, err := schema.Parse(doc)
	if err != nil {
		panic("corpus: generated schema does not parse: " + err.Error())
	}
	return s
}

// intLiteral is n as a JSON number.
func intLiteral(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// centsLiteral writes c hundredths as a JSON number, in one of the
// spellings JSON allows: 12.5, 12.50 or 1250e-2.
func (c *Corpus) centsLiteral(cents int) json.Number {
	switch c.r.IntN(6) {
	case 0:
		return json.Number(strconv.Itoa(cents) + "e-2")
	case 1:
		if cents%100 == 0 {
			return json.Number(strconv.Itoa(cents/100) + ".0")
		}
	}
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	text := sign + strconv.Itoa(cents/100)
	if f := cents % 100; f != 0 {
		text += strings.TrimRight("."+strconv.Itoa(100 + f)[1:], "0")
	}
	return json.Number(text)
}

// centsRange is the range of hundredths the numeric bounds of s admit.
// Unbounded sides get a finite range of plausible values.
func centsRange(s *schema.Schema) (lo, hi int) {
	const span = 10000
	lo, hi = math.MinInt, math.MaxInt
	toCents := func(f float64) float64 {
		x := f * 100
		if r := math.Round(x); math.Abs(x-r) < 1e-6 {
			return r
		}
		return x
	}
	if b := s.Minimum(); b != nil {
		lo = max(lo, int(math.Ceil(toCents(b.Value))))
	}
	if b := s.ExclusiveMinimum(); b != nil {
		lo = max(lo, int(math.Floor(toCents(b.Value)))+1)
	}
	if b := s.Maximum(); b != nil {
		hi = min(hi, int(math.Floor(toCents(b.Value))))
	}
	if b := s.ExclusiveMaximum(); b != nil {
		hi = min(hi, int(math.Ceil(toCents(b.Value)))-1)
	}
	switch {
	case lo == math.MinInt && hi == math.MaxInt:
		lo, hi = -span, span
	case lo == math.MinInt:
		lo = hi - span
	case hi == math.MaxInt:
		hi = lo + span
	}
	return lo, hi
}

// Valid returns a random value s accepts, for a schema the corpus wrote
// (it panics on a pattern it has no generator for). depth is the nesting
// depth of s, as it was passed to Schema: values below MaxDepth hold no
// containers where the schema leaves the kind open.
func (c *Corpus) Valid(s *schema.Schema, depth int) any {
	if v, ok := s.Const(); ok {
		return v
	}
	if enum, ok := s.Enum(); ok {
		return enum[c.r.IntN(len(enum))]
	}
	kinds := s.Types()
	if len(kinds) == 0 {
		kinds = corpusKinds
		if depth >= MaxDepth {
			kinds = corpusKinds[:5]
		}
	}
	switch k := kinds[c.r.IntN(len(kinds))]; k {
	case schema.KindNull:
		return nil
	case schema.KindBoolean:
		return c.r.IntN(2) == 0
	case schema.KindInteger, schema.KindNumber:
		lo, hi := centsRange(s)
		if k == schema.KindInteger {
			// Without a type keyword the bounds may have been drawn for
			// numbers only and admit no integer; a number is then as good.
			ilo, ihi := int(math.Ceil(float64(lo)/100)), int(math.Floor(float64(hi)/100))
			if ilo <= ihi {
				return intLiteral(ilo + c.r.IntN(ihi-ilo+1))
			}
			if !s.Allows(schema.KindNumber) {
				panic("corpus: integer bounds admit no integer")
			}
		}
		return c.centsLiteral(lo + c.r.IntN(hi-lo+1))
	case schema.KindString:
		return c.validString(s)
	case schema.KindArray:
		return c.validArray(s, depth)
	default:
		return c.validObject(s, depth)
	}
}

func (c *Corpus) validString(s *schema.Schema) string {
	lo, hi := 0, -1
	src := ""
	if s.Pattern() != nil {
		src = s.Pattern().Source
	}
	p, hasPattern := findSafePattern(src)
	if src != "" && !hasPattern {
		panic("corpus: no generator for pattern " + src)
	}
	if hasPattern {
		lo, hi = p.min, p.max
	}
	if n := s.MinLength(); n != nil {
		lo = max(lo, *n)
	}
	top := lo + 8
	if n := s.MaxLength(); n != nil {
		top = min(top, *n)
	}
	if hi >= 0 {
		top = min(top, hi)
	}
	n := lo + c.r.IntN(top-lo+1)
	if hasPattern {
		return p.gen(c.r, n)
	}
	if c.r.IntN(6) == 0 {
		w := numberLikeStrings[c.r.IntN(len(numberLikeStrings))]
		if l := len(w); l >= lo && l <= top {
			return w
		}
	}
	return runesFrom(c.r, stringAlphabet, n)
}

func (c *Corpus) validArray(s *schema.Schema, depth int) []any {
	lo, hi := 0, 3
	if n := s.MinItems(); n != nil {
		lo = *n
		hi = lo + 3
	}
	if n := s.MaxItems(); n != nil {
		hi = min(hi, *n)
	}
	n := lo + c.r.IntN(hi-lo+1)
	out := []any{}
	for attempt := 0; len(out) < n && attempt < 4*n; attempt++ {
		var e any
		if s.Items() != nil {
			e = c.Valid(s.Items(), depth+1)
		} else {
			e = c.arbitrary(depth + 1)
		}
		if s.UniqueItems() && slices.ContainsFunc(out, func(x any) bool { return schema.Equal(x, e) }) {
			continue
		}
		out = append(out, e)
	}
	return out
}

func (c *Corpus) validObject(s *schema.Schema, depth int) map[string]any {
	m := map[string]any{}
	for _, name := range s.PropertyNames() {
		if s.IsRequired(name) || c.r.IntN(2) == 0 {
			m[name] = c.Valid(s.Property(name), depth+1)
		}
	}
	if s.Closed() {
		return m
	}
	extras := c.r.IntN(3)
	if s.AdditionalProperties() == nil && c.r.IntN(3) != 0 {
		extras = 0
	}
	for range extras {
		name := extraPool[c.r.IntN(len(extraPool))]
		if s.Property(name) != nil {
			continue
		}
		if s.AdditionalProperties() != nil {
			m[name] = c.Valid(s.AdditionalProperties(), depth+1)
		} else {
			m[name] = c.arbitrary(depth + 1)
		}
	}
	return m
}

// arbitrary returns a random JSON value no schema governs.
func (c *Corpus) arbitrary(depth int) any {
	n := len(corpusKinds)
	if depth >= MaxDepth {
		n = 5
	}
	return c.ofKind(corpusKinds[c.r.IntN(n)], depth)
}

// ofKind returns a random value of kind k; a schema.KindNumber is never integral.
func (c *Corpus) ofKind(k schema.Kind, depth int) any {
	switch k {
	case schema.KindNull:
		return nil
	case schema.KindBoolean:
		return c.r.IntN(2) == 0
	case schema.KindInteger:
		return intLiteral(c.r.IntN(2001) - 1000)
	case schema.KindNumber:
		return c.centsLiteral((c.r.IntN(2001)-1000)*100 + 1 + c.r.IntN(99))
	case schema.KindString:
		return runesFrom(c.r, stringAlphabet, c.r.IntN(6))
	case schema.KindArray:
		out := []any{}
		for range c.r.IntN(4) {
			out = append(out, c.arbitrary(depth+1))
		}
		return out
	default:
		m := map[string]any{}
		for range c.r.IntN(4) {
			m[runesFrom(c.r, "abcé", 1+c.r.IntN(3))] = c.arbitrary(depth + 1)
		}
		return m
	}
}

// valueSite is a place in a value a mutation can change: the value there, the
// schema that governs it (nil when none does) and how to replace it.
type valueSite struct {
	path string
	s    *schema.Schema
	v    any
	set  func(any)
}

// collectSites lists v and every place inside it the validator reaches, in
// a deterministic order.
func collectSites(v any, s *schema.Schema, path string, set func(any), out *[]valueSite) {
	*out = append(*out, valueSite{path, s, v, set})
	if s != nil && !s.Allows(schema.KindOf(v)) {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, name := range sortedKeys(x) {
			var ps *schema.Schema
			if s != nil {
				if ps = s.Property(name); ps == nil {
					ps = s.AdditionalProperties()
				}
			}
			collectSites(x[name], ps, schema.PropertyPath(path, name), func(nv any) { x[name] = nv }, out)
		}
	case []any:
		for i := range x {
			var is *schema.Schema
			if s != nil {
				is = s.Items()
			}
			collectSites(x[i], is, schema.IndexPath(path, i), func(nv any) { x[i] = nv }, out)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Mutate returns a copy of v with one to three random changes that usually
// make it invalid: a wrong type, a number or boolean sent as a string, 5.0
// for an integer, a number for a string, an extra property, a missing
// required property, a value out of range. For a removed required property
// the defaults often hold the original value, under its path, and sometimes
// hold values for paths that do not exist.
func (c *Corpus) Mutate(s *schema.Schema, v any) (any, map[string]any) {
	root := Clone(v)
	defaults := map[string]any{}
	for range 1 + c.r.IntN(3) {
		var sites []valueSite
		collectSites(root, s, "$", func(nv any) { root = nv }, &sites)
		for range 8 {
			if c.mutateSite(sites[c.r.IntN(len(sites))], defaults) {
				break
			}
		}
	}
	if c.r.IntN(5) == 0 {
		defaults["$.nowhere"] = "unused"
	}
	return root, defaults
}

func (c *Corpus) mutateSite(st valueSite, defaults map[string]any) bool {
	var ops []func()
	k := schema.KindOf(st.v)
	governed := st.s != nil && st.s.Allows(k)
	if st.s != nil && len(st.s.Types()) > 0 {
		var wrong []schema.Kind
		for _, w := range corpusKinds {
			if !st.s.Allows(w) {
				wrong = append(wrong, w)
			}
		}
		if len(wrong) > 0 {
			ops = append(ops, func() { st.set(c.ofKind(wrong[c.r.IntN(len(wrong))], MaxDepth-1)) })
		}
	}
	switch k {
	case schema.KindInteger, schema.KindNumber:
		if n, ok := st.v.(json.Number); ok {
			ops = append(ops, func() { st.set(string(n)) })
			if k == schema.KindInteger {
				ops = append(ops, func() {
					forms := []string{".0", "e0", ".000", "0e-1", "E+0"}
					st.set(n + json.Number(forms[c.r.IntN(len(forms))]))
				})
			}
		}
	case schema.KindBoolean:
		ops = append(ops, func() {
			text := strconv.FormatBool(st.v.(bool))
			if c.r.IntN(2) == 0 {
				text = strings.ToUpper(text[:1]) + text[1:]
			}
			st.set(text)
		})
	case schema.KindString:
		if st.s != nil && !st.s.Allows(schema.KindInteger) {
			ops = append(ops, func() {
				if text := st.v.(string); schema.IsNumberLiteral(text) {
					st.set(json.Number(text))
				} else {
					st.set(c.ofKind([]schema.Kind{schema.KindInteger, schema.KindNumber}[c.r.IntN(2)], 0))
				}
			})
		}
	case schema.KindObject:
		m := st.v.(map[string]any)
		ops = append(ops, func() { m[extraPool[c.r.IntN(len(extraPool))]] = c.arbitrary(MaxDepth - 1) })
		if governed {
			var present []string
			for _, name := range st.s.Required() {
				if _, ok := m[name]; ok {
					present = append(present, name)
				}
			}
			if len(present) > 0 {
				ops = append(ops, func() {
					name := present[c.r.IntN(len(present))]
					if c.r.IntN(5) < 3 {
						defaults[schema.PropertyPath(st.path, name)] = m[name]
					}
					delete(m, name)
				})
			}
		}
	}
	if governed {
		if op := c.outOfRange(st); op != nil {
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return false
	}
	ops[c.r.IntN(len(ops))]()
	return true
}

// outOfRange returns a change that breaks a constraint of st's schema other
// than its type, or nil when there is none to break.
func (c *Corpus) outOfRange(st valueSite) func() {
	s := st.s
	var ops []func()
	_, hasEnum := s.Enum()
	_, hasConst := s.Const()
	if hasEnum || hasConst {
		ops = append(ops, func() { st.set(c.ofKind(schema.KindOf(st.v), MaxDepth-1)) })
	}
	switch v := st.v.(type) {
	case json.Number:
		integral := schema.KindOf(v) == schema.KindInteger
		step := func(f float64, up bool) json.Number {
			if integral {
				if up {
					return json.Number(schema.FormatNumber(math.Floor(f) + 1))
				}
				return json.Number(schema.FormatNumber(math.Ceil(f) - 1))
			}
			if up {
				return json.Number(schema.FormatNumber(f + 0.5))
			}
			return json.Number(schema.FormatNumber(f - 0.5))
		}
		if b := s.Maximum(); b != nil {
			ops = append(ops, func() { st.set(step(b.Value, true)) })
		}
		if b := s.Minimum(); b != nil {
			ops = append(ops, func() { st.set(step(b.Value, false)) })
		}
		if b := s.ExclusiveMaximum(); b != nil {
			ops = append(ops, func() { st.set(json.Number(b.Text)) })
		}
		if b := s.ExclusiveMinimum(); b != nil {
			ops = append(ops, func() { st.set(json.Number(b.Text)) })
		}
	case string:
		if n := s.MaxLength(); n != nil {
			ops = append(ops, func() { st.set(runesFrom(c.r, stringAlphabet, *n+1+c.r.IntN(3))) })
		}
		if n := s.MinLength(); n != nil && *n > 0 {
			ops = append(ops, func() { st.set(runesFrom(c.r, stringAlphabet, c.r.IntN(*n))) })
		}
		if s.Pattern() != nil {
			ops = append(ops, func() { st.set("!" + v) })
		}
	case []any:
		if n := s.MaxItems(); n != nil {
			ops = append(ops, func() {
				grown := slices.Clone(v)
				for len(grown) <= *n {
					grown = append(grown, c.arbitrary(MaxDepth-1))
				}
				st.set(grown)
			})
		}
		if n := s.MinItems(); n != nil && *n > 0 && len(v) > 0 {
			ops = append(ops, func() { st.set(slices.Clone(v[:min(len(v), *n)-1])) })
		}
		if s.UniqueItems() && len(v) > 0 {
			ops = append(ops, func() { st.set(append(slices.Clone(v), Clone(v[c.r.IntN(len(v))]))) })
		}
	}
	if len(ops) == 0 {
		return nil
	}
	return ops[c.r.IntN(len(ops))]
}

// Pair is one generated schema/value pair.
type Pair struct {
	// Seed is the corpus seed that produced the schema: New(Seed).Schema(0)
	// writes Doc again.
	Seed   uint64
	Doc    map[string]any
	Schema *schema.Schema
	Value  any
	// Defaults are the defaults a repair of a mutated value may fill from
	// (see Mutate); nil for a valid value.
	Defaults map[string]any
	// Mutated is set for a value made by Mutate, which is usually but not
	// always invalid; a value without it is valid.
	Mutated bool
}

// Pairs calls fn for perSchema valid and perSchema mutated values of each of
// schemas random schemas, the i-th schema from seed base+i, alternating: a
// valid value, then a mutation of it.
func Pairs(base uint64, schemas, perSchema int, fn func(Pair)) {
	for i := range schemas {
		seed := base + uint64(i)
		c := New(seed)
		doc := c.Schema(0)
		s := MustParse(doc)
		for range perSchema {
			v := c.Valid(s, 0)
			fn(Pair{Seed: seed, Doc: doc, Schema: s, Value: v})
			m, defaults := c.Mutate(s, v)
			fn(Pair{Seed: seed, Doc: doc, Schema: s, Value: m, Defaults: defaults, Mutated: true})
		}
	}
}

// JSON renders v as JSON text for a failure message; it never fails (an
// error is rendered in angle brackets instead).
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// Clone is schema.Clone: a deep copy of v's objects and arrays. Values the
// corpus hands out are fresh, but a test that changes one in place keeps a
// Clone to compare with.
func Clone(v any) any { return schema.Clone(v) }
