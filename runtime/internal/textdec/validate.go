package textdec

import (
	"errors"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDepth is how deeply objects and arrays may nest: a text that opens
// more is refused, so the work a text costs stays linear in its size
// whatever its shape.
const MaxDepth = 10_000

// SyntaxError is why a text is not one JSON value under Validate's rules:
// what was wrong, where (the byte offset of the offending input), and the
// JSON pointer (RFC 6901) of the value being read when it was found.
type SyntaxError struct {
	Offset  int
	Pointer string
	// Err is the reason; io.ErrUnexpectedEOF for a text that ends early.
	Err error
	// name is the repeated member name of an ErrDuplicateName, which is
	// reported by name within the object's pointer rather than at an
	// offset.
	name string
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	dup := e.Err == ErrDuplicateName
	if dup {
		b.WriteString(" " + strconv.Quote(e.name))
	}
	if e.Pointer != "" {
		b.WriteString(" within " + strconv.Quote(e.Pointer))
	}
	if !dup && e.Err != io.ErrUnexpectedEOF {
		b.WriteString(" after offset " + strconv.Itoa(e.Offset))
	}
	return b.String()
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// The reasons Validate gives.
var (
	// ErrDuplicateName is a member name that repeats one of the same
	// object: parsers disagree about which of the two wins, so a text that
	// has one is refused rather than read one way here and another there.
	ErrDuplicateName = errors.New("duplicate object member name")
	ErrInvalidUTF8   = errors.New("invalid UTF-8")
	ErrMaxDepth      = errors.New("exceeded max depth")
	ErrTrailingData  = errors.New("unexpected data after the JSON value")
)

// Validate reports whether data is exactly one JSON value (RFC 8259),
// with surrounding whitespace, read strictly:
//
//   - every string and member name is valid UTF-8, and no escape stands
//     for a lone surrogate ("\ud800"): a replaced character would change
//     what a pattern or an enum is checked against;
//   - the member names of each object are distinct (RFC 7493, I-JSON),
//     compared after unescaping;
//   - objects and arrays nest at most MaxDepth deep.
//
// It is one pass over data, allocating nothing for a text of ordinary
// shape: the readers that come after it (the envelope's, the generated
// decoders) take the text as well formed and check none of this again.
//
// Repeated names are found without a copy of each name: the scan keeps
// where each name of the open objects begins, 4 bytes, and compares an
// object's names when it closes, pairwise for a few and sorted for more
// (O(n log n) in the names of one object). A strict decoder that keeps a
// copy of every name, and a map entry past a few dozen, costs over a
// hundred bytes per name, fifteen times an object of short names.
func Validate(data []byte) error { return validate(data, MaxDepth) }

// ValidateNested is Validate for a value that lies depth levels deep in
// the text it belongs to: it may open MaxDepth-depth levels more.
func ValidateNested(data []byte, depth int) error { return validate(data, MaxDepth-depth) }

// Member is one member of an object: its name as written (quotes and
// escapes included) and its value's text, both slices of the text.
// Escaped says the name holds an escape; without one, the bytes between
// its quotes are the name, which a reader then takes without looking.
type Member struct {
	Name, Value []byte
	Escaped     bool
}

// UnquotedName is the name m stands for: the bytes between its quotes,
// or, when it has an escape, the name unescaped and appended to buf.
func (m *Member) UnquotedName(buf []byte) []byte {
	if m.Escaped {
		return m.unescapedName(buf)
	}
	return m.Name[1 : len(m.Name)-1]
}

// unescapedName is UnquotedName's rare path, kept out of line so that
// UnquotedName inlines where it is called: a call a name was some 150
// instructions a tools/call (BenchmarkIncomingDecode).
//
//go:noinline
func (m *Member) unescapedName(buf []byte) []byte {
	name, _ := AppendUnquote(buf, m.Name) // the text was checked: the name is a string
	return name
}

// MaxInner is the most members ValidateSplit keeps of the inner object:
// past it, the object is not split (found is false), so that the members
// kept for a text stay few whatever the text holds.
const MaxInner = 16

// ValidateSplit is Validate that, when data is an object, also appends
// its members to dst, as EachMember would hand them, found in the same
// pass: a reader of a small envelope (a JSON-RPC message) does not walk
// the text a second time to split it. Given a name (quotes included, e.g.
// `"params"`; "" for none), it also appends to inner the members of the
// value of the outermost object's member written so, when that value is
// an object of at most MaxInner members; found says it did, and inner is
// otherwise returned as it was given (the member is absent, its name is
// written with an escape, its value is not an object, or it has more
// members). A JSON-RPC message's reader thus has the members of its
// params too without walking them again. On an error dst and inner are
// returned as they were given.
func ValidateSplit(data []byte, dst []Member, name string, inner []Member) (members, innerMembers []Member, found bool, err error) {
	if len(data) > math.MaxInt32 {
		return dst, inner, false, errTooLarge
	}
	s := scanners.Get().(*scanner)
	s.data, s.limit, s.collect, s.inner = data, MaxDepth, true, name
	err = s.scan()
	if err == nil {
		dst = append(dst, s.members...)
		if found = s.innerFound; found {
			inner = append(inner, s.innerMembers...)
		}
	}
	clear(s.members)
	clear(s.innerMembers)
	s.members, s.collect, s.pending = s.members[:0], false, false
	s.innerMembers, s.inner, s.inInner, s.innerFound, s.innerPending = s.innerMembers[:0], "", false, false, false
	s.release()
	return dst, inner, found, err
}

func validate(data []byte, limit int) error {
	if len(data) > math.MaxInt32 {
		return errTooLarge // names are kept as 32-bit offsets
	}
	s := scanners.Get().(*scanner)
	s.data, s.limit = data, limit
	err := s.scan()
	s.release()
	return err
}

// release returns s to the pool. A scanner keeps its buffers for the next
// text unless a large one grew them; its stack never outgrows MaxDepth
// frames (120 KiB).
func (s *scanner) release() {
	if cap(s.names) > 1<<12 || cap(s.a) > 1<<12 || cap(s.b) > 1<<12 || cap(s.members) > 1<<8 {
		s.names, s.a, s.b, s.members = nil, nil, nil, nil
	}
	s.data, s.names, s.stack = nil, s.names[:0], s.stack[:0]
	scanners.Put(s)
}

var errTooLarge = errors.New("JSON text over 2 GiB")

var scanners = sync.Pool{New: func() any { return new(scanner) }}

// noName is frame.at of an object whose current member name is not read
// yet: a pointer then ends at the object.
const noName = math.MaxUint32

// frame is an object or array the scan is inside.
type frame struct {
	start int32 // where the object's names begin in scanner.names
	// at is, in an object, the offset of the current member's name (or
	// noName); in an array, the index of the current element.
	at     uint32
	object bool
}

// seenDepth is how deep objects keep scanner.seen: past it, every object's
// names are compared when it closes. A frame stays 12 bytes, which a text
// nested 10,000 deep pays per level.
const seenDepth = 64

// mayRepeat is scanner.seen[d] once a name of the object at depth d may
// repeat an earlier one.
const mayRepeat = ^uint64(0)

// nameBits are two bits that stand for the name name, as written: equal
// names have equal bits, and different names mostly not. A name with an
// escape (escaped, as the scanner found it) has none, so that it is always
// compared (scanner.seen): another spelling of it would not have its bits.
func nameBits(name []byte, escaped bool) uint64 {
	if escaped {
		return 0
	}
	const k = 0x9e3779b97f4a7c15
	h := uint64(len(name)) * k
	switch {
	case len(name) >= 8:
		h = (h ^ word(name, 0)) * k
		h = (h ^ word(name, len(name)-8)) * k
	case cap(name) >= 8:
		// The name's bytes, read as one word from the input it lies in
		// (its closing quote and what follows fill the word), the rest
		// masked off: the bits of the byte-at-a-time reading below.
		h = (h ^ word(name[:8], 0)&(1<<(8*len(name))-1)) * k
	default:
		var w uint64
		for i, c := range name {
			w |= uint64(c) << (8 * i)
		}
		h = (h ^ w) * k
	}
	return 1<<(h>>58) | 1<<(h>>52&63)
}

// scanner validates one text. A name is the offset in data of its
// opening quote.
type scanner struct {
	data  []byte
	limit int      // how deeply objects and arrays may nest
	names []uint32 // the names of the open objects, outermost first
	stack []frame
	// seen[d] has two bits set per name of the object at depth d
	// (nameBits), or is mayRepeat once a name's bits were all set
	// already (a name with an escape has none). Only then does closing
	// the object compare its names (repeat): two equal names have equal
	// bits.
	seen [seenDepth]uint64
	// a and b hold the unescaped text of the two names compared.
	a, b []byte
	// collect says to keep the members of the outermost object in
	// members (ValidateSplit); pending, that the last one's value is
	// being read, from valueAt.
	collect bool
	pending bool
	valueAt int
	members []Member
	// inner is the name, as written, of the outermost object's member
	// whose object value's members are kept too, in innerMembers
	// (ValidateSplit): inInner says the member being read is it,
	// innerFound that its value is an object split so far, innerPending
	// that the last inner member's value is being read, from innerAt.
	inner        string
	inInner      bool
	innerFound   bool
	innerPending bool
	innerAt      int
	innerMembers []Member
}

// What the scan expects next.
const (
	wantValue = iota
	wantAfterValue
	wantName
)

func (s *scanner) scan() error {
	data := s.data
	i := skipSpace(data, 0)
	state := wantValue
	for {
		switch state {
		case wantValue:
			if i >= len(data) {
				return s.eof()
			}
			switch c := data[i]; c {
			case '{', '[':
				if len(s.stack) >= s.limit {
					return s.fail(i, ErrMaxDepth)
				}
				if len(s.stack) == cap(s.stack) {
					s.stack = slices.Grow(s.stack, max(len(s.stack), 16))
				}
				f := frame{start: int32(len(s.names)), object: c == '{'}
				if f.object {
					f.at = noName
				}
				s.stack = append(s.stack, f)
				if d := len(s.stack) - 1; d < seenDepth {
					s.seen[d] = 0
				}
				if s.inInner && len(s.stack) == 2 {
					s.innerFound = f.object // the inner member's value
				}
				i = skipSpace(data, i+1)
				if i < len(data) && data[i] == c+2 { // '}' or ']'
					s.stack = s.stack[:len(s.stack)-1]
					i++
					state = wantAfterValue
				} else if f.object {
					state = wantName
				}
				continue
			case '"':
				end, _, err := s.str(i)
				if err != nil {
					return err
				}
				i = end
			case 't':
				if !hasPrefix(data[i:], "true") {
					return s.literal(i, "true")
				}
				i += 4
			case 'f':
				if !hasPrefix(data[i:], "false") {
					return s.literal(i, "false")
				}
				i += 5
			case 'n':
				if !hasPrefix(data[i:], "null") {
					return s.literal(i, "null")
				}
				i += 4
			default:
				if c != '-' && (c < '0' || c > '9') {
					return s.fail(i, invalidChar(c, "at start of value"))
				}
				end, err := s.number(i)
				if err != nil {
					return err
				}
				i = end
			}
			state = wantAfterValue
		case wantAfterValue:
			if s.pending && len(s.stack) == 1 { // a member of the outermost object ends
				s.members[len(s.members)-1].Value = data[s.valueAt:i]
				s.pending = false
			}
			if s.innerPending && len(s.stack) == 2 { // a member of the inner object ends
				s.innerMembers[len(s.innerMembers)-1].Value = data[s.innerAt:i]
				s.innerPending = false
			}
			i = skipSpace(data, i)
			if len(s.stack) == 0 {
				if i != len(data) {
					return s.fail(i, ErrTrailingData)
				}
				return nil
			}
			if i >= len(data) {
				return s.eof()
			}
			top := &s.stack[len(s.stack)-1]
			c := data[i]
			switch {
			case c == ',':
				i = skipSpace(data, i+1)
				if top.object {
					top.at = noName
					state = wantName
				} else {
					top.at++
					state = wantValue
				}
			case top.object && c == '}':
				if err := s.closeObject(); err != nil {
					return err
				}
				i++
			case !top.object && c == ']':
				s.stack = s.stack[:len(s.stack)-1]
				i++
			case top.object:
				return s.fail(i, invalidChar(c, "after object value (expecting ',' or '}')"))
			default:
				return s.fail(i, invalidChar(c, "after array element (expecting ',' or ']')"))
			}
		case wantName:
			if i >= len(data) {
				return s.eof()
			}
			if data[i] != '"' {
				return s.fail(i, invalidChar(data[i], "at start of object member name (expecting '\"')"))
			}
			end, escaped, err := s.str(i)
			if err != nil {
				return err
			}
			if len(s.names) == cap(s.names) {
				// Doubling: what the slice allocates in all stays within
				// twice its final size.
				s.names = slices.Grow(s.names, max(len(s.names), 8))
			}
			s.names = append(s.names, uint32(i))
			s.stack[len(s.stack)-1].at = uint32(i)
			if d := len(s.stack) - 1; d < seenDepth && s.seen[d] != mayRepeat {
				if bits := nameBits(data[i+1:end-1], escaped); s.seen[d]&bits == bits {
					s.seen[d] = mayRepeat
				} else {
					s.seen[d] |= bits
				}
			}
			i = skipSpace(data, end)
			if i >= len(data) {
				return s.eof()
			}
			if data[i] != ':' {
				return s.fail(i, invalidChar(data[i], "after object member name (expecting ':')"))
			}
			i = skipSpace(data, i+1)
			if s.collect && len(s.stack) <= 2 {
				s.keep(data[s.names[len(s.names)-1]:end], escaped, i)
			}
			state = wantValue
		}
	}
}

// keep keeps a member whose name, as written, is name (escaped says it
// holds an escape) and whose value begins at i, when it is one of the
// outermost object's or of the inner object's (see ValidateSplit).
func (s *scanner) keep(name []byte, escaped bool, i int) {
	if len(s.stack) == 1 {
		s.members = append(s.members, Member{Name: name, Escaped: escaped})
		s.pending, s.valueAt = true, i
		s.inInner = s.inner != "" && string(name) == s.inner
		return
	}
	if !s.inInner || !s.innerFound {
		return
	}
	if len(s.innerMembers) == MaxInner {
		s.innerFound = false
		return
	}
	s.innerMembers = append(s.innerMembers, Member{Name: name, Escaped: escaped})
	s.innerPending, s.innerAt = true, i
}

// closeObject checks the names of the innermost object, which the text
// closes, and leaves it.
func (s *scanner) closeObject() error {
	top := len(s.stack) - 1
	// Unless a name's bits were all set before it (or it has an escape),
	// no name repeats.
	if top >= seenDepth || s.seen[top] == mayRepeat {
		if at, found := s.repeat(s.names[s.stack[top].start:]); found {
			return s.report(top, at)
		}
	}
	s.names = s.names[:s.stack[top].start]
	s.stack = s.stack[:top]
	return nil
}

// strSpecial marks the bytes a string scan stops at: the quote, the
// backslash and the control characters.
var strSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special8 reports whether any of the 8 bytes of w is strSpecial.
func special8(w uint64) bool { return specialMask(w) != 0 }

// specialMask marks the bytes of w that are strSpecial (see below).
func specialMask(w uint64) uint64 { return (below(w, 0x20) | equal(w, '"') | equal(w, '\\')) & highs }

// quoteMask marks the bytes of w that are a quote or a backslash (see
// below).
func quoteMask(w uint64) uint64 { return (equal(w, '"') | equal(w, '\\')) & highs }

// below sets the high bit of the bytes of w, a word read little-endian
// (so in memory order), whose value is below n (n at most 0x80); its
// other bits mean nothing, and a mask is the result and'ed with highs,
// once for all the tests or-ed into it. The mark of the first such byte
// is exact: w-n*lows borrows from a byte's high bit only if the byte is
// below n or a byte before it borrowed, and &^w keeps bytes that were
// below 0x80. A byte after a marked one may be marked too; a mask is zero
// exactly when no byte is, and firstMarked reads the first.
func below(w, n uint64) uint64 { return (w - lows*n) &^ w }

// equal sets the high bit of the bytes of w that are c, as below does.
func equal(w uint64, c byte) uint64 { return below(w^lows*uint64(c), 1) }

// firstMarked is the index of the first byte a mask of below marks; the
// mask is not zero.
func firstMarked(mask uint64) int { return bits.TrailingZeros64(mask) >> 3 }

// str checks the string whose opening quote is at data[open] and returns
// the offset after its closing quote, and whether it has an escape. The
// scan looks for the bytes that end a run of plain text, 8 at a time, and
// notes whether any byte was non-ASCII; only then is the string's text
// checked as UTF-8, by ValidUTF8, which is fast on it (escapes are ASCII,
// so they can be checked along).
func (s *scanner) str(open int) (end int, escaped bool, err error) {
	data := s.data
	i := open + 1
	var hi uint64 // the bytes seen, or-ed: its high bit says non-ASCII
	for {
		i = plainRun(data, i, &hi)
		if i >= len(data) {
			return 0, false, s.eof()
		}
		switch c := data[i]; {
		case c == '"':
			if hi&highs != 0 && !ValidUTF8(data[open+1:i]) {
				return 0, false, s.invalidUTF8(open+1, i)
			}
			return i + 1, escaped, nil
		case c == '\\':
			n, err := s.escape(i)
			if err != nil {
				return 0, false, err
			}
			i += n
			escaped = true
		default:
			if err := s.invalidUTF8(open+1, i); err != nil {
				return 0, false, err // invalid text before the control character
			}
			return 0, false, s.fail(i, invalidChar(c, "in string (expecting non-control character)"))
		}
	}
}

// invalidUTF8 is the error for the first byte of data[from:to] that is
// not valid UTF-8, nil when there is none.
func (s *scanner) invalidUTF8(from, to int) error {
	for i := from; i < to; {
		r, size := utf8.DecodeRune(s.data[i:to])
		if r == utf8.RuneError && size == 1 {
			return s.fail(i, ErrInvalidUTF8)
		}
		i += size
	}
	return nil
}

// escape checks the escape sequence at data[i] (a backslash) and returns
// its length: 2, 6, or 12 for a surrogate pair.
func (s *scanner) escape(i int) (int, error) {
	data := s.data
	if i+1 >= len(data) {
		return 0, s.eof()
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
	default:
		return 0, s.fail(i, errors.New("invalid escape sequence "+strconv.Quote(string(data[i:i+2]))+" in string"))
	}
	r, err := s.escapedRune(i)
	if err != nil {
		return 0, err
	}
	switch {
	case r < 0xd800 || r > 0xdfff:
		return 6, nil
	case r >= 0xdc00:
		return 0, s.fail(i, errors.New("invalid surrogate `"+string(data[i:i+6])+"` in string (a low surrogate with no high one)"))
	}
	if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
		lo, err := s.escapedRune(i + 6)
		if err != nil {
			return 0, err
		}
		if lo >= 0xdc00 && lo <= 0xdfff {
			return 12, nil
		}
	} else if i+8 > len(data) {
		return 0, s.eof()
	}
	return 0, s.fail(i, errors.New("invalid surrogate `"+string(data[i:i+6])+"` in string (a high surrogate with no low one)"))
}

// escapedRune reads the \u escape at data[i] (hex4), saying where it goes
// wrong when it does: the first byte that is no hex digit, or the end.
func (s *scanner) escapedRune(i int) (rune, error) {
	if r, ok := hex4(s.data, i); ok {
		return r, nil
	}
	for j := i + 2; j < min(i+6, len(s.data)); j++ {
		if unhex(s.data[j]) < 0 {
			return 0, s.fail(j, invalidChar(s.data[j], "in \\u escape (expecting a hex digit)"))
		}
	}
	return 0, s.eof()
}

func unhex(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// number checks the number beginning at data[i] (see NumberEnd) and
// returns the offset after it.
func (s *scanner) number(i int) (int, error) {
	end, ok := NumberEnd(s.data, i)
	if !ok {
		return 0, s.numberEnd(end)
	}
	return end, nil
}

// numberEnd is the error for a number that stops where a digit must come.
func (s *scanner) numberEnd(i int) error {
	if i >= len(s.data) {
		return s.eof()
	}
	return s.fail(i, invalidChar(s.data[i], "in number (expecting a digit)"))
}

func digits(data []byte, i int) int {
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		i++
	}
	return i
}

// literal is the error for text at data[i] that begins as want but is not.
func (s *scanner) literal(i int, want string) error {
	for j := 0; j < len(want); j++ {
		if i+j >= len(s.data) {
			return s.eof()
		}
		if s.data[i+j] != want[j] {
			return s.fail(i+j, invalidChar(s.data[i+j], "in literal "+want+" (expecting "+strconv.QuoteRune(rune(want[j]))+")"))
		}
	}
	return nil // unreachable: the caller saw the literal was not whole
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// SkipSpace returns the offset of the first byte at or after i that is
// not JSON whitespace (RFC 8259: space, tab, line feed, carriage return),
// or len(data).
func SkipSpace(data []byte, i int) int { return skipSpace(data, i) }

func skipSpace(data []byte, i int) int {
	// Whitespace is at most ' ': the byte after a token, mostly not
	// whitespace in a text without indentation, is let through by one
	// comparison, where the switch made four.
	for i < len(data) && data[i] <= ' ' {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func invalidChar(c byte, where string) error {
	q := strconv.QuoteRune(rune(c))
	if c >= utf8.RuneSelf {
		q = `'\x` + strconv.FormatUint(uint64(c), 16) + `'`
	}
	return errors.New("invalid character " + q + " " + where)
}

// fail is err at data[i], within the value being read.
func (s *scanner) fail(i int, err error) error {
	return &SyntaxError{Offset: i, Pointer: s.pointer(len(s.stack)), Err: err}
}

func (s *scanner) eof() error {
	return &SyntaxError{Offset: len(s.data), Pointer: s.pointer(len(s.stack)), Err: io.ErrUnexpectedEOF}
}

// maxPointerTokens bounds an error's pointer: a text nested ten thousand
// deep is reported by its first and last tokens, around an ellipsis.
const maxPointerTokens = 40

// pointer is the JSON pointer of the value the first depth frames lead to.
func (s *scanner) pointer(depth int) string {
	var b []byte
	for k, f := range s.stack[:depth] {
		if depth > maxPointerTokens && k >= maxPointerTokens/2 && k < depth-maxPointerTokens/2 {
			if k == maxPointerTokens/2 {
				b = append(b, "/…"...)
			}
			continue
		}
		switch {
		case !f.object:
			b = strconv.AppendUint(append(b, '/'), uint64(f.at), 10)
		case f.at != noName:
			b = appendPointerToken(append(b, '/'), s.text(f.at, &s.a))
		}
	}
	return string(b)
}

// appendPointerToken escapes a member name as RFC 6901 says: "~" as "~0",
// "/" as "~1".
func appendPointerToken(b, name []byte) []byte {
	for _, c := range name {
		switch c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}
