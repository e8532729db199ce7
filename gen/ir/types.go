package ir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Kind is how a value is represented in Go.
type Kind int

const (
	// Any is runtime/schema's JSON value model.
	Any Kind = iota
	// Struct is a struct of the declared properties.
	Struct
	// Map is map[string]Elem.
	Map
	// Slice is []Elem.
	Slice
	String
	Integer
	Number
	Boolean
	// Nullable is optional.Nullable[Elem].
	Nullable
	// Union is a struct with one optional field per alternative of a union
	// told apart by type.
	Union
	// Variants is a sealed interface, one struct per alternative of a
	// union told apart by the tag property Tag.
	Variants
	// Pointer is *Elem: a recursive definition inside itself.
	Pointer
)

var kindNames = [...]string{"any", "struct", "map", "slice", "string", "integer", "number", "boolean", "nullable", "union", "variants", "pointer"}

func (k Kind) String() string { return kindNames[k] }

// Type is the Go representation of one value of a contract, and what the
// generated code checks of it.
type Type struct {
	Kind Kind
	// Name is the Go type name of a named type: a struct, a string enum,
	// a union, the interface of variants.
	Name string
	// Doc is the description (or title) of the value's schema.
	Doc string
	// Roots are the schemas that apply to the value directly (a
	// property's declaration, a matching patternProperties, ...); Schemas
	// are Roots with everything they reach through $ref and allOf.
	Roots, Schemas []*schema.Schema
	// Mismatch is what the schemas say of a value of a type the Go type
	// does not hold (see Mismatch); empty when none says anything beyond
	// the Go type's own kind.
	Mismatch []Mismatch
	// Checks are the checks of the value the generated code makes, in
	// order (see Check).
	Checks []Check
	// Delegated says the reference validator checks the value against
	// Roots (see the package doc); Reason is why, for the generated doc.
	Delegated bool
	Reason    string

	// Fields of a struct, sorted by JSON name.
	Fields []*Field
	// Extra is the type of the properties a struct does not declare, when
	// a schema applies to them (additionalProperties); Forbidden says an
	// undeclared property is refused (additionalProperties: false).
	Extra     *Type
	Forbidden bool
	// Elem is the element type of a slice or map, the value of a nullable,
	// the target of a pointer.
	Elem *Type
	// Alts are the alternatives of a union or variants; Tag is the tag
	// property of variants.
	Alts []*Alt
	Tag  string
	// Consts are the typed constants of a string enum type: (Go name,
	// value), in enum order.
	Consts [][2]string
	// Def is the $defs entry a named type stands for, or "".
	Def string
	// Owner is the version the type was built for, Source its schema
	// field ("inputSchema", "outputSchema").
	Owner  *Version
	Source string

	pending bool // a definition being typed: a reference to it is a pointer
}

// Mismatch is what one schema says of a value of another type than the Go
// type holds: the message of its type keyword (Kinds), or, for a schema
// without one, the messages of its enum and const, which no value of
// another type can equal. A schema that takes the value's type says
// nothing.
type Mismatch struct {
	Kinds    []schema.Kind
	Messages []string
}

// Field is one property of a struct.
type Field struct {
	JSONName string
	GoName   string
	Type     *Type
	Required bool
	// Forbidden says a schema applying to the object refuses this name
	// (additionalProperties: false where it is not declared): present,
	// it is an error.
	Forbidden bool
	// Index numbers the properties of one object, for the decoder's
	// presence array.
	Index int
}

// Alt is one alternative of a union or of variants.
type Alt struct {
	Type *Type
	// Tag is the tag value that picks it (variants).
	Tag string
	// Kinds are the JSON kinds that pick it (union; see schema.Union).
	Kinds []schema.Kind
	// GoName is its field (union) or its constant's suffix (variants).
	GoName string
}

// CheckOp is one kind of compiled check.
type CheckOp int

