// Package drift is the typed schema-drift error
// (docs/concepts.md#the-hash-and-drift): a
// tools/call whose caller pinned an input schema hash that is not the hash
// of the version the call resolved to. The server answers it; the client
// recognises it, so callers branch on it with errors.As.
package drift

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Reason is the "reason" member of a drift error's data.
const Reason = "schemaDrift"

// Error is a tools/call refused because the caller pinned an input
// schema hash (_meta.schemaHash) that is not the hash of the version its
// call resolved to: the contract it planned against is not the one served.
// The handler is not reached, so the caller can repair its plan (re-list,
// re-plan) without a side effect having happened.
//
// On the wire it is a JSON-RPC error in every revision: code -32602 (the
// pinned contract makes the params invalid for the tool served), message
// "schema drift: <tool>", and data
//
//	{"reason": "schemaDrift", "toolName": "...", "version": "X.Y.Z",
//	 "expectedSchemaHash": "<the caller's pin>", "observedHash": "<served>"}
//
// (docs/concepts.md#the-hash-and-drift). The reason
// member tells it apart from a -32602 listing schema errors.
type Error struct {
	ToolName string `json:"toolName"`
	// Version is the version the call resolved to.
	Version string `json:"version"`
	// ExpectedSchemaHash is the hash the caller pinned.
	ExpectedSchemaHash string `json:"expectedSchemaHash"`
	// ObservedHash is the hash of the input schema the server serves.
	ObservedHash string `json:"observedHash"`
}

// Error describes the drift.
func (e *Error) Error() string {
	return "schema drift: " + e.ToolName + "@" + e.Version + " has input schema " + e.ObservedHash + ", the caller pinned " + e.ExpectedSchemaHash
}

type driftData struct {
	Reason string `json:"reason"`
	Error
}

// RPCError is the error the server answers with.
func (e *Error) RPCError() *jsonrpc.Error {
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidParams,
		Message: "schema drift: " + e.ToolName,
		Data:    driftData{Reason: Reason, Error: *e},
	}
}

// FromRPCError recognises a drift error received from a server.
func FromRPCError(e *jsonrpc.Error) (*Error, bool) {
	if e == nil || e.Code != jsonrpc.CodeInvalidParams {
		return nil, false
	}
	raw, err := e.DataJSON()
	if err != nil || raw == nil {
		return nil, false
	}
	var d driftData
	if json.Unmarshal(raw, &d) != nil || d.Reason != Reason {
		return nil, false
	}
	return &d.Error, true
}
