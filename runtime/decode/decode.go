// Package decode is what generated decoders call: a Reader that reads one
// JSON value and validates it in the same pass, locations that become "$.a.b[2]" paths only when an error needs
// one, and one small helper per check, each reporting with the reference
// validator's message (runtime/schema), so the generated code and the
// reference cannot drift apart.
//
// # Strictness
//
// Input reaches a generated decoder in one of two ways. Through the server,
// whose strict scanner (runtime/internal/textdec) has already checked the
// whole message in one pass: grammar, UTF-8, escaped lone surrogates,
// repeated member names at every depth. Or through a package's exported
// Decode function, whose Reader checks the grammar, the escapes and the
// UTF-8 of each string as it reads (see lexer). A repeated
// declared property is then found in the pass that decodes (its seen
// flag); input that holds names no schema declares is handed to the same
// strict scanner once, at Finish, for repeats among them. Either way a
// value has one reading: a gateway that keeps the first of two "amount"
// members and a handler that keeps the last cannot disagree.
//
// # Errors
//
// A syntax error stops the reading: it is kept (the first one) and every
// read after it returns at once, so generated code does not check an error
// after each call; Run returns it. Validation errors are collected, at most
// schema.MaxErrors of them with a note saying how many more were found.
package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Loc is the location of the value being decoded. Locations link to their
// parent and live on the stack of the decoding functions; the path string is
// built only when an error is reported, so valid input costs nothing. The
// nil *Loc is the root, "$".
type Loc struct {
	parent *Loc
	name   string
	// rootPath is the whole path when parent is the root and the
	// generator wrote it out (see Object.Field).
	rootPath string
	index    int
	isElem   bool
}

// Field is the location of property name under parent: rootPath is the path
// the property has when parent is the root ("$.name", written out at
// generation time), so that an error in a top-level property, the common
// case, builds no string.
func Field(parent *Loc, name, rootPath string) Loc {
	return Loc{parent: parent, name: name, rootPath: rootPath}
}

// Elem is the location of element i under parent.
func Elem(parent *Loc, i int) Loc { return Loc{parent: parent, index: i, isElem: true} }

// String renders the path: "$", "$.a", "$.a[2].b", as the reference
// validator writes it (schema.PropertyPath, schema.IndexPath), in one
// string however deep the location: the levels are appended to one
// buffer on the stack.
func (l *Loc) String() string {
	if l == nil {
		return "$"
	}
	if l.parent == nil && l.rootPath != "" {
		return l.rootPath
	}
	var buf [128]byte
	return string(l.appendPath(buf[:0]))
}

// appendPath appends the path of l to dst.
func (l *Loc) appendPath(dst []byte) []byte {
	switch {
	case l == nil:
		return append(dst, '$')
	case l.parent == nil && l.rootPath != "":
		return append(dst, l.rootPath...)
	}
	dst = l.parent.appendPath(dst)
	if l.isElem {
		return schema.AppendIndexPath(dst, l.index)
	}
	return schema.AppendPropertyPath(dst, l.name)
}

// Syntax errors: input that is not one well-formed JSON value with one
// reading. They are returned as the decoder's error, apart from the
// validation errors, exactly where schema.DecodeJSON would refuse the input.
var (
	// ErrTrailingData: something other than whitespace after the value.
	ErrTrailingData = schema.ErrTrailingData
	// ErrInvalidUTF8: a string that is not valid UTF-8 (errors.Is; the
	// error says where).
	ErrInvalidUTF8 = textdec.ErrInvalidUTF8
	// ErrDuplicateName: a member name that repeats one of the same object
	// (errors.Is; the error says which, and where).
	ErrDuplicateName = textdec.ErrDuplicateName
)

// Reader reads one JSON value and collects the validation errors found in
// it. A generated type's DecodeFrom method reads its value from a Reader.
type Reader struct {
	lx    lexer
	err   error
	c     *schema.Collector
	own   schema.Collector
	data  []byte // the input, for failSyntax
	quiet bool   // fill values without reporting (see Quiet)
	num   []byte // the last number read, as written
	// slots are the locations of the current members and elements of the
	// objects and arrays being read, one per level (the lexer's depth,
	// see Members).
	slots []*[slotChunk]Loc
	// levels is how many levels of slots this reading used: Release
	// clears only those (a chunk cleared whole is 16 locations of
	// pointers, write barriers and all, for the one or two levels a
	// typical call has).
	levels int
	// undeclared is set when a member name no schema declares was read, or
	// an object skipped: Finish then looks for repeated names in the whole
	// input, unless the lexer's distinct says there are none
	// (BeginChecked).
	undeclared bool
	// copied is the copy of data the strings read share (see text). It
	// is bytes, not a string, because the paths of undeclared members are
	// written into it, over bytes no string covers (see memberPath).
	copied []byte
	// ownBytes is how many bytes of short strings were given allocations
	// of their own while no copy was made (see tinyText).
	ownBytes int
	// last is the last string Str returned, and lastRunes its code points
	// as the lexer counted them (or -1): a length check of it needs no
	// count of its own (see codePoints).
	last      string
	lastRunes int
	// outer is the Reader a sub-reader (On, Quiet) reads part of: its
	// strings share outer's copy. Nil for a Reader of a whole input.
	outer *Reader
	// dropped says the value read is dropped when the reading ends (see
	// Checker): a string without escapes is then the input's own bytes,
	// neither copied nor sharing a copy.
	dropped bool
}