const (
	CheckMinLength CheckOp = iota
	CheckMaxLength
	CheckPattern
	CheckFormat
	CheckMinimum
	CheckMaximum
	CheckExclusiveMinimum
	CheckExclusiveMaximum
	CheckMultipleOf
	CheckNumberFormat
	CheckConst // of a string, a number or a boolean
	CheckEnum  // of strings, numbers or booleans
	CheckMinItems
	CheckMaxItems
	CheckUnique
	CheckMinProperties
	CheckMaxProperties
	CheckDependentRequired
)

// Check is one compiled check of a value.
type Check struct {
	Op CheckOp
	// N is a count (lengths, items, properties).
	N int
	// Bound is a numeric bound (minimum, multipleOf ...).
	Bound *schema.Bound
	// Name is a format name; for dependentRequired, the trigger.
	Name string
	// Schema is the schema that states the check (patterns and multipleOf
	// are reached through it at run time), Values the enum or const.
	Schema *schema.Schema
	Values []any
	// Message is the error of a check the generated code states inline
	// (enum, const), computed here with runtime/schema's messages.
	Message string
	// Fields is a dependentRequired's (trigger, required) field pairs.
	Trigger  *Field
	Required *Field
}

// Scalar reports whether values of t are Go scalars (string, int64,
// float64, bool), comparable with ==.
func (t *Type) Scalar() bool {
	switch t.Kind {
	case String, Integer, Number, Boolean:
		return true
	}
	return false
}

// Named reports whether t is declared as a Go type of its own.
func (t *Type) Named() bool { return t.Name != "" }

// builder carries the state of one Build.
type builder struct {
	errs Errors
	// The version and schema being typed.
	v          *Version
	key, field string
	prefix     string
	defs       map[*schema.Schema]*Type
	// selfRefs are the pointers made to each definition referred to
	// while it was being typed (see def).
	selfRefs map[*Type][]*Type
	// top is the type of the schema being typed (its root): arguments
	// and results are structs even when they declare no property.
	top       *Type
	usedNames map[string]string // Go type name → what it names, package-wide
	// values is set for schemas on their own (BuildSchema), whose root
	// may be of any type: an object of undeclared properties is a map
	// there, as anywhere below a root.
	values bool
}

func (b *builder) fail(key, field string, path schema.Path, msg string) {
	b.errs = append(b.errs, &NameError{Key: key, Field: field, Path: slices.Clone(path), Msg: msg})
}

func (b *builder) start(v *Version, key, field, prefix string) {
	b.v, b.key, b.field, b.prefix = v, key, field, prefix
	b.defs = map[*schema.Schema]*Type{}
	b.selfRefs = map[*Type][]*Type{}
	if b.usedNames == nil {
		b.usedNames = map[string]string{}
	}
}

// root types the whole document of the current field.
func (b *builder) root(s *schema.Schema, name string) *Type {
	t := &Type{pending: true}
	b.defs[s] = t
	if !b.values {
		b.top = t
	}
	b.fill(t, []*schema.Schema{s}, name)
	b.top = nil
	return t
}

// typeOf types the value that roots apply to; name is the Go name the
// value's type gets if it needs one.
func (b *builder) typeOf(roots []*schema.Schema, name string) *Type {
	if len(roots) == 1 {
		if target := refTarget(roots[0]); target != nil {
			return b.def(target, roots[0])
		}
	}
	t := &Type{}
	b.fill(t, roots, name)
	return t
}

// refTarget returns what s stands for when all it does is refer to a
// schema ($ref, or an allOf of one such), annotations aside; nil otherwise.
func refTarget(s *schema.Schema) *schema.Schema {
	doc, ok := s.Raw().(map[string]any)
	if !ok {
		return nil
	}
	ref, _ := s.Ref()
	allOf := s.AllOf()
	for k := range doc {
		switch {
		case k == "$ref", k == "allOf" && ref == nil && len(allOf) == 1, schema.IsAnnotation(k):
		default:
			return nil
		}
	}
	switch {
	case ref != nil:
		return ref
	case len(allOf) == 1:
		if t := refTarget(allOf[0]); t != nil {
			return t
		}
	}
	return nil
}

