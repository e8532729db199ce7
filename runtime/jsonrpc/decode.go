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
//     MCP has batches in 2025-03-26 only, where a server splits them with
//     SplitBatch and takes each member through Decode and every gate of
//     its own; Decode itself reads one message.
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
	"strconv"
	"sync"
	"sync/atomic"

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
	if _, _, err := env.read(data, nil); err != nil {
		return Message{}, err
	}
	return env.message()
}

// DecodeParams is Decode that also calls each with every member of the
// request's params object, in order, as EachMember would (each may be
// nil): for a message Decode accepts that has params, never for one it
// refuses. The members are found by the pass that checks the text, so a
// server that reads a request's params members (MCP's name, arguments,
// _meta) does not walk the params a second time; params it cannot split
// so (a name written with an escape, more than textdec.MaxInner members)
// are walked by EachMember.
func DecodeParams(data []byte, each func(name []byte, value json.RawMessage)) (Message, *Error) {
	if each == nil {
		return Decode(data)
	}
	var env envelope
	var buf [8]textdec.Member // a request's params are a few members; up to textdec.MaxInner grow it
	split, found, err := env.read(data, buf[:0])
	if err != nil {
		return Message{}, err
	}
	m, rpcErr := env.message()
	if rpcErr != nil || m.Params == nil {
		return m, rpcErr
	}
	if !found {
		EachMember(m.Params, each)
		return m, nil
	}
	for _, p := range split {
		each(p.UnquotedName(nil), json.RawMessage(p.Value)) // a name with an escape is unescaped into a buffer of its own
	}
	return m, nil
}

// envelope holds the members of a message object as JSON text, before any
// rule about them is checked, so that a parse error anywhere in the text is
// reported as one before any envelope rule.
type envelope struct {
	jsonrpc, id, method, params, result, err []byte
}

// read checks data strictly (textdec.Validate: the one place the rules of
// the package documentation are enforced, in one pass) and then splits the
// message's members, which needs no check of its own. Given params (not
// nil), it also appends to it the members of a params object written
// "params" (found says it did; see textdec.ValidateSplit).
func (e *envelope) read(data []byte, params []textdec.Member) (split []textdec.Member, found bool, rpcErr *Error) {
	// The members are found by the pass that checks the text: an
	// envelope's few members, whose params are most of its bytes, are
	// not walked again.
	var buf [8]textdec.Member
	inner := ""
	if params != nil {
		inner = `"params"`
	}
	members, split, found, err := textdec.ValidateSplit(data, buf[:0], inner, params)
	if err != nil {
		return nil, false, parseError(err)
	}
	switch textdec.Kind(data) {
	case '{':
	case '[':
		return nil, false, NewError(CodeInvalidRequest, msgBatch)
	default:
		return nil, false, NewError(CodeInvalidRequest, msgNotObject)
	}
	var buf64 [64]byte
	for _, m := range members {
		v := json.RawMessage(m.Value)
		switch string(m.UnquotedName(buf64[:0])) {
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
	}
	return split, found, nil
}

func (e *envelope) message() (Message, *Error) {
	var m Message
	// The id is read first so that every error can be answered under it;
	// the rules are then checked in a fixed order: jsonrpc, method, id,
	// params, so one message always gets the same error. An invalid id leaves m.ID zero, so its error goes out as null.
	idValid := e.id == nil || textdec.Kind(e.id) == 'n'
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
	method, ok := UnquoteInterned(e.method)
	if !ok || method == "" {
		return m, NewError(CodeInvalidRequest, msgBadMethod)
	}
	if !idValid || (e.id != nil && m.ID.IsZero()) {
		// "id": null in a request: JSON-RPC discourages it and MCP forbids
		// it; there is nothing to answer to but an error.
		return m, NewError(CodeInvalidRequest, msgBadID)
	}
	if e.params != nil && textdec.Kind(e.params) != '{' {
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

func decodeErrorObject(v []byte) (*Error, bool) {
	if textdec.Kind(v) != '{' {
		return nil, false
	}
	var out Error
	var haveCode, haveMessage, bad bool
	EachMember(v, func(name []byte, value json.RawMessage) {
		switch string(name) {
		case "code":
			n, err := strconv.Atoi(string(value))
			if err != nil {
				bad = true // not an integer, or beyond int
				return
			}
			out.Code, haveCode = n, true
		case "message":
			s, ok := Unquote(value)
			if !ok {
				bad = true
				return
			}
			out.Message, haveMessage = s, true
		case "data":
			out.Data = value
		}
	})
	return &out, !bad && haveCode && haveMessage
}

// ForEachMember calls fn with each member of the JSON object obj, in order,
// the value as JSON text aliasing obj. It stops at the first error fn
// returns, and fails on text that is not one object under the rules of
// Decode (duplicate names and invalid UTF-8 included).
func ForEachMember(obj json.RawMessage, fn func(name string, value json.RawMessage) error) error {
	if err := textdec.Validate(obj); err != nil {
		return err
	}
	if textdec.Kind(obj) != '{' {
		return errors.New("not a JSON object")
	}
	var err error
	EachMember(obj, func(name []byte, value json.RawMessage) {
		if err == nil {
			err = fn(Intern(name), value)
		}
	})
	return err
}

// EachMember calls fn with each member of the JSON object obj: the name,
// unescaped (its bytes are valid during the call only), and the value as
// JSON text, a slice of obj. obj must be text Decode accepted, or a value
// within it: it is split, not checked again (that is ForEachMember). A
// value is skipped over, never decoded, so the walk allocates nothing
// whatever obj holds.
func EachMember(obj []byte, fn func(name []byte, value json.RawMessage)) {
	var buf [64]byte
	textdec.EachMember(obj, func(m textdec.Member) {
		fn(m.UnquotedName(buf[:0]), json.RawMessage(m.Value))
	})
}

// UnquoteInterned is Unquote for a string that recurs on every message,
// interned (see Intern) when it has no escape: method and member names,
// the protocol version a request's _meta names.
func UnquoteInterned(v []byte) (string, bool) {
	if b, ok := plain(v); ok {
		return Intern(b), true
	}
	return Unquote(v)
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
func isVersion(v []byte) bool {
	if string(v) == `"`+Version+`"` {
		return true
	}
	s, ok := Unquote(v)
	return ok && s == Version
}

// Unquote returns the string a JSON string literal v stands for; ok is
// false when v is not one. It is the one reading of a string member for
// the server and its transports, and expects v from a message Decode
// accepted: a literal without escapes is taken as it is.
func Unquote(v []byte) (string, bool) {
	if b, ok := plain(v); ok {
		return string(b), true
	}
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	var buf [64]byte
	s, ok := textdec.AppendUnquote(buf[:0], v)
	return string(s), ok
}

// plain returns the bytes between the quotes of v, a JSON string literal
// without an escape, which are then the string (a message was read
// strictly, so they hold no control character and no invalid UTF-8); ok
// is false for a literal with an escape and for anything else.
func plain(v []byte) (b []byte, ok bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return nil, false
	}
	return v[1 : len(v)-1], true
}

// UnquoteEqual reports whether v's string, as Unquote reads it ("" when v
// is not a string), is s, without making the string when v has no escape:
// a reader that only compares a member with a value it has.
func UnquoteEqual(v []byte, s string) bool {
	if b, ok := plain(v); ok {
		return string(b) == s
	}
	u, _ := Unquote(v)
	return u == s
}

func parseError(err error) *Error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return NewError(CodeParseError, "parse error: unexpected end of input")
	}
	return NewError(CodeParseError, "parse error: "+err.Error())
}