var readers = sync.Pool{New: func() any { return new(Reader) }}

// NewReader returns a Reader of data, from a pool; Release returns it.
func NewReader(data []byte) *Reader {
	r := readers.Get().(*Reader)
	r.lx.reset(data)
	r.data = data
	r.c = &r.own
	return r
}

// Release returns r to the pool. r must not be used after.
func (r *Reader) Release() {
	r.lx.reset(nil)
	r.data, r.copied, r.ownBytes, r.outer, r.last, r.lastRunes = nil, nil, 0, nil, "", 0
	r.err, r.quiet, r.num, r.undeclared, r.dropped = nil, false, nil, false, false
	if len(r.slots) > 4 {
		r.slots = nil // a deep input's levels are not kept for the next
	}
	for d := range min(r.levels, len(r.slots)*slotChunk) {
		r.slots[d/slotChunk][d%slotChunk] = Loc{}
	}
	r.levels = 0
	r.own.Reset()
	r.c = nil
	readers.Put(r)
}

// Decodable is a generated type that reads itself from a Reader.
type Decodable[T any] interface {
	*T
	// DecodeFrom reads the value at at from r, adding the errors found.
	DecodeFrom(r *Reader, at *Loc)
}

// Begin starts reading data for a generated Decode function, a Reader of
// data that checks it as it reads; Finish ends it. A generated Decode
// function is
//
//	r := decode.Begin(data)
//	v.DecodeFrom(r, nil)
//	errs, err = r.Finish()
//
// which returns the value, every schema violation sorted by (path,
// message) (the value is only meaningful when there are none), and, apart
// from them, err for input that is not one well-formed JSON value. (A
// generic Run would do the same in one line, but the value would escape to
// the heap through the type parameter's method: an allocation per call.)
func Begin(data []byte) *Reader { return NewReader(data) }

// BeginChecked is Begin for input already read strictly, as the server's
// envelope reader reads every message before its arguments reach a
// validator: the bytes are not scanned twice, and member names, which
// that reader found distinct in every object, are not tracked again.
func BeginChecked(data []byte) *Reader {
	r := NewReader(data)
	r.lx.distinct = true
	return r
}

// Finish checks that nothing but whitespace follows the value, returns the
// errors found (or the syntax error) and gives r back to the pool. Input
// that held member names no schema declares is checked for repeated names
// here, in one pass of the strict scanner over the whole input: the
// Reader refused repeats of declared names as it read them.
func (r *Reader) Finish() (schema.Errors, error) {
	r.End()
	if r.err == nil && r.undeclared && !r.lx.distinct {
		r.fail(textdec.Validate(r.data))
	}
	err := r.err
	var errs schema.Errors
	if err == nil {
		errs = r.c.Copy()
	}
	r.Release()
	return errs, err
}

// Run is Begin, T's DecodeFrom and Finish in one call, for code that is not
// on the hot path (tests, tools).
func Run[T any, P Decodable[T]](data []byte) (v T, errs schema.Errors, err error) {
	r := Begin(data)
	P(&v).DecodeFrom(r, nil)
	errs, err = r.Finish()
	return v, errs, err
}

// RunChecked is Run for input already read strictly (see BeginChecked).
func RunChecked[T any, P Decodable[T]](data []byte) (v T, errs schema.Errors, err error) {
	errs, err = readChecked[T, P](data, &v)
	return v, errs, err
}

// readChecked reads data, read strictly already, into v: BeginChecked,
// v's DecodeFrom and Finish.
func readChecked[T any, P Decodable[T]](data []byte, v *T) (schema.Errors, error) {
	r := BeginChecked(data)
	P(v).DecodeFrom(r, nil)
	return r.Finish()
}

