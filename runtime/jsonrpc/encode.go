package jsonrpc

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// Marshal encodes v as encode.Marshal does (encoding/json's rules, map
// keys sorted, without HTML escaping: "<" stays "<"; an Appender writes
// itself). A json.RawMessage is returned as it is, unchecked.
func Marshal(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return encode.Marshal(v)
}

// Appender is a value that appends its own JSON encoding (see
// encode.Appender).
type Appender = encode.Appender

// absent reports whether v stands for "no value": nil, or a nil
// json.RawMessage (the params of a decoded message that had none).
func absent(v any) bool {
	raw, isRaw := v.(json.RawMessage)
	return v == nil || (isRaw && raw == nil)
}

// EncodeRequest encodes a request. A nil params leaves the member out.
func EncodeRequest(id ID, method string, params any) ([]byte, error) {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id.String()...)
	return appendCall(b, method, params)
}

// EncodeNotification encodes a notification (a request without id, which
// is never answered). A nil params leaves the member out.
func EncodeNotification(method string, params any) ([]byte, error) {
	return appendCall([]byte(`{"jsonrpc":"2.0"`), method, params)
}

func appendCall(b []byte, method string, params any) ([]byte, error) {
	b = append(b, `,"method":`...)
	b = textdec.AppendQuote(b, method)
	if !absent(params) {
		p, err := Marshal(params)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"params":`...)
		b = append(b, p...)
	}
	return append(b, '}'), nil
}

// EncodeResult encodes a success response. A nil result is sent as {}.
func EncodeResult(id ID, result any) ([]byte, error) { return AppendResult(nil, id, result) }

// AppendResult appends the success response carrying result to b, as
// EncodeResult encodes it: a transport that writes answers one after
// another encodes each into the same buffer.
func AppendResult(b []byte, id ID, result any) ([]byte, error) {
	if a, ok := result.(Appender); ok {
		if b == nil {
			// One allocation for the whole answer, the usual size of a
			// tool result.
			b = make([]byte, 0, 256)
		}
		b, err := a.AppendJSON(AppendResultHead(b, id))
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	}
	r := json.RawMessage(`{}`)
	if !absent(result) {
		var err error
		if r, err = Marshal(result); err != nil {
			return nil, err
		}
	}
	b = slices.Grow(b, len(r)+48)
	b = AppendResultHead(b, id)
	b = append(b, r...)
	return append(b, '}'), nil
}

// AppendResultHead appends the head of a success response to b, up to
// where the result's encoding goes: {"jsonrpc":"2.0","id":…,"result":. The
// response ends with the result and a closing brace; a transport that
// writes a large shared result as it is (not copied into each response)
// writes this head, the result, and "}".
func AppendResultHead(b []byte, id ID) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id.String()...)
	return append(b, `,"result":`...)
}

// EncodeError encodes an error response; the zero id goes out as null. It
// cannot fail: data that does not encode is left out, the code and message
// still go.
func EncodeError(id ID, e *Error) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id.String()...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = textdec.AppendQuote(b, e.Message)
	if data, err := e.DataJSON(); err == nil && data != nil {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, "}}"...)
}
