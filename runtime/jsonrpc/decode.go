// Package jsonrpc is the JSON-RPC 2.0 message model shared by the MCP server
// and client: error codes, the Error type, request/response/notification
// encoding, and decoding with envelope validation.
//
// # What Decode accepts
//
// One JSON object per message, strictly:
//
//   - The text must be exactly one JSON value (RFC 8259) in valid UTF-8.
//     Invalid UTF-8 — including an escaped lone surrogate such as "\ud800" —
//     is a parse error (-32700), never silently replaced: a replaced byte
//     would change what a pattern or an enum is checked against.
//   - Object member names must be unique at every depth (RFC 7493, I-JSON).
//     A duplicate is a parse error (-32700): parsers disagree about which
//     of two "amount" members wins, and a gateway that reads the first while
//     the handler reads the last is a way to smuggle a value past a check.
//   - Member names match exactly; "Method" is not "method".
//   - A JSON array (a batch) is refused with one -32600 error and id null:
//     MCP has no batches from 2025-06-18 on, and answering a batch element
//     by element would let one message bypass the per-message gates.
//   - A request has jsonrpc "2.0", a non-empty string method, an id that is
//     a string or an integer literal (1.5, 1.0, 1e3, null, booleans, arrays
//     and objects are -32600), and params that are an object when present.
//
// A parse error is answered with id null; an envelope error with the
// message's id when that id is itself valid, null otherwise.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// Version is the value of every message's "jsonrpc" member.
const Version = "2.0"

// The envelope error messages, one per rule.
const (
	msgBadVersion  = "jsonrpc must be '2.0'"
	msgBadMethod   = "method must be a non-empty string"
	msgBadID       = "id must be a string or an integer"
	msgBadParams   = "params must be an object"
	msgBatch       = "batch requests are not supported"
	msgNotObject   = "a message must be a JSON object"
	msgBadResponse = "a response must carry exactly one of result and error"
	msgBadError    = "error must be an object with an integer code and a string message"
	msgMixed       = "a message cannot be both a request and a response"
)

// Message is one decoded message: a request (Method and ID), a notification
// (Method, zero ID), or a response (ID, and Result or Error).
type Message struct {
	ID     ID
	Method string
	// Params is the params object as received; nil when absent.
	Params json.RawMessage
	// Result is a success response's result as received.
	Result json.RawMessage
	// Error is an error response's error; its Data is a json.RawMessage.
	Error *Error
}

// IsRequest reports whether m is a request: it names a method and has an id.
func (m *Message) IsRequest() bool { return m.Method != "" && !m.ID.IsZero() }

// IsNotification reports whether m is a notification: a method without id.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID.IsZero() }

// IsResponse reports whether m is a response (a result or an error).
func (m *Message) IsResponse() bool { return m.Method == "" }

// Decode reads one message and validates its envelope (see the package
// documentation). On failure it returns the error to answer with and, in
// the message's ID, the id to answer it under (zero, encoded as null, when
// the id is missing or itself invalid). The returned message's raw fields
// alias data.
func Decode(data []byte) (Message, *Error) {
	var env envelope
	if err := env.read(data); err != nil {
		return Message{}, err
	}
	return env.message()
}

// envelope holds the members of a message object as JSON text, before any
// rule about them is checked, so that a parse error anywhere in the text is
// reported as one before any envelope rule.
type envelope struct {
	jsonrpc, id, method, params, result, err jsontext.Value
}

func (e *envelope) read(data []byte) *Error {
	d := textdec.GetAllowingDuplicates(data)
	defer d.Put()
	dec := &d.Decoder
	switch dec.PeekKind() {
	case '{':
	case '[':
		if _, err := readWhole(dec); err != nil {
			return parseError(err)
		}
		return NewError(CodeInvalidRequest, msgBatch)
	default:
		if _, err := readWhole(dec); err != nil {
			return parseError(err)
		}
		return NewError(CodeInvalidRequest, msgNotObject)
	}
	err := forEachMember(dec, data, func(name string, v jsontext.Value) error {
		switch name {
		case "jsonrpc":
			e.jsonrpc = v
		case "id":
			e.id = v
		case "method":
			e.method = v
		case "params":
			e.params = v
		case "result":
			e.result = v
		case "error":
			e.err = v
		}
		return nil
	})
	if err == nil {
		err = expectEOF(dec)
	}
	if err == nil {
		err = textdec.DuplicateName(data)
	}
	if err != nil {
		return parseError(err)
	}
	return nil
}