// def returns the named type of a schema reached through $ref (a $defs
// entry, usually), typing it the first time.
func (b *builder) def(target, from *schema.Schema) *Type {
	if t, ok := b.defs[target]; ok {
		if t.pending {
			p := &Type{Kind: Pointer, Elem: t, Roots: []*schema.Schema{from}, Schemas: schema.Conjunction(from), Owner: b.v, Source: b.field}
			b.selfRefs[t] = append(b.selfRefs[t], p)
			return p
		}
		return t
	}
	name := b.prefix + defName(target.Location())
	t := &Type{pending: true}
	b.defs[target] = t
	b.fill(t, []*schema.Schema{target}, name)
	if loc := target.Location(); len(loc) == 2 && (loc[0] == "$defs" || loc[0] == "definitions") {
		t.Def = loc[1]
	}
	if refs := b.selfRefs[t]; len(refs) > 0 && !t.Named() && containsUnnamed(t, t) {
		// A definition that contains itself through no named type (an
		// array of itself, a map of itself) has no Go type here: its
		// value is any JSON value, which the reference validator checks
		// against it, and so is every value it was referred to by while
		// it was being typed.
		const reason = "a definition that contains itself other than through an object"
		for _, p := range append(refs, t) {
			*p = Type{Kind: Any, Delegated: true, Reason: reason, Roots: p.Roots, Schemas: p.Schemas, Doc: p.Doc, Def: p.Def, Owner: p.Owner, Source: p.Source}
		}
	}
	return t
}

// containsUnnamed reports whether t holds a pointer to self through types
// that are not named: a Go type that would contain itself without a name
// to refer to itself by.
func containsUnnamed(t, self *Type) bool {
	if t == nil {
		return false
	}
	if t.Kind == Pointer {
		return t.Elem == self
	}
	if t != self && t.Named() {
		return false
	}
	for _, f := range t.Fields {
		if containsUnnamed(f.Type, self) {
			return true
		}
	}
	for _, a := range t.Alts {
		if containsUnnamed(a.Type, self) {
			return true
		}
	}
	return containsUnnamed(t.Extra, self) || containsUnnamed(t.Elem, self)
}

// defName is the Go name of a referenced schema from its location:
// "#/$defs/Address" is Address, "#/properties/a/items" is AItems.
func defName(loc schema.Path) string {
	var parts []string
	for i, seg := range loc {
		switch {
		case (seg == "$defs" || seg == "definitions") && i+1 < len(loc):
		case seg == "properties":
		default:
			parts = append(parts, GoName(seg))
		}
	}
	if len(parts) == 0 {
		return "Root"
	}
	return strings.Join(parts, "")
}

// name reserves a Go type name, adding a number when it is taken.
func (b *builder) name(want, what string) string {
	name := want
	for i := 2; ; i++ {
		if _, taken := b.usedNames[name]; !taken {
			break
		}
		name = fmt.Sprintf("%s%d", want, i)
	}
	b.usedNames[name] = what
	return name
}

