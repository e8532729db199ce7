package jsonrpc

import (
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// ID is a request id: a JSON string or a JSON integer. The zero ID is "no
// id" — a notification's, or a response's whose request id could not be
// read — and encodes as null.
//
// An ID keeps its canonical JSON text, so two ids are equal exactly when
// they are the same JSON value: "a" and "\u0061" are one id, 7 and "7" are
// two. Integers keep their literal digits, so an id beyond 64 bits is
// answered exactly as it was sent.
type ID struct{ text string }

// IntID returns the integer id n.
func IntID(n int64) ID { return ID{strconv.FormatInt(n, 10)} }

// StringID returns the string id s.
func StringID(s string) ID {
	// For a string that is not valid UTF-8, AppendQuote still writes it,
	// with U+FFFD for each bad byte: the only form it can have on the wire.
	b := textdec.AppendQuote(nil, s)
	return ID{string(b)}
}

// parseID reads an id from its JSON text. ok is false for anything but a
// string or an integer literal (so 1.5, 1.0, 1e3, null, true, [] and {}
// are all refused).
func parseID(v []byte) (ID, bool) {
	switch textdec.Kind(v) {
	case '"':
		s, ok := Unquote(v)
		if !ok {
			return ID{}, false
		}
		return StringID(s), true
	case '0':
		// A number a strict reading accepted is an integer literal when it
		// has neither fraction nor exponent.
		text := strings.TrimSpace(string(v))
		if strings.ContainsAny(text, ".eE") {
			return ID{}, false
		}
		return ID{text}, true
	}
	return ID{}, false
}

// IsZero reports whether id is the absent id.
func (id ID) IsZero() bool { return id.text == "" }

// IsString reports whether id is a string id.
func (id ID) IsString() bool { return strings.HasPrefix(id.text, `"`) }

// Int returns an integer id's value; ok is false for a string id, the zero
// id, or an integer beyond int64.
func (id ID) Int() (int64, bool) {
	if id.IsZero() || id.IsString() {
		return 0, false
	}
	n, err := strconv.ParseInt(id.text, 10, 64)
	return n, err == nil
}

// Str returns a string id's value; ok is false otherwise.
func (id ID) Str() (string, bool) {
	if !id.IsString() {
		return "", false
	}
	return Unquote([]byte(id.text))
}

// String returns the id as JSON text ("null" for the zero id), which is also
// a good map key: equal ids have equal text.
func (id ID) String() string {
	if id.IsZero() {
		return "null"
	}
	return id.text
}

// MarshalJSON writes the id as JSON (null for the zero id).
func (id ID) MarshalJSON() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalJSON reads a string or integer id; null reads as the zero id.
func (id *ID) UnmarshalJSON(b []byte) error {
	if textdec.Validate(b) != nil {
		return NewError(CodeParseError, "parse error: an id must be one JSON value")
	}
	if textdec.Kind(b) == 'n' {
		*id = ID{}
		return nil
	}
	parsed, ok := parseID(b)
	if !ok {
		return NewError(CodeInvalidRequest, msgBadID)
	}
	*id = parsed
	return nil
}