func (e *envelope) message() (Message, *Error) {
	var m Message
	// The id is read first so that every error can be answered under it;
	// the rules are then checked in the seed's order: jsonrpc, method, id,
	// params. An invalid id leaves m.ID zero, so its error goes out as null.
	idValid := e.id == nil || e.id.Kind() == 'n'
	if !idValid {
		m.ID, idValid = parseID(e.id)
	}
	if !isVersion(e.jsonrpc) {
		return m, NewError(CodeInvalidRequest, msgBadVersion)
	}
	if e.method == nil {
		if e.result == nil && e.err == nil {
			return m, NewError(CodeInvalidRequest, msgBadMethod)
		}
		return e.response(m, idValid)
	}
	method, ok := internedString(e.method)
	if !ok || method == "" {
		return m, NewError(CodeInvalidRequest, msgBadMethod)
	}
	if !idValid || (e.id != nil && m.ID.IsZero()) {
		// "id": null in a request: JSON-RPC discourages it and MCP forbids
		// it; there is nothing to answer to but an error.
		return m, NewError(CodeInvalidRequest, msgBadID)
	}
	if e.params != nil && e.params.Kind() != '{' {
		return m, NewError(CodeInvalidRequest, msgBadParams)
	}
	if e.result != nil || e.err != nil {
		return m, NewError(CodeInvalidRequest, msgMixed)
	}
	m.Method = method
	m.Params = json.RawMessage(e.params)
	return m, nil
}

func (e *envelope) response(m Message, idValid bool) (Message, *Error) {
	if (e.result == nil) == (e.err == nil) {
		return m, NewError(CodeInvalidRequest, msgBadResponse)
	}
	// A response answers a request by id; only an error response may carry
	// null, for a request whose id could not be read.
	if !idValid || e.id == nil || (m.ID.IsZero() && e.err == nil) {
		return m, NewError(CodeInvalidRequest, msgBadID)
	}
	if e.result != nil {
		m.Result = json.RawMessage(e.result)
		return m, nil
	}
	rpcErr, ok := decodeErrorObject(e.err)
	if !ok {
		return m, NewError(CodeInvalidRequest, msgBadError)
	}
	m.Error = rpcErr
	return m, nil
}

func decodeErrorObject(v jsontext.Value) (*Error, bool) {
	if v.Kind() != '{' {
		return nil, false
	}
	var out Error
	var haveCode, haveMessage bool
	err := ForEachMember(json.RawMessage(v), func(name string, value json.RawMessage) error {
		val := jsontext.Value(value)
		switch name {
		case "code":
			if val.Kind() != '0' {
				return errBadError
			}
			var n int
			if err := json.Unmarshal(value, &n); err != nil {
				return errBadError
			}
			out.Code, haveCode = n, true
		case "message":
			s, ok := Unquote(val)
			if !ok {
				return errBadError
			}
			out.Message, haveMessage = s, true
		case "data":
			out.Data = value
		}
		return nil
	})
	return &out, err == nil && haveCode && haveMessage
}

var errBadError = errors.New(msgBadError)

// ForEachMember calls fn with each member of the JSON object obj, in order,
// the value as JSON text aliasing obj. It stops at the first error fn
// returns, and fails on text that is not one object under the rules of
// Decode (duplicate names and invalid UTF-8 included).
func ForEachMember(obj json.RawMessage, fn func(name string, value json.RawMessage) error) error {
	d := textdec.GetAllowingDuplicates(obj)
	defer d.Put()
	dec := &d.Decoder
	if k := dec.PeekKind(); k != '{' {
		if _, err := readWhole(dec); err != nil {
			return err
		}
		return errors.New("not a JSON object")
	}
	err := forEachMember(dec, obj, func(name string, v jsontext.Value) error {
		return fn(name, json.RawMessage(v))
	})
	if err != nil {
		return err
	}
	if err := expectEOF(dec); err != nil {
		return err
	}
	return textdec.DuplicateName(obj)
}