// Validator is RunChecked in the server's validator shape (mcp.Validator):
// the typed value, as a *T, and the sorted violations. Input that is not
// well-formed JSON cannot reach a validator through the server, whose
// envelope rules are at least as strict; should it happen, it is reported
// as one violation at "$" rather than a panic.
//
// The value is a pointer (mcp.TypedTool takes either): a value read
// through the type parameter's method is on the heap already (the call
// takes it there), and a T put into the any would be copied there once
// more, a second allocation every call.
func Validator[T any, P Decodable[T]]() func(raw json.RawMessage) (any, schema.Errors) {
	return func(raw json.RawMessage) (any, schema.Errors) {
		v := new(T)
		errs, err := readChecked[T, P](raw, v)
		if err != nil {
			return nil, malformed(err)
		}
		return v, errs
	}
}

// Err is the first syntax error met, or nil.
func (r *Reader) Err() error { return r.err }

// fail keeps err if it is the first syntax error.
func (r *Reader) fail(err error) {
	if r.err == nil && err != nil {
		r.err = err
	}
}

// slotChunk is how many levels of locations a Reader allocates at once.
const slotChunk = 16

// slot is the location of the current member or element of the object or
// array open at level d. Its address never changes, as the locations of
// deeper values link to it.
func (r *Reader) slot(d int) *Loc {
	if d >= r.levels {
		r.levels = d + 1
		for d >= len(r.slots)*slotChunk {
			r.slots = append(r.slots, new([slotChunk]Loc))
		}
	}
	return &r.slots[d/slotChunk][d%slotChunk]
}

// failSyntax records why the input is not well formed, found again by the
// strict scanner on a copy of it (the error path only: the lexer only
// says that it is not).
func (r *Reader) failSyntax() {
	if r.err != nil {
		return
	}
	err := textdec.Validate(bytes.Clone(r.data))
	if err == nil {
		err = errMalformed
	}
	r.err = err
}

var errMalformed = errors.New("malformed JSON")

// End checks that nothing but whitespace follows the value.
func (r *Reader) End() {
	if r.err != nil {
		return
	}
	r.lx.skipSpace()
	if r.lx.pos < len(r.lx.data) {
		r.fail(ErrTrailingData)
	}
}

// Fail adds the error msg at at.
func (r *Reader) Fail(at *Loc, msg string) {
	if !r.quiet {
		r.c.Add(at.String(), msg)
	}
}

// FailProp adds the error msg at property name of at.
func (r *Reader) FailProp(at *Loc, name, msg string) { failProp(r, at, name, msg) }

// failProp is FailProp for a name given as a string or as its bytes as
// read (an undeclared member's, see failMember): the path is the one
// string made, where a string of the name first would be two (or a copy
// of the whole input, see text).
func failProp[Name ~string | ~[]byte](r *Reader, at *Loc, name Name, msg string) {
	if !r.quiet {
		var buf [128]byte
		r.c.Add(string(schema.AppendPropertyPath(at.appendPath(buf[:0]), name)), msg)
	}
}

// next is the JSON type of the next value (tInvalid after an error).
func (r *Reader) next() jsonType {
	if r.err != nil {
		return tInvalid
	}
	return r.lx.next()
}

// Kind is the schema kind of the next value, without consuming it: a
// number's literal is read to tell an integer from a number. It picks the
// alternative of a union told apart by type.
func (r *Reader) Kind() schema.Kind {
	switch r.next() {
	case tNull:
		return schema.KindNull
	case tBool:
		return schema.KindBoolean
	case tString:
		return schema.KindString
	case tArray:
		return schema.KindArray
	case tObject:
		return schema.KindObject
	case tNumber:
		at := r.lx.pos
		n, ok := r.lx.num()
		r.lx.pos = at
		if !ok {
			r.failSyntax()
			return schema.KindInvalid
		}
		return numKind(n)
	}
	return schema.KindInvalid
}

func numKind(n []byte) schema.Kind {
	if schema.IsIntegerLiteral(n) {
		return schema.KindInteger
	}
	return schema.KindNumber
}

// Types is what the schemas of a value say of a value of another type than
// its Go type holds: a declared type list (TypesOf), whose message for
// every kind a value can have is computed once (a mismatch is the most
// common violation); the messages of an enum or a const, which no value of
// another type equals (Values); or several such, one per schema (All).
type Types struct {
	kinds  []schema.Kind
	msg    [schema.KindObject + 1]string
	values []string
	parts  []*Types
}

// TypesOf is the declared type list kinds.
func TypesOf(kinds ...schema.Kind) *Types {
	t := &Types{kinds: kinds}
	for got := range t.msg {
		t.msg[got] = schema.MsgType(kinds, schema.Kind(got))
	}
	return t
}

