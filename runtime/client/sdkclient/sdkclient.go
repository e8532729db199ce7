// Package sdkclient runs the generated typed client over the official Go
// SDK's client (github.com/modelcontextprotocol/go-sdk): its transports
// (Streamable HTTP with resumption and OAuth, a command's stdio), its
// protocol eras and its answers to a server's questions, under the
// runtime's typed layer: the same pins in _meta, the same typed drift
// error, the same results, the same tools/list cache.
//
// Connect opens a Client; Session adapts a session the host opened
// itself (without the cache, which needs the session's list_changed
// handler).
//
// It is a module of its own so that the main module, and programs that do
// not use the SDK, never require it.
package sdkclient

import (
	"context"
	"encoding/json"
	"errors"

	sdkjsonrpc "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Session is a connected SDK client session seen as a client.ToolCaller.
type Session struct {
	Session *sdk.ClientSession
}

var _ client.ToolCaller = Session{}

// CallTool calls a tool through the SDK session. The call options become
// the request's _meta; a protocol error comes back as a *jsonrpc.Error of
// the runtime (or a *drift.Error for a schema-hash mismatch), as from the
// runtime's client.
func (s Session) CallTool(ctx context.Context, name string, arguments any, opts ...client.CallOption) (*client.CallResult, error) {
	params := &sdk.CallToolParams{Name: name, Arguments: arguments}
	if len(opts) > 0 {
		meta := map[string]any{}
		for _, o := range opts {
			o(meta)
		}
		params.Meta = meta
	}
	res, err := s.Session.CallTool(ctx, params)
	if err != nil {
		var wire *sdkjsonrpc.Error
		if errors.As(err, &wire) {
			rpc := &jsonrpc.Error{Code: int(wire.Code), Message: wire.Message}
			if len(wire.Data) > 0 {
				rpc.Data = json.RawMessage(wire.Data)
			}
			if d, ok := drift.FromRPCError(rpc); ok {
				return nil, d
			}
			return nil, rpc
		}
		return nil, err
	}
	var out client.CallResult
	if err := convert(res, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