// fill types t for roots.
func (b *builder) fill(t *Type, roots []*schema.Schema, name string) {
	conj := schema.Conjunction(roots...)
	t.Roots, t.Schemas, t.Owner, t.Source = roots, conj, b.v, b.field
	t.Doc = docOf(roots)
	defer func() { t.pending = false }()
	if !slices.ContainsFunc(conj, func(s *schema.Schema) bool { return !s.IsTrue() }) {
		t.Kind = Any // nothing constrains the value
		return
	}
	t.Mismatch = mismatches(conj)
	reasons := delegationReasons(conj)
	if u, owner := typingUnion(conj); u != nil {
		if b.union(t, owner, u, name) {
			return
		}
		reasons = append(reasons, "a union beside other constraints")
	} else if hasUnion(conj) {
		reasons = append(reasons, "a union tried one alternative at a time")
	}
	admitted := schema.Admitted(conj)
	family, nullable := families(admitted)
	switch {
	case nullable && family != Any:
		inner := &Type{}
		b.shape(inner, conj, family, name)
		inner.Roots, inner.Schemas, inner.Owner, inner.Source = roots, conj, b.v, b.field
		inner.Mismatch = t.Mismatch
		t.Kind, t.Elem = Nullable, inner
	case family != Any:
		b.shape(t, conj, family, name)
	default:
		t.Kind = Any
		if admitted != 0 || !isFalse(conj) {
			reasons = append(reasons, "no one Go type holds its values")
		} else {
			reasons = append(reasons, "no value is valid")
		}
	}
	if t.Delegated { // decided while shaping it
		reasons = append(reasons, t.Reason)
	}
	if len(reasons) > 0 || t.Kind == Any {
		t.Delegated, t.Reason = true, strings.Join(reasons, "; ")
		if t.Reason == "" {
			t.Reason = "any JSON value"
		}
	}
}

func isFalse(conj []*schema.Schema) bool {
	return slices.ContainsFunc(conj, func(s *schema.Schema) bool { return s.IsFalse() })
}

func docOf(roots []*schema.Schema) string {
	for _, s := range schema.Conjunction(roots...) {
		if d := s.Description(); d != "" {
			return d
		}
		if d := s.Title(); d != "" {
			return d
		}
	}
	return ""
}

// mismatches is what the schemas of conj say of a value of another type
// (see Mismatch), each different thing once.
func mismatches(conj []*schema.Schema) []Mismatch {
	var out []Mismatch
	for _, s := range conj {
		m := Mismatch{Kinds: s.Types()}
		if len(m.Kinds) == 0 {
			if v, ok := s.Const(); ok {
				m.Messages = append(m.Messages, schema.MsgConst(v))
			}
			if vs, ok := s.Enum(); ok {
				m.Messages = append(m.Messages, schema.MsgEnum(vs))
			}
		}
		if (len(m.Kinds) > 0 || len(m.Messages) > 0) && !slices.ContainsFunc(out, func(o Mismatch) bool {
			return slices.Equal(o.Kinds, m.Kinds) && slices.Equal(o.Messages, m.Messages)
		}) {
			out = append(out, m)
		}
	}
	return out
}

// families sorts what a value may be into the Go type that holds it (Any
// when none does) and whether null is allowed besides.
func families(k schema.KindSet) (Kind, bool) {
	nullable := k.Has(schema.KindNull)
	var found []Kind
	if k.Has(schema.KindObject) {
		found = append(found, Struct)
	}
	if k.Has(schema.KindArray) {
		found = append(found, Slice)
	}
	if k.Has(schema.KindString) {
		found = append(found, String)
	}
	if k.Has(schema.KindBoolean) {
		found = append(found, Boolean)
	}
	switch {
	case k.Has(schema.KindNumber):
		found = append(found, Number)
	case k.Has(schema.KindInteger):
		found = append(found, Integer)
	}
	if len(found) != 1 {
		return Any, nullable
	}
	return found[0], nullable
}

// delegationReasons lists what in conj the generated code does not compile.
func delegationReasons(conj []*schema.Schema) []string {
	var out []string
	add := func(why string) {
		if !slices.Contains(out, why) {
			out = append(out, why)
		}
	}
	for _, s := range conj {
		if s.Not() != nil {
			add("not")
		}
		if s.If() != nil {
			add("if/then/else")
		}
		if s.Contains() != nil {
			add("contains")
		}
		if len(s.PrefixItems()) > 0 {
			add("prefixItems")
		}
		if s.UnevaluatedItems() != nil {
			add("unevaluatedItems")
		}
		if s.UnevaluatedProperties() != nil {
			add("unevaluatedProperties")
		}
		if s.PropertyNamesSchema() != nil {
			add("propertyNames")
		}
		if len(s.DependentSchemas()) > 0 {
			add("dependentSchemas")
		}
		if len(s.PatternProperties()) > 0 {
			add("patternProperties")
		}
		if s.IsFalse() {
			add("the schema false")
		}
		for _, v := range constValues(s) {
			if k := schema.KindOf(v); k == schema.KindObject || k == schema.KindArray || k == schema.KindNull {
				add("enum or const of an object, an array or null")
			}
		}
	}
	return out
}

