package textdec

import (
	"unicode/utf16"
	"unicode/utf8"
)

// AppendUnquote appends to dst the string the JSON string literal quoted
// (quotes included) stands for. ok is false when quoted is not one string
// literal Validate would accept.
func AppendUnquote(dst, quoted []byte) (_ []byte, ok bool) {
	if len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return dst, false
	}
	s := quoted[1 : len(quoted)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c < 0x20:
			return dst, false
		case c != '\\':
			start := i
			for i < len(s) && s[i] != '\\' && s[i] != '"' && s[i] >= 0x20 {
				i++
			}
			if !ValidUTF8(s[start:i]) {
				return dst, false
			}
			dst = append(dst, s[start:i]...)
			continue
		}
		if i+1 >= len(s) {
			return dst, false
		}
		switch s[i+1] {
		case '"', '\\', '/':
			dst = append(dst, s[i+1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				return dst, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				lo, ok := hex4(s, i)
				if !ok || s[i+1] != 'u' {
					return dst, false
				}
				r = utf16.DecodeRune(r, lo)
				if r == utf8.RuneError {
					return dst, false
				}
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			return dst, false
		}
		i += 2
	}
	return dst, true
}

// hex4 reads the \uXXXX escape at s[i].
func hex4(s []byte, i int) (rune, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[i+2 : i+6] {
		h := unhex(c)
		if h < 0 {
			return 0, false
		}
		r = r<<4 | h
	}
	return r, true
}

// Kind is the kind of the JSON value v holds, after any leading
// whitespace: '{', '[', '"', 't', 'f', 'n', or '0' for a number; 0 for
// empty text or text that begins no value.
func Kind(v []byte) byte {
	i := skipSpace(v, 0)
	if i == len(v) {
		return 0
	}
	switch c := v[i]; c {
	case '{', '[', '"', 't', 'f', 'n':
		return c
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0'
	}
	return 0
}

// AppendMember appends `,"name":"value"` to dst, value quoted as
// AppendQuote does; name must need no escaping (the writers of the
// runtime's results pass constants).
func AppendMember(dst []byte, name, value string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return AppendQuote(dst, value)
}

// AppendQuote appends s to dst as a JSON string literal: the quote, the
// backslash and the control characters escaped (the short forms where JSON
// has them), everything else as it is. A byte that is not valid UTF-8 is
// written as U+FFFD, the only form it can have in JSON text.
func AppendQuote(dst []byte, s string) []byte { return appendQuote(dst, s, false) }

// AppendQuoteAsSlog appends s as log/slog's JSON handler writes a string
// (encoding/json's escaping before Go 1.22, HTML left as it is): unlike
// AppendQuote, \b and \f as \u0008 and \u000c, U+2028 and U+2029 escaped,
// and a byte that is not valid UTF-8 as the escape \ufffd. A line that
// must be slog's, byte for byte, is written with it.
func AppendQuoteAsSlog(dst []byte, s string) []byte { return appendQuote(dst, s, true) }

// appendQuote is AppendQuote, or AppendQuoteAsSlog when asSlog.
// Plain ASCII, most of any string, costs both the same.
func appendQuote(dst []byte, s string, asSlog bool) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Plain ASCII 8 bytes at a time: most of a log line's strings
		// (names, versions, hashes, ids) are nothing else.
		if i+8 <= len(s) {
			if w := word(s, i); w&highs == 0 && !special8(w) {
				i += 8
				continue
			}
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				dst = append(dst, s[start:i]...)
				if asSlog {
					dst = append(dst, `\ufffd`...)
				} else {
					dst = utf8.AppendRune(dst, utf8.RuneError)
				}
			case asSlog && (r == '\u2028' || r == '\u2029'):
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			default:
				i += size
				continue
			}
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			if !asSlog {
				dst = append(dst, '\\', 'b')
				break
			}
			dst = append(dst, `\u0008`...)
		case '\f':
			if !asSlog {
				dst = append(dst, '\\', 'f')
				break
			}
			dst = append(dst, `\u000c`...)
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
