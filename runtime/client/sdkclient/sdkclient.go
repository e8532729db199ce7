// Package sdkclient adapts a session of the official Go SDK's client
// (github.com/modelcontextprotocol/go-sdk) to client.ToolCaller, so a
// generated typed client runs over it as over the runtime's own client:
// the same pins in _meta, the same typed drift error, the same results.
//
// It is a package of its own so that only programs that use the SDK link
// it.
package sdkclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
	// The SDK's result and the runtime's describe the same wire object:
	// converting through JSON keeps every block as sent.
	data, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("sdkclient: %w", err)
	}
	var out client.CallResult
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("sdkclient: %w", err)
	}
	return &out, nil
}