func constValues(s *schema.Schema) []any {
	var out []any
	if v, ok := s.Const(); ok {
		out = append(out, v)
	}
	if vs, ok := s.Enum(); ok {
		out = append(out, vs...)
	}
	return out
}

// hasUnion reports whether a schema of conj has anyOf or oneOf.
func hasUnion(conj []*schema.Schema) bool {
	return slices.ContainsFunc(conj, func(s *schema.Schema) bool { return len(s.AnyOf()) > 0 || len(s.OneOf()) > 0 })
}

// typingUnion returns the union that types the value: the one anyOf or
// oneOf of conj, when it is told apart by type or by a tag.
func typingUnion(conj []*schema.Schema) (*schema.Union, *schema.Schema) {
	var found *schema.Union
	var owner *schema.Schema
	n := 0
	for _, s := range conj {
		for _, u := range []*schema.Union{s.AnyOfUnion(), s.OneOfUnion()} {
			if u != nil {
				n++
				found, owner = u, s
			}
		}
	}
	if n != 1 || found.Kind == schema.UnionGeneral {
		return nil, nil
	}
	return found, owner
}

// union types t from the union u of owner, when nothing else in the
// conjunction constrains the value (annotations and a matching type aside):
// a nullable value, a union or variants. It reports false otherwise.
func (b *builder) union(t *Type, owner *schema.Schema, u *schema.Union, name string) bool {
	for _, s := range t.Schemas {
		if !onlyUnion(s, s == owner) {
			return false
		}
	}
	alts := owner.AnyOf()
	if len(alts) == 0 {
		alts = owner.OneOf()
	}
	switch u.Kind {
	case schema.UnionByType:
		if len(alts) == 2 {
			for i, k := range u.Kinds {
				if len(k) == 1 && k[0] == schema.KindNull {
					inner := b.typeOf([]*schema.Schema{alts[1-i]}, name)
					t.Kind, t.Elem, t.Mismatch = Nullable, inner, []Mismatch{{Kinds: u.TypeNames()}}
					return true
				}
			}
		}
		t.Kind, t.Name, t.Mismatch = Union, b.name(name, "union"), []Mismatch{{Kinds: u.TypeNames()}}
		for i, a := range alts {
			alt := &Alt{Kinds: u.Kinds[i], GoName: kindsGoName(u.Kinds[i])}
			alt.Type = b.typeOf([]*schema.Schema{a}, name+alt.GoName)
			t.Alts = append(t.Alts, alt)
		}
		return true
	case schema.UnionByProperty:
		t.Kind, t.Name, t.Tag = Variants, b.name(name, "variants"), u.Property
		for i, a := range alts {
			alt := &Alt{Tag: u.Tags[i], GoName: GoName(u.Tags[i])}
			alt.Type = b.typeOf([]*schema.Schema{a}, name+alt.GoName)
			if alt.Type.Kind == Pointer {
				alt.Type = alt.Type.Elem
			}
			if alt.Type.Kind != Struct {
				return false
			}
			t.Alts = append(t.Alts, alt)
		}
		return true
	}
	return false
}

// onlyUnion reports whether s constrains nothing beside a union (when it
// owns it) and a type keyword.
func onlyUnion(s *schema.Schema, owner bool) bool {
	doc, ok := s.Raw().(map[string]any)
	if !ok {
		return !s.IsFalse()
	}
	for k := range doc {
		switch {
		case schema.IsAnnotation(k), k == "type", k == "discriminator", k == "$defs", k == "definitions", k == "$id", k == "$anchor", k == "$schema":
		case owner && (k == "anyOf" || k == "oneOf"):
		case k == "$ref", k == "allOf":
			// The referenced schemas are in the conjunction themselves.
		default:
			return false
		}
	}
	return true
}