// Values is an enum's or a const's messages, for a schema without a type
// keyword.
func Values(messages ...string) *Types { return &Types{values: messages} }

// All is what several schemas say, each for itself.
func All(parts ...*Types) *Types { return &Types{parts: parts} }

// report adds what t says of a value of kind k at at.
func (t *Types) report(r *Reader, at *Loc, k schema.Kind) {
	switch {
	case t.parts != nil:
		for _, p := range t.parts {
			p.report(r, at, k)
		}
	case t.values != nil:
		for _, m := range t.values {
			r.Fail(at, m)
		}
	case !allows(t.kinds, k):
		r.Fail(at, t.msg[k])
	}
}

func allows(kinds []schema.Kind, k schema.Kind) bool {
	for _, want := range kinds {
		if want == k || (want == schema.KindNumber && k == schema.KindInteger) {
			return true
		}
	}
	return false
}

// The single declared types.
var (
	Null    = TypesOf(schema.KindNull)
	Boolean = TypesOf(schema.KindBoolean)
	Integer = TypesOf(schema.KindInteger)
	Number  = TypesOf(schema.KindNumber)
	String  = TypesOf(schema.KindString)
	Array   = TypesOf(schema.KindArray)
	Object  = TypesOf(schema.KindObject)
)

// Mismatch reports the next value as not of a type the Go type holds, at
// at, with what t says of it, and skips it. After it nothing else is
// checked for that value.
func (r *Reader) Mismatch(at *Loc, t *Types) {
	k := r.Kind()
	r.Skip()
	if r.err == nil {
		t.report(r, at, k)
	}
}

// expect reports whether the next value has the JSON type want, reporting
// it as a mismatch with t (and skipping it) otherwise.
func (r *Reader) expect(at *Loc, want jsonType, t *Types) bool {
	if r.err != nil {
		return false
	}
	if r.lx.next() != want {
		r.Mismatch(at, t)
		return false
	}
	return true
}

// IsNull reads a null if the next value is one.
func (r *Reader) IsNull() bool {
	if r.next() != tNull {
		return false
	}
	if !r.lx.literal("null") {
		r.failSyntax()
	}
	return r.err == nil
}

// Str reads a string of declared types t; ok is false (the error reported)
// when the next value is not a string. Its encoding needs no second look:
// the lexer (or the server's envelope reader) has refused invalid UTF-8,
// and unescaping produces valid UTF-8 from valid input.
func (r *Reader) Str(at *Loc, t *Types) (s string, ok bool) {
	if !r.expect(at, tString, t) {
		return "", false
	}
	b, ok := r.lx.str()
	if !ok {
		r.failSyntax()
		return "", false
	}
	s = r.text(b)
	r.last, r.lastRunes = s, r.lx.runes
	return s, true
}

// tinyText and tinyBudget: a string shorter than tinyText bytes is an
// allocation of its own rather than a piece of the input's copy, as long
// as no copy was made and such strings came to tinyBudget bytes at most.
// The runtime packs strings this short into shared 16-byte blocks, so one
// or two of them cost less than the copy, which a value of one short
// string (an id, a reference), or a refused member's path, would otherwise
// pay for whole; past the budget the copy is made, and every string after
// shares it.
const (
	tinyText   = 16
	tinyBudget = 32
)

// ownString reports whether a string of n bytes, read (or a path made)
// by r, a Reader of a whole input, is to be an allocation of its own (see
// tinyText), counting it against the budget when it is.
func (r *Reader) ownString(n int) bool {
	if r.copied != nil || n >= tinyText || r.ownBytes+n > tinyBudget {
		return false
	}
	r.ownBytes += n
	return true
}

// sharedText is the largest input whose strings share one copy of it (see
// Reader.text).
const sharedText = 16 << 10

// text returns b, a string just read, as a Go string. A string written
// without escapes lies in the input as it is: when the input is small,
// such strings of one reading are substrings of one copy of the input,
// made at the first that is not short (see tinyText), so that a value of
// many strings costs one allocation instead of one each. A value's
// strings then keep that copy alive, at most sharedText bytes, as long as
// any of them lives. Strings with escapes, and every string of a larger
// input (where one short string should not keep a large copy), are
// copied on their own.
func (r *Reader) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if r.outer != nil {
		r = r.outer
	}
	if r.dropped {
		if _, in := offsetIn(r.data, b); in {
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
		return string(b) // unescaped into the lexer's buffer, which the next string reuses
	}
	if r.copied == nil && (len(r.data) > sharedText || r.ownString(len(b))) {
		return string(b) // a large input's string, or a short one alone
	}
	if off, ok := offsetIn(r.data, b); ok {
		return unsafe.String(&r.inputCopy()[off], len(b))
	}
	return string(b)
}

