package jsonrpc

import "github.com/mcpgen/mcpgen/runtime/internal/textdec"

// PeekRequest reads what a request names, its id and its method, without
// checking the rest of the text: a transport that must start requests in
// the order it reads them (ServeStream registers each id, so that a
// duplicate is refused and notifications/cancelled reaches it) can leave
// Decode, most of a message's reading, to whichever goroutine runs it.
//
// ok says data is an object whose first members include "id", an integer
// of digits alone or a string of plain ASCII, and "method", a string of
// ASCII without escapes, and neither "result" nor "error" before both;
// the members before are skipped as they come, and nothing after both is
// read (clients write them first, before the params, most of a message).
// A name with an escape, an "id" or "method" written twice before both
// are found, or anything else reads as not ok, for Decode to judge. When
// ok, Decode either refuses data (the text is not well formed, it repeats
// a name, or it breaks a rule of the envelope) or returns a request with
// this very id and method.
func PeekRequest(data []byte) (id ID, method string, ok bool) {
	if id, method, ok := peekUsual(data); ok {
		return id, method, true
	}
	i := textdec.SkipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return ID{}, "", false
	}
	var idText, methodText []byte
	for i++; ; i++ {
		i = textdec.SkipSpace(data, i)
		if i == len(data) || data[i] != '"' {
			return ID{}, "", false // an empty object, or not a name
		}
		end, escaped, _, found := textdec.ScanString(data, i)
		if !found || escaped {
			return ID{}, "", false
		}
		name := data[i+1 : end]
		i = textdec.SkipSpace(data, end+1)
		if i == len(data) || data[i] != ':' {
			return ID{}, "", false
		}
		i = textdec.SkipSpace(data, i+1)
		valueEnd, found := skipValue(data, i)
		if !found {
			return ID{}, "", false
		}
		value := data[i:valueEnd]
		switch string(name) {
		case "id":
			if idText != nil {
				return ID{}, "", false
			}
			idText = value
		case "method":
			if methodText != nil {
				return ID{}, "", false
			}
			methodText = value
		case "result", "error":
			return ID{}, "", false
		}
		if idText != nil && methodText != nil {
			break
		}
		i = textdec.SkipSpace(data, valueEnd)
		if i == len(data) {
			return ID{}, "", false
		}
		if data[i] != ',' {
			return ID{}, "", false // the end of the object, or not a member
		}
	}
	id, ok = peekID(idText)
	if !ok || len(methodText) == 0 || methodText[0] != '"' {
		return ID{}, "", false
	}
	end, plain := plainString(methodText, 0)
	if !plain || end != len(methodText)-1 || end == 1 {
		return ID{}, "", false
	}
	return id, Intern(methodText[1:end]), true
}

// plainString reports whether the string opening at data[open] is closed
// and of ASCII without escapes, and where it closes: what PeekRequest
// takes as it is, where Decode would read the same text.
func plainString(data []byte, open int) (end int, plain bool) {
	end, escaped, ascii, found := textdec.ScanString(data, open)
	return end, found && !escaped && ascii
}

// usualHead is how the clients of the MCP SDKs, and most others, begin a
// request: peekUsual reads it by comparing bytes.
const usualHead = `{"jsonrpc":"2.0","id":`

// peekUsual is PeekRequest for a request that begins as usualHead, then a
// counter id and a method of plain ASCII: its id and method read without
// the general walk over members. ok is false for anything else.
func peekUsual(data []byte) (id ID, method string, ok bool) {
	if len(data) < len(usualHead) || string(data[:len(usualHead)]) != usualHead {
		return ID{}, "", false
	}
	i := len(usualHead)
	end := i
	for end < len(data) && data[end] >= '0' && data[end] <= '9' {
		end++
	}
	const methodHead = `,"method":"`
	rest := data[end:]
	if end == i || len(rest) < len(methodHead) || string(rest[:len(methodHead)]) != methodHead {
		return ID{}, "", false
	}
	id, ok = peekID(data[i:end])
	if !ok {
		return ID{}, "", false
	}
	open := end + len(methodHead) - 1
	closing, plain := plainString(data, open)
	if !plain || closing == open+1 {
		return ID{}, "", false
	}
	return id, Intern(data[open+1 : closing]), true
}

// peekID returns the id whose text is v, when it is one whose text Decode
// would keep as it is: digits alone, without a leading zero, or a string
// of printable ASCII without escapes (see StringID).
func peekID(v []byte) (ID, bool) {
	if len(v) == 0 {
		return ID{}, false
	}
	if v[0] == '"' {
		if end, plain := plainString(v, 0); !plain || end != len(v)-1 {
			return ID{}, false
		}
		return ID{string(v)}, true
	}
	if v[0] == '0' && len(v) > 1 {
		return ID{}, false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return ID{}, false
		}
	}
	return ID{string(v)}, true
}

// skipValue returns the offset just past the value that begins at
// data[i], read only as far as finding its end needs: strings to their
// closing quote, objects and arrays to the bracket that closes them,
// anything else to the next byte that can follow a value. found is false
// when data ends first, or when no value begins at data[i].
func skipValue(data []byte, i int) (end int, found bool) {
	if i == len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		end, _, _, found := textdec.ScanString(data, i)
		return end + 1, found
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, true
				}
			case '"':
				end, _, _, found := textdec.ScanString(data, i)
				if !found {
					return 0, false
				}
				i = end
			}
		}
		return 0, false
	case '}', ']', ',', ':':
		return 0, false
	}
	for end = i; end < len(data); end++ {
		switch data[end] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return end, end > i
		}
	}
	return end, true
}
