package jsonrpc

import (
	"encoding/json"
	"strconv"
)

// The error codes of JSON-RPC 2.0 (§5.1) and the ones MCP defines in the
// range JSON-RPC reserves for implementations. Codes -32000 to -32019 are
// left to implementations; -32020 to -32099 are MCP's own.
const (
	// CodeParseError: the text is not one JSON value this package accepts
	// (see Decode). The answer carries id null.
	CodeParseError = -32700
	// CodeInvalidRequest: the JSON is not a valid request object, or the
	// request is not allowed in the session's state.
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: no such method, or (in MCP) no such tool the
	// caller may see.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: the params do not fit the method.
	CodeInvalidParams = -32602
	// CodeInternalError: the receiver failed.
	CodeInternalError = -32603

	// CodeHeaderMismatch (MCP 2026-07-28): HTTP headers disagree with the
	// body.
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability (MCP 2026-07-28): the request
	// needs a capability the client did not declare.
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion (MCP 2026-07-28): the protocol version
	// in the request's _meta is not one the server speaks; data carries
	// {"supported": [...], "requested": "..."}.
	CodeUnsupportedProtocolVersion = -32022
)

// Error is a JSON-RPC error object. It is the error value of a response, and
// as a Go error it is what a method returns to have the caller answered
// with a protocol error rather than a result.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	// Data is any JSON-encodable value; nil leaves the member out. Decode
	// stores the received data as json.RawMessage.
	Data any `json:"data,omitempty"`
}

// NewError returns an error with the given code and message and no data.
func NewError(code int, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Error renders the error as "jsonrpc error <code>: <message>".
func (e *Error) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// DataJSON returns the data member as JSON text: the received bytes for a
// decoded error, the encoding of Data otherwise, nil when there is none.
func (e *Error) DataJSON() (json.RawMessage, error) {
	switch d := e.Data.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return d, nil
	}
	return Marshal(e.Data)
}
