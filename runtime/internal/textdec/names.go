package textdec

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// GetAllowingDuplicates is Get for a reader that checks member names
// itself, with DuplicateName: the decoder does not track names.
func GetAllowingDuplicates(data []byte) *Decoder {
	d := pool.Get().(*Decoder)
	d.src = *bytes.NewBuffer(data)
	d.Reset(&d.src, jsontext.AllowDuplicateNames(true))
	return d
}

// DuplicateName reports the first object member name in data that repeats
// a name of the same object, as the error a strict decoder (Get) gives for
// it: the same text, the same JSON pointer. It returns nil when the names
// of every object are distinct. data must be one JSON value a decoder read
// without error (GetAllowingDuplicates): well formed and valid UTF-8.
//
// A strict decoder keeps a copy of every name of the objects it is inside
// and, past 64 names, a map entry holding a string of its own for each:
// over a hundred bytes per name, some fifteen times the size of an object
// of short names. DuplicateName keeps where each name of the open objects
// begins, 4 bytes, and compares an object's names when it closes: pairwise
// for a few, sorted for more (O(n log n) in the names of one object).
// Names with escapes are compared unescaped.
func DuplicateName(data []byte) error {
	if len(data) > math.MaxInt32 {
		return errTooLarge // the scanner's offsets are 32 bits
	}
	s := scanners.Get().(*nameScanner)
	s.data = data
	err := s.scan()
	// A scanner keeps its buffers for the next message unless a large one
	// grew them. Its stack it always keeps: a decoder reads no deeper than
	// 10,000 levels, so the stack never outgrows 192 KiB, and a deep text
	// then costs its depth in frames once per scanner, not once per text.
	if cap(s.names) > 1<<12 || cap(s.a) > 1<<12 || cap(s.b) > 1<<12 {
		s.names, s.a, s.b = nil, nil, nil
	}
	s.data, s.names, s.stack = nil, s.names[:0], s.stack[:0]
	scanners.Put(s)
	return err
}

var errTooLarge = errors.New("JSON text over 2 GiB")

var scanners = sync.Pool{New: func() any { return new(nameScanner) }}

// frame is an object or array the scan is inside.
type frame struct {
	start int32 // where the object's names begin in nameScanner.names
	// at is, in an object, the offset of the member's name being read;
	// in an array, the index of the element being read.
	at     uint32
	object bool
}

// nameScanner walks text a decoder read. A name is the offset in data of
// its opening quote.
type nameScanner struct {
	data  []byte
	names []uint32 // the names of the open objects, outermost first
	stack []frame
	// a and b hold the unescaped text of the two names compared.
	a, b []byte
}

func (s *nameScanner) scan() error {
	data := s.data
	expectName := false
	for i := 0; i < len(data); {
		switch data[i] {
		case '{':
			s.grow()
			s.stack = append(s.stack, frame{object: true, start: int32(len(s.names))})
			expectName = true
			i++
		case '[':
			s.grow()
			s.stack = append(s.stack, frame{start: int32(len(s.names))})
			i++
		case '}':
			top := len(s.stack) - 1
			if at, found := s.repeat(s.names[s.stack[top].start:]); found {
				return s.report(top, at)
			}
			s.names = s.names[:s.stack[top].start]
			s.stack = s.stack[:top]
			i++
		case ']':
			s.stack = s.stack[:len(s.stack)-1]
			i++
		case ',':
			if top := &s.stack[len(s.stack)-1]; top.object {
				expectName = true
			} else {
				top.at++
			}
			i++
		case '"':
			end, _ := stringEnd(data, i)
			if expectName {
				if len(s.names) == cap(s.names) {
					// Doubling: what the slice allocates in all stays
					// within twice its final size.
					s.names = slices.Grow(s.names, max(len(s.names), 8))
				}
				s.names = append(s.names, uint32(i))
				s.stack[len(s.stack)-1].at = uint32(i)
				expectName = false
			}
			i = end + 1
		default:
			i++
		}
	}
	return nil
}