// kindsGoName names a union alternative by the kinds it accepts.
func kindsGoName(kinds []schema.Kind) string {
	var b strings.Builder
	for _, k := range kinds {
		switch k {
		case schema.KindNumber:
			if !slices.Contains(kinds, schema.KindInteger) {
				b.WriteString("Number")
			}
		case schema.KindInteger:
			if slices.Contains(kinds, schema.KindNumber) {
				b.WriteString("Number")
			} else {
				b.WriteString("Integer")
			}
		default:
			b.WriteString(GoName(k.String()))
		}
	}
	return b.String()
}

// shape types t as family (not null) from conj and adds its checks.
func (b *builder) shape(t *Type, conj []*schema.Schema, family Kind, name string) {
	t.Kind = family
	switch family {
	case Struct:
		b.object(t, conj, name)
	case Slice:
		b.array(t, conj, name)
	case String:
		b.stringChecks(t, conj, name)
	case Integer, Number:
		b.numberChecks(t, conj)
	case Boolean:
		b.equalityChecks(t, conj, func(v any) bool { _, ok := v.(bool); return ok })
	}
}

func (b *builder) object(t *Type, conj []*schema.Schema, name string) {
	declared, required := map[string]bool{}, map[string]bool{}
	var names []string
	addName := func(n string) {
		if !declared[n] {
			declared[n] = true
			names = append(names, n)
		}
	}
	for _, s := range conj {
		for _, n := range s.PropertyNames() {
			addName(n)
		}
		for _, n := range s.Required() {
			addName(n)
			required[n] = true
		}
		for trigger, deps := range s.DependentRequired() {
			addName(trigger)
			for _, d := range deps {
				addName(d)
			}
		}
	}
	slices.Sort(names)
	closed := false
	var extraRoots []*schema.Schema
	for _, s := range conj {
		switch ap := s.AdditionalProperties(); {
		case ap == nil:
		case ap.IsFalse():
			closed = true
		case ap.IsTrue():
			// additionalProperties: true (or {}) says nothing.
		default:
			extraRoots = append(extraRoots, ap)
		}
	}
	var patternRoots []*schema.Schema
	for _, s := range conj {
		for _, p := range s.PatternProperties() {
			patternRoots = append(patternRoots, p.Schema)
		}
	}
	// undeclared is the type of a property the object does not declare:
	// the one schema that applies to every such property, when there is
	// one; otherwise any JSON value (patternProperties are checked by the
	// reference validator, which the type then only has to hold).
	undeclared := func(name string) *Type {
		switch {
		case len(patternRoots) == 0:
			return b.typeOf(extraRoots, name)
		case closed && len(patternRoots) == 1:
			return b.typeOf(patternRoots, name)
		}
		return b.typeOf(nil, name)
	}
	if len(names) == 0 && (!closed || len(patternRoots) > 0) && (t != b.top || enumerated(conj)) {
		// An object of undeclared properties: a map. At the root it
		// stays a struct, with no fields (MCP's arguments and results
		// are objects, and a tool without arguments publishes
		// {type: object}): the properties it does not declare are
		// allowed, as the schema says, and not kept.
		t.Kind = Map
		t.Elem = undeclared(name + "Value")
		b.objectChecks(t, conj)
		return
	}
	t.Name = b.name(name, "struct")
	goNames := map[string]string{}
	for i, n := range names {
		f := &Field{JSONName: n, GoName: GoName(n), Index: i, Required: required[n]}
		if other, dup := goNames[f.GoName]; dup {
			b.fail(b.key, b.field, at(conj[0].Location(), "properties", n), fmt.Sprintf("properties %q and %q both become the Go field %s; rename one", other, n, f.GoName))
			continue
		}
		if f.GoName == "AdditionalProperties" && (len(extraRoots) > 0 || len(patternRoots) > 0) {
			b.fail(b.key, b.field, at(conj[0].Location(), "properties", n), "a property named like the field that holds undeclared properties; rename it")
		}
		goNames[f.GoName] = n
		var roots []*schema.Schema
		for _, r := range schema.PropertySchemas(conj, n) {
			if r.IsFalse() && isAdditional(conj, r) {
				f.Forbidden = true
				continue
			}
			roots = append(roots, r)
		}
		f.Type = b.typeOf(roots, t.Name+f.GoName)
		t.Fields = append(t.Fields, f)
	}
	t.Forbidden = closed && len(patternRoots) == 0
	if len(extraRoots) > 0 || len(patternRoots) > 0 {
		t.Extra = undeclared(t.Name + "Value")
	}
	b.objectChecks(t, conj)
}