// failMember adds the error msg at name, an undeclared member of the
// object at at, as read: for a member of the root, its path is "$." and
// the name (see memberPath).
func (r *Reader) failMember(at *Loc, name []byte, msg string) {
	if at == nil && !r.quiet {
		r.c.Add(r.memberPath(name), msg)
		return
	}
	failProp(r, at, name, msg)
}

// pathCopy is the longest input a Reader copies for an error's path
// alone (see memberPath): copying a short input costs what a string of
// the path costs, one allocation, and any later path or string shares it;
// a long one is not copied for a path of a few bytes.
const pathCopy = 256

// inputCopy returns the copy of r's input the strings read share, making
// it the first time. r is a Reader of a whole input.
func (r *Reader) inputCopy() []byte {
	if r.copied == nil {
		r.copied = make([]byte, len(r.data))
		copy(r.copied, r.data)
	}
	return r.copied
}

// memberPath is the path of name, an undeclared member of the root object
// as read. A short path is a string of its own, which the runtime packs
// with other short strings (see tinyText), unless the input's copy exists
// already; a longer one is written into the copy when it can be, with no
// string of its own: the name lies in the input, and in the copy its
// strings share the two bytes before it are its opening quote and a '{',
// ',' or space, which no string covers (a string handed out is a string's
// content, without its quotes). "$." is written over them, and the path
// is the bytes from there to the name's end. A name with escapes, or one
// in an input longer than pathCopy of which no copy was made yet, is
// given a string of its own too.
func (r *Reader) memberPath(name []byte) string {
	r = r.outermost()
	if r.copied == nil && len(r.data) > pathCopy || r.ownString(len(name)+2) {
		return ownPath(name)
	}
	off, in := offsetIn(r.data, name)
	if !in || off < 2 || r.data[off-1] != '"' {
		return ownPath(name)
	}
	switch r.data[off-2] {
	case '{', ',', ' ', '\t', '\n', '\r':
	default:
		return ownPath(name)
	}
	c := r.inputCopy()
	c[off-2], c[off-1] = '$', '.'
	return unsafe.String(&c[off-2], len(name)+2)
}

// ownPath is the path of name, a member of the root, as a string of its
// own: the root's path and the name as schema.AppendPropertyPath writes
// them, in one allocation of the path's length.
func ownPath(name []byte) string {
	var root *Loc
	b := schema.AppendPropertyPath(root.appendPath(make([]byte, 0, len(name)+2)), name)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// outermost is the Reader of the whole input r reads part of.
func (r *Reader) outermost() *Reader {
	if r.outer != nil {
		return r.outer
	}
	return r
}

// offsetIn reports where b lies in data, when it does: b is a slice of
// data (the lexer hands out a string without escapes in place) or of its
// own buffer (one it unescaped).
func offsetIn(data, b []byte) (int, bool) {
	if len(data) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if len(b) > len(data) || p < base || p-base > uintptr(len(data)-len(b)) {
		return 0, false
	}
	return int(p - base), true
}

// StrBytes reads a string in place, valid until the next read: generated
// code compares it with the values of an enum and keeps a typed constant.
func (r *Reader) StrBytes(at *Loc, t *Types) (b []byte, ok bool) {
	if !r.expect(at, tString, t) {
		return nil, false
	}
	if b, ok = r.lx.str(); !ok {
		r.failSyntax()
	}
	return b, ok
}

// Bool reads a boolean of declared types t.
func (r *Reader) Bool(at *Loc, t *Types) (b bool, ok bool) {
	if !r.expect(at, tBool, t) {
		return false, false
	}
	if b, ok = r.lx.boolean(); !ok {
		r.failSyntax()
	}
	return b, ok
}

// Int reads an integer of declared types t: a number literal without a
// fraction or an exponent (5.0 is not an integer), within int64 (a value a
// Go service would wrap is refused).
func (r *Reader) Int(at *Loc, t *Types) (i int64, ok bool) {
	if !r.expect(at, tNumber, t) {
		return 0, false
	}
	n, ok := r.lx.num()
	if !ok {
		r.failSyntax()
		return 0, false
	}
	r.num = n
	if !schema.IsIntegerLiteral(n) {
		t.report(r, at, schema.KindNumber)
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		r.Fail(at, schema.MsgIntegerRange)
		return 0, false
	}
	return i, true
}

// Float reads a number of declared types t, within a float64's range.
func (r *Reader) Float(at *Loc, t *Types) (f float64, ok bool) {
	if !r.expect(at, tNumber, t) {
		return 0, false
	}
	n, ok := r.lx.num()
	if !ok {
		r.failSyntax()
		return 0, false
	}
	r.num = n
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		r.Fail(at, schema.MsgNumberRange)
		return 0, false
	}
	return f, true
}

