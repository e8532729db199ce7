package schema

import (
	"math/bits"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// fixedShape matches the patterns contracts write most, such as
// ^PMT-\d{3,}$, ^[A-Z]{2}$ and ^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$, with a
// loop over the string instead of the regexp machine: a pattern anchored
// at both ends that is a sequence of ASCII literals and ASCII character
// classes, each repeated a fixed number of times except the last, which
// may be repeated within a range. Such a pattern has one way to match, so
// matching it needs no backtracking; any other pattern is left to RE2.
type fixedShape struct {
	prefix string // the leading parts that are one literal byte each, compared at once
	parts  []fixedPart
}

// fixedPart is one element of the sequence: a byte in set, min to max
// times (max -1: no upper bound).
type fixedPart struct {
	set      [4]uint64 // the bytes it takes (ASCII only)
	min, max int
}

func (f *fixedPart) has(b byte) bool { return f.set[b>>6]&(1<<(b&63)) != 0 }

// literal returns the one byte a part taken exactly once stands for, and
// whether it is such a part.
func (f *fixedPart) literal() (byte, bool) {
	if f.min != 1 || f.max != 1 {
		return 0, false
	}
	n, b := 0, 0
	for w, word := range f.set {
		n += bits.OnesCount64(word)
		if word != 0 {
			b = w<<6 + bits.TrailingZeros64(word)
		}
	}
	return byte(b), n == 1
}

// match reports whether s matches the pattern: every part takes its
// count of bytes; the last takes what is left, within its range.
func (f *fixedShape) match(s string) bool {
	if !strings.HasPrefix(s, f.prefix) {
		return false
	}
	i := len(f.prefix)
	for k := range f.parts {
		p := &f.parts[k]
		n := p.min
		if k == len(f.parts)-1 {
			n = len(s) - i
			if n < p.min || p.max >= 0 && n > p.max {
				return false
			}
		}
		if i+n > len(s) {
			return false
		}
		for _, b := range []byte(s[i : i+n]) {
			if !p.has(b) {
				return false
			}
		}
		i += n
	}
	return i == len(s)
}

// fixedShapeOf returns the fixed shape of a pattern, or nil when it has
// none (see fixedShape).
func fixedShapeOf(src string) *fixedShape {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 3 {
		return nil
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil
	}
	var f fixedShape
	for _, sub := range subs[1 : len(subs)-1] {
		min, max := 1, 1
		switch sub.Op {
		case syntax.OpRepeat:
			min, max = sub.Min, sub.Max
			sub = sub.Sub[0]
		case syntax.OpPlus:
			min, max = 1, -1
			sub = sub.Sub[0]
		case syntax.OpStar:
			min, max = 0, -1
			sub = sub.Sub[0]
		case syntax.OpQuest:
			min, max = 0, 1
			sub = sub.Sub[0]
		}
		if sub.Flags&syntax.FoldCase != 0 {
			return nil
		}
		switch sub.Op {
		case syntax.OpLiteral:
			if min != 1 || max != 1 {
				if len(sub.Rune) != 1 {
					return nil
				}
			}
			for _, r := range sub.Rune {
				if r >= utf8.RuneSelf {
					return nil
				}
				var p fixedPart
				p.set[r>>6] |= 1 << (r & 63)
				p.min, p.max = min, max
				f.parts = append(f.parts, p)
			}
		case syntax.OpCharClass:
			var p fixedPart
			for i := 0; i < len(sub.Rune); i += 2 {
				lo, hi := sub.Rune[i], sub.Rune[i+1]
				if hi >= utf8.RuneSelf {
					return nil
				}
				for r := lo; r <= hi; r++ {
					p.set[r>>6] |= 1 << (r & 63)
				}
			}
			p.min, p.max = min, max
			f.parts = append(f.parts, p)
		default:
			return nil
		}
	}
	// Only the last part may take a range: before it, a part that could
	// take more or fewer would need the machine to decide where it ends.
	for _, p := range f.parts[:len(f.parts)-1] {
		if p.min != p.max {
			return nil
		}
	}
	// A literal prefix (PMT- of ^PMT-\d{3,}$) is compared as a string,
	// where a loop over its parts was most of matching a short value.
	var prefix []byte
	for _, p := range f.parts {
		b, ok := p.literal()
		if !ok {
			break
		}
		prefix = append(prefix, b)
	}
	f.prefix, f.parts = string(prefix), f.parts[len(prefix):]
	return &f
}