// grow makes room for one more frame, doubling the stack.
func (s *nameScanner) grow() {
	if len(s.stack) == cap(s.stack) {
		s.stack = slices.Grow(s.stack, max(len(s.stack), 16))
	}
}

// stringEnd returns the offset of the quote that closes the string opening
// at data[open], and whether the string has an escape. Names are mostly
// short: they are read byte by byte, a long string with IndexByte.
func stringEnd(data []byte, open int) (end int, escaped bool) {
	i := open + 1
	for ; i < len(data) && i < open+32; i++ {
		switch data[i] {
		case '"':
			return i, escaped
		case '\\':
			escaped = true
			i++ // the escaped byte is never the closing quote
		}
	}
	for i < len(data) {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			break
		}
		end = i + q
		if bytes.IndexByte(data[i:end], '\\') < 0 {
			return end, escaped
		}
		escaped = true
		backslashes := 0
		for j := end - 1; j > open && data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return end, escaped
		}
		i = end + 1 // the quote is escaped
	}
	return len(data) - 1, escaped // cannot happen in text a decoder read
}

// text returns the unescaped name at pos, in buf when it needs unescaping.
func (s *nameScanner) text(pos uint32, buf *[]byte) []byte {
	end, escaped := stringEnd(s.data, int(pos))
	if !escaped {
		return s.data[pos+1 : end]
	}
	*buf, _ = jsontext.AppendUnquote((*buf)[:0], s.data[pos:end+1])
	return *buf
}

func (s *nameScanner) compare(x, y uint32) int {
	return bytes.Compare(s.text(x, &s.a), s.text(y, &s.b))
}

// repeat finds, among one object's names, the name that first repeats an
// earlier one in document order. It may reorder names.
func (s *nameScanner) repeat(names []uint32) (at uint32, found bool) {
	if len(names) <= 8 {
		// Each name's text once, the unescaped ones one after another
		// in s.a.
		var texts [8][]byte
		var spans [8][2]int
		s.a = s.a[:0]
		for i, pos := range names {
			end, escaped := stringEnd(s.data, int(pos))
			if !escaped {
				texts[i] = s.data[pos+1 : end]
				continue
			}
			start := len(s.a)
			s.a, _ = jsontext.AppendUnquote(s.a, s.data[pos:end+1])
			spans[i] = [2]int{start, len(s.a)}
		}
		for i := range names {
			if spans[i] != [2]int{} {
				texts[i] = s.a[spans[i][0]:spans[i][1]]
			}
		}
		for j := 1; j < len(names); j++ {
			for i := range j {
				if bytes.Equal(texts[i], texts[j]) {
					return names[j], true
				}
			}
		}
		return 0, false
	}
	// Sorted by name, equal names in document order: each equal pair's
	// second is a repeat, and the first of them in the document is the one
	// a strict decoder stops at.
	slices.SortFunc(names, func(x, y uint32) int {
		if c := s.compare(x, y); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	for i := 1; i < len(names); i++ {
		if (!found || names[i] < at) && s.compare(names[i-1], names[i]) == 0 {
			at, found = names[i], true
		}
	}
	return at, found
}

// report is the error for the repeat at, found when the object of frame
// top closed. A strict decoder stops at the first repeat in the document,
// which may be one of an enclosing object's names read before at: those
// objects are still open, so their names so far are checked too.
func (s *nameScanner) report(top int, at uint32) error {
	object := top
	for f := top - 1; f >= 0; f-- {
		if !s.stack[f].object {
			continue
		}
		names := s.names[s.stack[f].start:s.stack[f+1].start]
		if a, found := s.repeat(names); found && a < at {
			at, object = a, f
		}
	}
	var ptr jsontext.Pointer
	for _, f := range s.stack[:object] {
		if f.object {
			ptr = ptr.AppendToken(string(s.text(f.at, &s.a)))
		} else {
			ptr = ptr.AppendToken(strconv.Itoa(int(f.at)))
		}
	}
	ptr = ptr.AppendToken(string(s.text(at, &s.a)))
	return &jsontext.SyntacticError{ByteOffset: int64(at), JSONPointer: ptr, Err: jsontext.ErrDuplicateName}
}