// enumerated reports whether a schema of conj lists the values it admits
// (enum or const): such an object is no struct of properties.
func enumerated(conj []*schema.Schema) bool {
	return slices.ContainsFunc(conj, func(s *schema.Schema) bool {
		_, isEnum := s.Enum()
		_, isConst := s.Const()
		return isEnum || isConst
	})
}

// isAdditional reports whether r is the additionalProperties of a schema
// of conj (so that refusing a name is "additional property is not allowed").
func isAdditional(conj []*schema.Schema, r *schema.Schema) bool {
	return slices.ContainsFunc(conj, func(s *schema.Schema) bool { return s.AdditionalProperties() == r })
}

func at(loc schema.Path, seg ...string) schema.Path { return append(slices.Clone(loc), seg...) }

func (b *builder) objectChecks(t *Type, conj []*schema.Schema) {
	for _, s := range conj {
		if n := s.MinProperties(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMinProperties, N: *n})
		}
		if n := s.MaxProperties(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMaxProperties, N: *n})
		}
		deps := s.DependentRequired()
		for _, trigger := range sortedKeys(deps) {
			for _, d := range deps[trigger] {
				t.Checks = append(t.Checks, Check{Op: CheckDependentRequired, Name: trigger, Trigger: t.field(trigger), Required: t.field(d)})
			}
		}
	}
}

func (t *Type) field(name string) *Field {
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

func (b *builder) array(t *Type, conj []*schema.Schema, name string) {
	t.Elem = b.typeOf(schema.ElementSchemas(conj, -1), name+"Item")
	for _, s := range conj {
		if n := s.MinItems(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMinItems, N: *n})
		}
		if n := s.MaxItems(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMaxItems, N: *n})
		}
		if s.UniqueItems() {
			t.Checks = append(t.Checks, Check{Op: CheckUnique})
			if !t.Elem.Scalar() {
				// Equality of objects and arrays is JSON-value equality,
				// which the reference validator decides.
				t.Delegated, t.Reason = true, "uniqueItems over values that are not scalars"
			}
		}
	}
}

func (b *builder) stringChecks(t *Type, conj []*schema.Schema, name string) {
	for _, s := range conj {
		if n := s.MinLength(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMinLength, N: *n})
		}
		if n := s.MaxLength(); n != nil {
			t.Checks = append(t.Checks, Check{Op: CheckMaxLength, N: *n})
		}
		if s.Pattern() != nil {
			t.Checks = append(t.Checks, Check{Op: CheckPattern, Schema: s})
		}
		if f, asserted := s.Format(); asserted {
			if _, ok := schema.StringFormat(f); ok {
				t.Checks = append(t.Checks, Check{Op: CheckFormat, Name: f})
			}
		}
	}
	b.equalityChecks(t, conj, func(v any) bool { _, ok := v.(string); return ok })
	// A string enum stated once, with nothing else comparing the value,
	// is a named type with a constant per value.
	var enums []Check
	for _, c := range t.Checks {
		if c.Op == CheckEnum || c.Op == CheckConst {
			enums = append(enums, c)
		}
	}
	if len(enums) == 1 && enums[0].Op == CheckEnum {
		t.Name = b.name(name, "enum")
		used := map[string]bool{}
		for i, v := range enums[0].Values {
			s, ok := v.(string)
			if !ok {
				continue
			}
			n := t.Name + enumWord(s)
			if used[n] {
				n = fmt.Sprintf("%s%d", n, i)
			}
			used[n] = true
			t.Consts = append(t.Consts, [2]string{n, s})
		}
	}
}

