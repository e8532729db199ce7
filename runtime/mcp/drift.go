package mcp

import (
	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// DriftError is the schema-drift refusal (package drift holds the rule and
// its wire form, shared with the client).
type DriftError = drift.Error

// DriftReason is the "reason" member of a drift error's data.
const DriftReason = drift.Reason

// DriftFromRPCError recognises a drift error received from a server.
func DriftFromRPCError(e *jsonrpc.Error) (*DriftError, bool) { return drift.FromRPCError(e) }