// Literal is the last number read (by Int or Float), as written.
func (r *Reader) Literal() string { return string(r.num) }

// Raw reads the next value whole and returns its text, valid as long as the
// data read. Generated code reads a value twice with it: a union's tag
// before the alternative, or a value the reference validator checks.
func (r *Reader) Raw() []byte {
	if r.err != nil {
		return nil
	}
	raw, err := r.lx.skip()
	switch err {
	case nil:
	case errDuplicate:
		r.undeclared = true // Finish reports it, at its place
	default:
		r.failSyntax()
	}
	return raw
}

// Skip skips the next value. A repeated member name inside it is looked
// for in the value alone, by the strict scanner: only when it finds one
// does Finish scan the whole input again, to report it at its place (see
// Members.undeclared). Input read strictly already (BeginChecked) has
// none to look for.
func (r *Reader) Skip() { r.Raw() }

// Any reads the next value into runtime/schema's value model, for a value
// whose Go type is any.
func (r *Reader) Any() any {
	raw := r.Raw()
	if r.err != nil {
		return nil
	}
	v, err := schema.DecodeJSON(raw)
	r.fail(err)
	return v
}

// Check validates raw against every schema of roots with the reference
// validator: generated code hands it the values whose checks it does not
// compile (see gen/ir).
func (r *Reader) Check(at *Loc, raw []byte, roots ...*schema.Schema) any {
	if r.err != nil {
		return nil
	}
	v, err := schema.DecodeJSON(raw)
	if err != nil {
		r.fail(err)
		return nil
	}
	if !r.quiet {
		path := at.String()
		for _, s := range roots {
			s.ValidateAt(v, path, r.c)
		}
	}
	return v
}

// On returns a Reader of raw (a value r read whole with Raw) that adds its
// errors to r's; Off gives it back. With raw nil it returns r itself, the
// value being r's next (as Tagged leaves it when the tag came first), and
// Off then does nothing.
func (r *Reader) On(raw []byte) *Reader {
	if raw == nil {
		return r
	}
	sub := NewReader(raw)
	sub.c, sub.quiet, sub.lx.distinct = r.c, r.quiet, r.lx.distinct
	sub.outer = r.outermost()
	return sub
}

// Quiet returns a Reader of raw that fills values and reports nothing: the
// value's errors come from the reference validator (see Check).
func (r *Reader) Quiet(raw []byte) *Reader {
	sub := NewReader(raw)
	sub.c, sub.lx.distinct = r.c, r.lx.distinct
	sub.quiet = true
	sub.outer = r.outermost()
	return sub
}

// Off ends a Reader from On or Quiet, passing its syntax error on to r.
func (r *Reader) Off(sub *Reader) {
	if sub == r {
		return
	}
	sub.End()
	r.fail(sub.err)
	r.undeclared = r.undeclared || sub.undeclared
	sub.c = nil
	sub.Release()
}

// Members iterates over the members of an object.
//
// A Members lives on the stack of a generated decoding function. What
// outlives the function is kept by the Reader, by level: the location of
// its current member, which the locations of what the member holds link
// to. Were it inside the Members, the compiler, whose escape analysis does
// not tell one field of a struct from another, would move every Members
// of an object holding objects or arrays to the heap: an allocation each.
type Members struct {
	r    *Reader
	at   *Loc
	name []byte // the current member's name
	d    int    // its members' location is r.slot(d)
	n    int
	u    int // undeclared names read
	obj  bool
	live bool
}

// Object starts reading an object of declared types t at at; a value of
// another type is reported and skipped, and Next is then false at once.
func (r *Reader) Object(at *Loc, t *Types) Members {
	m := Members{r: r, at: at}
	if !r.expect(at, tObject, t) {
		return m
	}
	if !r.lx.open() {
		r.failSyntax()
		return m
	}
	m.d = r.lx.depth - 1
	m.obj, m.live = true, true
	return m
}

// Next moves to the next member; false at the end of the object (or after
// an error).
func (m *Members) Next() bool {
	r := m.r
	if !m.live || r.err != nil {
		return false
	}
	name, more, ok := r.lx.member(m.n == 0)
	if !more {
		m.live = false
		if !ok {
			r.failSyntax()
		}
		return false
	}
	m.name = name
	m.n++
	return true
}

// Name is the current member's name, valid until its value is read.
func (m *Members) Name() []byte { return m.name }

// Count is the number of members read.
func (m *Members) Count() int { return m.n }