// forEachMember walks the object at the decoder's position. Values are
// sliced out of data (the decoder's whole input) rather than taken from the
// decoder, whose buffers are reused by the next read.
func forEachMember(dec *jsontext.Decoder, data []byte, fn func(name string, v jsontext.Value) error) error {
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		quoted, err := dec.ReadValue()
		if err != nil {
			return err
		}
		name, ok := internedString(quoted)
		if !ok {
			return errors.New("invalid object member name")
		}
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		end := dec.InputOffset()
		if err := fn(name, jsontext.Value(data[end-int64(len(v)):end])); err != nil {
			return err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	return nil
}

func readWhole(dec *jsontext.Decoder) (jsontext.Value, error) {
	v, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	return v, expectEOF(dec)
}

func expectEOF(dec *jsontext.Decoder) error {
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errors.New("unexpected data after the JSON value")
		}
		return err
	}
	return nil
}

// internedString is the string value v, interned (see Intern) when it has
// no escape: method and member names, a few dozen of which recur on every
// message.
func internedString(v jsontext.Value) (string, bool) {
	if v.Kind() != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return Unquote(v)
	}
	return Intern(v[1 : len(v)-1]), true
}

// Intern returns b as a string: the one string registered for these bytes
// (see RegisterNames), so that the names a server reads on every message
// (methods, params members) are not each a new string. Bytes nobody
// registered come back as a new string and are never kept: a peer that
// makes names up fills no table, and cannot push the real names out of it.
func Intern(b []byte) string {
	if s, ok := Lookup(b); ok {
		return s
	}
	return string(b)
}

// Lookup returns the registered string for b; ok is false when b is not a
// registered name. It never allocates, so a reader can skip members whose
// names it never asks for without paying for their names.
func Lookup(b []byte) (s string, ok bool) {
	s, ok = (*registered.Load())[string(b)]
	return s, ok
}

// RegisterNames adds names to Intern's table. A package calls it from its
// init with the method and member names it reads on every message; the
// table is copied on each call, so lookups take no lock.
func RegisterNames(names ...string) {
	registerMu.Lock()
	defer registerMu.Unlock()
	old := *registered.Load()
	m := make(map[string]string, len(old)+len(names))
	for k, v := range old {
		m[k] = v
	}
	for _, n := range names {
		if _, dup := m[n]; !dup {
			m[n] = n
		}
	}
	registered.Store(&m)
}

var (
	registerMu sync.Mutex
	registered atomic.Pointer[map[string]string]
)

func init() {
	registered.Store(&map[string]string{})
	// The envelope's own members, and those of an error object.
	RegisterNames("jsonrpc", "id", "method", "params", "result", "error", "code", "message", "data")
}

// isVersion reports whether v is the string "2.0", however it is written.
func isVersion(v jsontext.Value) bool {
	if string(v) == `"`+Version+`"` {
		return true
	}
	s, ok := Unquote(v)
	return ok && s == Version
}

// Unquote returns the string a JSON string literal v stands for; ok is
// false when v does not begin as one. It is the one reading of a string
// member for the server and its transports, and expects v from a message
// Decode accepted: a literal without escapes is taken as it is, unchecked.
func Unquote(v []byte) (string, bool) {
	if jsontext.Value(v).Kind() != '"' {
		return "", false
	}
	if len(v) >= 2 && bytes.IndexByte(v, '\\') < 0 {
		// No escape: the text between the quotes is the string (a
		// message was read strictly, so it holds no control character and
		// no invalid UTF-8).
		return string(v[1 : len(v)-1]), true
	}
	s, err := jsontext.AppendUnquote(nil, v)
	return string(s), err == nil
}

func parseError(err error) *Error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return NewError(CodeParseError, "parse error: unexpected end of input")
	}
	return NewError(CodeParseError, "parse error: "+strings.TrimPrefix(err.Error(), "jsontext: "))
}
