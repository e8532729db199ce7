package client

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// RequestHandler answers a request the server sends the client
// (sampling/createMessage, elicitation/create, roots/list). It returns the
// result, anything that encodes as a JSON object, or an error: a
// *jsonrpc.Error is sent as it is, any other error as -32603 with its
// text. ctx ends when the server cancels the request or the connection
// closes.
type RequestHandler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// inbound tracks the server's requests being answered, so that the
// server's notifications/cancelled reaches the handler.
type inbound struct {
	mu      sync.Mutex
	cancels map[string]context.CancelFunc // by request id text
}

func (in *inbound) start(id jsonrpc.ID) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	in.mu.Lock()
	if in.cancels == nil {
		in.cancels = map[string]context.CancelFunc{}
	}
	in.cancels[id.String()] = cancel
	in.mu.Unlock()
	return ctx
}

func (in *inbound) finish(id jsonrpc.ID) {
	in.mu.Lock()
	cancel := in.cancels[id.String()]
	delete(in.cancels, id.String())
	in.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// cancelAll ends every handler still running: the connection is gone.
func (in *inbound) cancelAll() {
	in.mu.Lock()
	cancels := in.cancels
	in.cancels = nil
	in.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
}

// serverCancelled handles the server's notifications/cancelled for one of
// its requests.
func (in *inbound) serverCancelled(params json.RawMessage) {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID.IsZero() {
		return
	}
	in.mu.Lock()
	cancel := in.cancels[p.RequestID.String()]
	in.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// answer runs Options.OnRequest for one server request and sends its
// answer, unless the server cancelled the request meanwhile (a cancelled
// request is not answered).
func (c *Client) answer(msg jsonrpc.Message) {
	ctx := c.inbound.start(msg.ID)
	defer c.inbound.finish(msg.ID)
	result, err := c.opts.OnRequest(ctx, msg.Method, msg.Params)
	if ctx.Err() != nil {
		return
	}
	var resp []byte
	if err == nil {
		resp, err = jsonrpc.EncodeResult(msg.ID, result)
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = jsonrpc.NewError(jsonrpc.CodeInternalError, err.Error())
		}
		resp = jsonrpc.EncodeError(msg.ID, rpcErr)
	}
	_ = c.conn.Write(context.Background(), resp)
}

// WithProgressToken asks the server for progress notifications about this
// call (notifications/progress carrying token); Options.OnNotification
// sees them.
func WithProgressToken(token string) CallOption {
	return func(meta map[string]any) { meta["progressToken"] = token }
}