// Field marks a declared property as seen, refusing it the second time,
// and returns its location (rootPath as in Field), valid until Next.
func (m *Members) Field(seen *bool, name, rootPath string) *Loc {
	if *seen {
		m.r.failSyntax() // a repeated name
	}
	*seen = true
	l := m.r.slot(m.d)
	*l = Field(m.at, name, rootPath)
	return l
}

// undeclared notes that the current member's name is none the schema
// declares, and returns it.
func (m *Members) undeclared() string {
	m.note()
	return m.r.text(m.Name())
}

// note counts an undeclared name. Repeats among such names are found by
// Finish, once for the whole input, and only when some object had two or
// more: a declared name's repeat is found by its seen flag, and one
// undeclared name has nothing to repeat.
func (m *Members) note() {
	if m.u++; m.u > 1 {
		m.r.undeclared = true
	}
}

// Undeclared skips the current member's value: a property nothing
// constrains.
func (m *Members) Undeclared() {
	m.note()
	m.r.Skip()
}

// Additional refuses the current member, which additionalProperties (or
// unevaluatedProperties) false forbids, and skips its value.
func (m *Members) Additional() {
	m.note()
	m.r.failMember(m.at, m.Name(), schema.MsgAdditional)
	m.r.Skip()
}

// Other returns the location of the current member, an undeclared one a
// schema still applies to (additionalProperties), valid until Next, and
// its name.
func (m *Members) Other() (*Loc, string) {
	name := m.undeclared()
	l := m.r.slot(m.d)
	*l = Field(m.at, name, "")
	return l, name
}

// Required reports the required property name missing unless seen (and
// nothing when the value was not an object).
func (m *Members) Required(seen bool, name string) {
	if m.obj && !seen {
		m.r.FailProp(m.at, name, schema.MsgRequired)
	}
}

// Elements iterates over the elements of an array.
//
// Like a Members, it keeps its iterator in the Reader, by index.
type Elements struct {
	r    *Reader
	at   *Loc
	d    int // its elements' location is r.slot(d)
	from int // where the array's text begins, for uniqueItems (see UniqueArray); -1 when not kept
	errs int // errors before the array, for uniqueItems
	arr  bool
	live bool
	i    int
}

// Array starts reading an array of declared types t at at.
func (r *Reader) Array(at *Loc, t *Types) Elements {
	e := Elements{r: r, at: at, i: -1, from: -1}
	if !r.expect(at, tArray, t) {
		return e
	}
	if !r.lx.open() {
		r.failSyntax()
		return e
	}
	e.d = r.lx.depth - 1
	e.arr, e.live = true, true
	return e
}

// UniqueArray is Array for an array whose items must be unique: it keeps
// where the array's text begins, for the text decides uniqueness where Go
// values cannot (see Unique), which reads it once the elements are read.
func (r *Reader) UniqueArray(at *Loc, t *Types) Elements {
	from := -1
	if r.next() == tArray {
		from = r.lx.pos
	}
	e := r.Array(at, t)
	e.from, e.errs = from, r.c.Len()
	return e
}

// text is the array's text, once Next has read past its end; nil if the
// reading stopped before (a syntax error, which Finish reports).
func (e *Elements) text() []byte {
	r := e.r
	if e.from < 0 || e.live || r.err != nil {
		return nil
	}
	return r.lx.data[e.from:r.lx.pos]
}

// Next moves to the next element.
func (e *Elements) Next() bool {
	r := e.r
	if !e.live || r.err != nil {
		return false
	}
	more, ok := r.lx.element(e.i < 0)
	if !more {
		e.live = false
		if !ok {
			r.failSyntax()
		}
		return false
	}
	e.i++
	return true
}

// Loc is the current element's location, valid until Next.
func (e *Elements) Loc() *Loc {
	l := e.r.slot(e.d)
	*l = Elem(e.at, e.i)
	return l
}

// Index is the current element's index.
func (e *Elements) Index() int { return e.i }

// Len is the number of elements read.
func (e *Elements) Len() int { return e.i + 1 }

