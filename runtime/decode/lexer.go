package decode

import (
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// jsonType is the JSON type of a value.
type jsonType uint8

// The JSON types.
const (
	// tInvalid is no value: the end of the input, a byte no value begins
	// with, or anything after a syntax error.
	tInvalid jsonType = iota
	tString
	tNumber
	tNull
	tBool
	tArray
	tObject
)

// types is the type of the value each byte begins.
var types = func() (t [256]jsonType) {
	t['"'], t['{'], t['['], t['t'], t['f'], t['n'], t['-'] = tString, tObject, tArray, tBool, tBool, tNull, tNumber
	for c := '0'; c <= '9'; c++ {
		t[c] = tNumber
	}
	return t
}()

// lexer reads the tokens of one JSON text in memory, at an offset, and
// checks the grammar as it reads: a value cut short, a missing comma or
// colon, a number JSON does not have, a control character, a bad escape or
// invalid UTF-8 in a string, nesting beyond textdec.MaxDepth. A method
// that finds the text malformed returns false; the Reader then asks the
// strict scanner what is wrong, and where (see Reader.failSyntax). It
// replaced a general-purpose reader (go-faster/jx) whose buffering and
// iterators took two fifths of a small object's time.
type lexer struct {
	data  []byte
	pos   int
	depth int    // objects and arrays open around pos
	buf   []byte // the last string with escapes read, unescaped
	key   []byte // the last member name with escapes read, unescaped
	// distinct says the text was read strictly already (BeginChecked):
	// its member names are distinct, and a value skipped needs no
	// checking.
	distinct bool
	// runes is the number of code points of the last string read, or -1
	// when it had escapes.
	runes int
}

// reset starts reading data, keeping the buffers unless a large text grew
// them.
func (l *lexer) reset(data []byte) {
	l.data, l.pos, l.depth, l.distinct = data, 0, 0, false
	if cap(l.buf) > 4<<10 {
		l.buf = nil
	}
	if cap(l.key) > 4<<10 {
		l.key = nil
	}
	l.buf, l.key = l.buf[:0], l.key[:0]
}

// skipSpace moves pos past JSON whitespace.
func (l *lexer) skipSpace() { l.pos = textdec.SkipSpace(l.data, l.pos) }

// next is the type of the value at pos, after any whitespace.
func (l *lexer) next() jsonType {
	l.skipSpace()
	if l.pos >= len(l.data) {
		return tInvalid
	}
	return types[l.data[l.pos]]
}

// str reads the string at pos (next said tString): its text, a slice of
// data when it has no escape, else unescaped into l.buf (valid until the
// next string with escapes is read).
func (l *lexer) str() ([]byte, bool) { return l.quoted(&l.buf) }

// quoted reads the string at pos and returns its text, unescaped into
// *buf when it has escapes. Its UTF-8 is checked here, string by string,
// in the pass that finds its end (bytes outside strings are the
// grammar's, which allows no others), and its code points counted on the
// way (l.runes), for a minLength or maxLength.
func (l *lexer) quoted(buf *[]byte) ([]byte, bool) {
	end, escaped, runes, ok := textdec.ScanText(l.data, l.pos)
	if !ok {
		return nil, false
	}
	quoted := l.data[l.pos : end+1]
	l.pos, l.runes = end+1, runes
	if escaped {
		*buf, ok = textdec.AppendUnquote((*buf)[:0], quoted)
		return *buf, ok
	}
	return quoted[1 : len(quoted)-1], true
}

// num reads the number at pos (next said tNumber) and returns its text.
func (l *lexer) num() ([]byte, bool) {
	end, ok := textdec.NumberEnd(l.data, l.pos)
	if !ok {
		return nil, false
	}
	n := l.data[l.pos:end]
	l.pos = end
	return n, true
}

// literal reads word (true, false, null) at pos.
func (l *lexer) literal(word string) bool {
	if len(l.data)-l.pos < len(word) || string(l.data[l.pos:l.pos+len(word)]) != word {
		return false
	}
	l.pos += len(word)
	return true
}

// boolean reads the boolean at pos (next said tBool).
func (l *lexer) boolean() (bool, bool) {
	if l.data[l.pos] == 't' {
		return true, l.literal("true")
	}
	return false, l.literal("false")
}

// open enters the object or array at pos (next said which).
func (l *lexer) open() bool {
	if l.depth >= textdec.MaxDepth {
		return false
	}
	l.depth++
	l.pos++
	return true
}

// member moves to the next member of the object open at pos: after its
// name and colon, at its value. more is false at the object's end, which
// it leaves, and when the text is malformed (ok false). first says no
// member was read yet. The name is a slice of data, or of l.key when it
// has escapes (valid until the next such name).
func (l *lexer) member(first bool) (name []byte, more, ok bool) {
	if more, ok = l.before('}', first); !more {
		return nil, false, ok
	}
	if l.pos >= len(l.data) || l.data[l.pos] != '"' {
		return nil, false, false
	}
	if name, ok = l.quoted(&l.key); !ok {
		return nil, false, false
	}
	l.skipSpace()
	if l.pos >= len(l.data) || l.data[l.pos] != ':' {
		return nil, false, false
	}
	l.pos++
	return name, true, true
}

// element moves to the next element of the array open at pos, at its
// value (which the caller reads, and finds malformed if it is not one);
// more is false at the array's end, which it leaves, and when the text is
// malformed (ok false).
func (l *lexer) element(first bool) (more, ok bool) { return l.before(']', first) }

// before reads what comes before an object's member or an array's
// element: the comma, unless first, and then more is true, at the member
// or element; or the container's closing byte, and then more is false,
// the container left. ok is false when it is neither.
func (l *lexer) before(closing byte, first bool) (more, ok bool) {
	l.skipSpace()
	switch {
	case l.pos >= len(l.data):
		return false, false
	case l.data[l.pos] == closing:
		l.pos++
		l.depth--
		return false, true
	case first:
		return true, true
	case l.data[l.pos] == ',':
		l.pos++
		l.skipSpace()
		return true, true
	}
	return false, false
}

// errDuplicate is skip's report of a value that is well formed but for a
// repeated member name.
var errDuplicate = errors.New("a repeated member name")

// skip reads the value at pos whole and returns its text. An object or
// array is found by its end and then checked by the strict scanner, with
// the levels already open counted; a repeated member name in it is
// reported as errDuplicate, with the value read.
func (l *lexer) skip() ([]byte, error) {
	t := l.next()
	start := l.pos
	var ok bool
	switch t {
	case tString:
		_, ok = l.str()
	case tNumber:
		_, ok = l.num()
	case tBool:
		_, ok = l.boolean()
	case tNull:
		ok = l.literal("null")
	case tObject, tArray:
		end := textdec.ValueEnd(l.data, start)
		v := l.data[start:end]
		if !l.distinct {
			if err := textdec.ValidateNested(v, l.depth); err != nil {
				if !errors.Is(err, textdec.ErrDuplicateName) {
					return nil, errMalformed
				}
				l.pos = end
				return v, errDuplicate
			}
		}
		l.pos = end
		return v, nil
	}
	if !ok {
		return nil, errMalformed
	}
	return l.data[start:l.pos], nil
}