func (b *builder) numberChecks(t *Type, conj []*schema.Schema) {
	for _, s := range conj {
		for _, c := range []struct {
			op    CheckOp
			bound *schema.Bound
		}{
			{CheckMinimum, s.Minimum()}, {CheckMaximum, s.Maximum()},
			{CheckExclusiveMinimum, s.ExclusiveMinimum()}, {CheckExclusiveMaximum, s.ExclusiveMaximum()},
			{CheckMultipleOf, s.MultipleOf()},
		} {
			if c.bound != nil {
				t.Checks = append(t.Checks, Check{Op: c.op, Bound: c.bound, Schema: s})
			}
		}
		if f, asserted := s.Format(); asserted {
			if _, ok := schema.NumberFormat(f); ok {
				t.Checks = append(t.Checks, Check{Op: CheckNumberFormat, Name: f})
			}
		}
	}
	b.equalityChecks(t, conj, func(v any) bool {
		k := schema.KindOf(v)
		return k == schema.KindInteger || k == schema.KindNumber
	})
}

// equalityChecks adds the enum and const checks; values of another kind
// than the Go type's (sameKind false) can never be equal to the value and
// are left out of the comparison, not out of the message.
func (b *builder) equalityChecks(t *Type, conj []*schema.Schema, sameKind func(any) bool) {
	for _, s := range conj {
		if v, ok := s.Const(); ok {
			c := Check{Op: CheckConst, Message: schema.MsgConst(v), Schema: s}
			if sameKind(v) {
				c.Values = []any{v}
			}
			t.Checks = append(t.Checks, c)
		}
		if vs, ok := s.Enum(); ok {
			c := Check{Op: CheckEnum, Message: schema.MsgEnum(vs), Schema: s}
			for _, v := range vs {
				if sameKind(v) {
					c.Values = append(c.Values, v)
				}
			}
			t.Checks = append(t.Checks, c)
		}
	}
}

// enumWord is the Go word for an enum value: codes written in capitals stay
// as they are (AED, USD), anything else goes through GoName.
func enumWord(s string) string {
	if s == "" {
		return "Empty"
	}
	upper := true
	for i, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && i > 0) {
			upper = false
			break
		}
	}
	if upper {
		return s
	}
	return GoName(s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// NumberLiterals returns the JSON literals of the numbers among values,
// as written (exact beyond 2^53).
func NumberLiterals(values []any) []string {
	var out []string
	for _, v := range values {
		switch n := v.(type) {
		case interface{ String() string }:
			out = append(out, n.String())
		default:
			if c, err := schema.CanonicalJSON(v); err == nil {
				out = append(out, string(c))
			}
		}
	}
	return out
}

// ExactInts converts number literals that denote integers exactly (1, 2.0,
// 1e3 below 2^53) to int64, leaving out fractions no integer equals; any
// other literal makes an integer switch unusable (ok false).
func ExactInts(lits []string) (ints []int64, ok bool) {
	seen := map[int64]bool{}
	for _, lit := range lits {
		var v int64
		if schema.IsIntegerLiteral(lit) {
			x, err := strconv.ParseInt(lit, 10, 64)
			if err != nil {
				return nil, false
			}
			v = x
		} else {
			f, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				return nil, false
			}
			if f != math.Trunc(f) {
				continue
			}
			if math.Abs(f) >= 1<<53 {
				return nil, false
			}
			v = int64(f)
		}
		if !seen[v] {
			seen[v] = true
			ints = append(ints, v)
		}
	}
	return ints, len(ints) > 0
}