// Tagged starts reading an object whose alternative a tag property names
// (a union told apart by a property, see schema.Union): it returns the
// tag's value and, when the alternative must be read from a copy, the
// object's text, which On reads. A client that writes the tag first, as
// most do, costs one reading of the object: the tag is seen by looking at
// the first member only, and the alternative reads the object from r. When
// the value is not an object, or has no tag, the error is reported and ok
// is false; a tag that is not a string is returned as "", which no
// alternative has.
func (r *Reader) Tagged(at *Loc, tag string) (value string, raw []byte, ok bool) {
	if r.next() != tObject {
		r.Mismatch(at, Object)
		return "", nil, false
	}
	// A look at the first member, the reading left where it was.
	lx := &r.lx
	start, depth := lx.pos, lx.depth
	if lx.open() {
		if name, more, _ := lx.member(true); more && string(name) == tag && lx.next() == tString {
			if s, ok := lx.str(); ok {
				lx.pos, lx.depth = start, depth
				return r.text(s), nil, true
			}
		}
	}
	lx.pos, lx.depth = start, depth
	raw = r.Raw()
	if r.err != nil {
		return "", nil, false
	}
	// raw is well formed (Raw checked it): its members are read as they
	// are, each value skipped but the tag's first string.
	var walk lexer
	walk.reset(raw)
	walk.distinct = true
	walk.open()
	found := false
	for first := true; ; first = false {
		name, more, _ := walk.member(first)
		if !more {
			break
		}
		if !found && string(name) == tag {
			found = true
			if walk.next() == tString {
				s, _ := walk.str()
				value = r.text(s)
				continue
			}
		}
		walk.skip()
	}
	if !found {
		r.FailProp(at, tag, schema.MsgRequired)
		return "", nil, false
	}
	return value, raw, true
}

// Skipped skips the object Tagged left unread (a tag no alternative has).
func (r *Reader) Skipped(raw []byte) {
	if raw == nil {
		r.Skip()
	}
}

// OK reports whether the value was an object (a value of another type was
// reported and skipped: nothing further is checked of it).
func (m *Members) OK() bool { return m.obj }

// OK reports whether the value was an array.
func (e *Elements) OK() bool { return e.arr }

// MarshalWithExtra writes the object declared (a struct's declared
// properties, encoded by encode.Marshal) with the members of extra after
// them: the JSON of a struct whose undeclared properties are a map.
func MarshalWithExtra[V any](declared any, extra map[string]V) ([]byte, error) {
	b, err := encode.Marshal(declared)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	more, err := encode.Marshal(extra)
	if err != nil {
		return nil, err
	}
	if len(b) == 2 { // {}
		return more, nil
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	return append(out, more[1:]...), nil
}

// Adapt turns a Decode function into the server's validator shape, for
// arguments that are not a generated type (a team's own struct). The value
// is a *T, as Validator's is: a generated version's Call.Value is a
// pointer whichever of the two decodes it, for the same one allocation
// the T put into an any would cost.
func Adapt[T any](decodeFn func([]byte) (T, schema.Errors, error)) func(raw json.RawMessage) (any, schema.Errors) {
	return func(raw json.RawMessage) (any, schema.Errors) {
		v, errs, err := decodeFn(raw)
		if err != nil {
			return nil, malformed(err)
		}
		return &v, errs
	}
}

// malformed is the one violation, at "$", of text that is not one
// well-formed JSON value (err, the reading's error): a validator's or a
// checker's answer rather than a failure of its own.
func malformed(err error) schema.Errors { return schema.Errors{{Path: "$", Message: err.Error()}} }

// Checker is the server's output checker (mcp.OutputChecker) of a tool
// version's output type, which read reads from r as a value it drops
// (generated code passes a function that declares the type's value and
// calls its DecodeFrom): the violations of the structured content, read
// strictly (it was encoded by the server, but a type's own MarshalJSON may
// write anything). Text that is not one well-formed JSON value is one
// violation at "$". Since the value is dropped, its strings are the
// content's own bytes (see Reader.dropped): a check copies no text, where
// a Decode function copies the input its value's strings share.
func Checker(read func(r *Reader)) func(structured json.RawMessage) schema.Errors {
	return func(structured json.RawMessage) schema.Errors {
		r := NewReader(structured)
		r.dropped = true
		read(r)
		errs, err := r.Finish()
		if err != nil {
			return malformed(err)
		}
		return errs
	}
}

// Forward is the validator of a tool version that is not the newest of its
// major line (generated code binds it): the arguments are checked against
// the version's own contract (own), which is what its caller was promised
// and whose errors it is told, and only then decoded with the newest
// version's validator (newest), whose value the line's one handler method
// takes. A minor only loosens a contract, and the generator refuses a line
// where the newest version does not accept what an older one does, so the
// second step does not fail on arguments the first accepted; if it ever
// did, its errors are returned and the handler is not reached.
func Forward(own, newest func(raw json.RawMessage) (any, schema.Errors)) func(raw json.RawMessage) (any, schema.Errors) {
	return func(raw json.RawMessage) (any, schema.Errors) {
		if _, errs := own(raw); len(errs) > 0 {
			return nil, errs
		}
		return newest(raw)
	}
}
