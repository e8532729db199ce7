// Package client is the MCP client of the runtime: one connection to one
// server (a client per server keeps each server's version,
// capabilities and failures apart), the handshake or the stateless era's
// per-request _meta, a tools/list cache that notifications/tools/list_changed
// drops, and typed calls. A protocol error comes back as a *jsonrpc.Error
// carrying code, message and data; a tool failure is a result with IsError.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The protocol revisions the client speaks. DefaultProtocolVersion is the
// newest handshake-era revision; StatelessProtocolVersion is the revision
// without a handshake.
const (
	DefaultProtocolVersion   = protocol.Revision20251125
	StatelessProtocolVersion = protocol.Revision20260728
)

// Options configure a Client. The zero value is usable.
type Options struct {
	// Info is sent as clientInfo; it defaults to mcpgen-client.
	Info Implementation
	// ProtocolVersion is the revision to ask for; "" means
	// DefaultProtocolVersion. StatelessProtocolVersion (or later) selects
	// the stateless era: no handshake, _meta on every request.
	ProtocolVersion string
	// Capabilities are the client capabilities declared to the server.
	Capabilities map[string]any
	// OnNotification, when set, sees every notification from the server,
	// after the client has acted on it (a list_changed has already dropped
	// the cache). It runs on the client's read loop: it must not block,
	// and must not wait for a call on this client (hand work to another
	// goroutine instead).
	OnNotification func(method string, params json.RawMessage)
	// OnRequest, when set, answers the server's requests (sampling,
	// elicitation, roots), each on a goroutine of its own, so it may block
	// while a user decides. Declare the matching Capabilities. Without it
	// every server request is refused with -32601.
	OnRequest RequestHandler
}

// Client is a connection to one MCP server. Its methods are safe for
// concurrent use.
type Client struct {
	conn   Conn
	opts   Options
	nextID atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan jsonrpc.Message
	readErr error
	done    chan struct{}
	inbound inbound

	info ServerInfo

	tools ToolCache
}

// New starts a client on conn. Call Connect before anything else.
func New(conn Conn, opts Options) *Client {
	if opts.Info.Name == "" {
		opts.Info = Implementation{Name: "mcpgen-client", Version: "0"}
	}
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = DefaultProtocolVersion
	}
	if opts.Capabilities == nil {
		opts.Capabilities = map[string]any{}
	}
	c := &Client{conn: conn, opts: opts, pending: map[int64]chan jsonrpc.Message{}, done: make(chan struct{})}
	go c.readLoop()
	return c
}

// Stateless reports whether the client speaks the stateless revision.
func (c *Client) Stateless() bool { return c.opts.ProtocolVersion >= StatelessProtocolVersion }

// Connect performs the handshake (initialize, then
// notifications/initialized) or, in the stateless era, server/discover.
func (c *Client) Connect(ctx context.Context) (*ServerInfo, error) {
	var info ServerInfo
	if c.Stateless() {
		if err := c.call(ctx, protocol.MethodDiscover, map[string]any{}, &info); err != nil {
			return nil, err
		}
		if info.ProtocolVersion == "" {
			info.ProtocolVersion = c.opts.ProtocolVersion
		}
		// The stateless era names the server in every result's _meta.
		if info.ServerInfo.Name == "" {
			info.ServerInfo = info.Meta.ServerInfo
		}
	} else {
		params := map[string]any{
			"protocolVersion": c.opts.ProtocolVersion,
			"capabilities":    c.opts.Capabilities,
			"clientInfo":      c.opts.Info,
		}
		if err := c.call(ctx, protocol.MethodInitialize, params, &info); err != nil {
			return nil, err
		}
		if err := c.notify(ctx, protocol.NotificationInitialized, nil); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	c.info = info
	c.mu.Unlock()
	return &info, nil
}

// Server returns what Connect learned.
func (c *Client) Server() ServerInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// Supports reports whether the server declared the named capability.
func (c *Client) Supports(capability string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.info.Capabilities[capability]
	return ok
}

// ListTools returns the tools the server shows this client, from the cache
// when it holds them. The cache is dropped when the server sends
// notifications/tools/list_changed; force bypasses it.
func (c *Client) ListTools(ctx context.Context, force bool) ([]Tool, error) {
	return c.tools.List(ctx, force, func(ctx context.Context, cursor string) ([]Tool, string, error) {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []Tool `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		err := c.call(ctx, protocol.MethodToolsList, params, &page)
		return page.Tools, page.NextCursor, err
	})
}

// ListCalls counts the tools/list round trips made so far: a test can see
// that the cache served a list, and that list_changed forced a new one.
func (c *Client) ListCalls() int { return c.tools.ListCalls() }

// Invalidations counts the list_changed notifications that dropped the
// cache.
func (c *Client) Invalidations() int { return c.tools.Invalidations() }

// ToolCaller is what a generated typed client needs of a connection: the
// runtime's *Client is one; an adapter can make another MCP client one.
type ToolCaller interface {
	CallTool(ctx context.Context, name string, arguments any, opts ...CallOption) (*CallResult, error)
}

var _ ToolCaller = (*Client)(nil)

// CallOption adjusts one tools/call.
type CallOption func(meta map[string]any)

// WithVersion pins a version constraint ("^1.0.0", "1.0.0"): the server
// resolves it among the versions this client is entitled to, deprecated
// included, retired never, and a preview only when no other version
// satisfies the constraint (so "^2.0.0" reaches a 2.0.0 preview, "*" does
// not).
func WithVersion(constraint string) CallOption {
	return func(meta map[string]any) { meta[protocol.MetaVersion] = constraint }
}

// WithSchemaHash pins the schema hash the caller was written against; the
// server refuses the call with a drift error when the version it resolves
// has another.
func WithSchemaHash(hash string) CallOption {
	return func(meta map[string]any) { meta[protocol.MetaSchemaHash] = hash }
}

// CallTool calls a tool. arguments is anything that encodes as a JSON
// object (a map, a struct, json.RawMessage). A protocol error is a
// *jsonrpc.Error, except a schema-hash mismatch, which is a *drift.Error
// (the pinned contract is not the one served; the tool did not run).
func (c *Client) CallTool(ctx context.Context, name string, arguments any, opts ...CallOption) (*CallResult, error) {
	params := map[string]any{"name": name, "arguments": arguments}
	if arguments == nil {
		params["arguments"] = map[string]any{}
	}
	if len(opts) > 0 {
		meta := map[string]any{}
		for _, o := range opts {
			o(meta)
		}
		params["_meta"] = meta
	}
	var res CallResult
	if err := c.call(ctx, protocol.MethodToolsCall, params, &res); err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			if d, ok := drift.FromRPCError(rpcErr); ok {
				return nil, d
			}
		}
		return nil, err
	}
	return &res, nil
}

// ListResources returns the resources the server shows this client.
func (c *Client) ListResources(ctx context.Context) ([]protocol.Resource, error) {
	var res struct {
		Resources []protocol.Resource `json:"resources"`
	}
	err := c.call(ctx, protocol.MethodResourcesList, map[string]any{}, &res)
	return res.Resources, err
}

// ReadResource reads a resource.
func (c *Client) ReadResource(ctx context.Context, uri string) ([]protocol.ResourceContents, error) {
	var res struct {
		Contents []protocol.ResourceContents `json:"contents"`
	}
	err := c.call(ctx, protocol.MethodResourcesRead, map[string]any{"uri": uri}, &res)
	return res.Contents, err
}

// ListPrompts returns the prompts the server offers.
func (c *Client) ListPrompts(ctx context.Context) ([]protocol.Prompt, error) {
	var res struct {
		Prompts []protocol.Prompt `json:"prompts"`
	}
	err := c.call(ctx, protocol.MethodPromptsList, map[string]any{}, &res)
	return res.Prompts, err
}

// GetPrompt fills a prompt's template with arguments (nil sends none).
func (c *Client) GetPrompt(ctx context.Context, name string, arguments map[string]string) (*PromptResult, error) {
	params := map[string]any{"name": name}
	if arguments != nil {
		params["arguments"] = arguments
	}
	var res PromptResult
	if err := c.call(ctx, protocol.MethodPromptsGet, params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Ping checks that the server answers (handshake era; the stateless
// revision removed ping).
func (c *Client) Ping(ctx context.Context) error {
	return c.call(ctx, protocol.MethodPing, map[string]any{}, nil)
}

// Call sends any request and decodes its result into result (which may be
// nil). It is the escape hatch for methods this package has no helper for.
func (c *Client) Call(ctx context.Context, method string, params map[string]any, result any) error {
	return c.call(ctx, method, params, result)
}

// Close closes the connection; pending calls fail.
func (c *Client) Close() error {
	err := c.conn.Close()
	<-c.done
	return err
}

// ErrClosed is returned by calls on a connection that has ended.
var ErrClosed = errors.New("client: connection closed")

func (c *Client) withMeta(params map[string]any) map[string]any {
	if !c.Stateless() {
		return params
	}
	out := make(map[string]any, len(params)+1)
	for k, v := range params {
		out[k] = v
	}
	meta := map[string]any{}
	if m, ok := params["_meta"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	meta[protocol.MetaProtocolVersion] = c.opts.ProtocolVersion
	meta[protocol.MetaClientCapabilities] = c.opts.Capabilities
	meta[protocol.MetaClientInfo] = c.opts.Info
	out["_meta"] = meta
	return out
}

func (c *Client) call(ctx context.Context, method string, params map[string]any, result any) error {
	id := c.nextID.Add(1)
	msg, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      int64          `json:"id"`
		Method  string         `json:"method"`
		Params  map[string]any `json:"params"`
	}{"2.0", id, method, c.withMeta(params)})
	if err != nil {
		return fmt.Errorf("client: encoding %s: %w", method, err)
	}
	ch := make(chan jsonrpc.Message, 1)
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	if err := c.conn.Write(ctx, msg); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		c.cancel(id, ctx.Err())
		return ctx.Err()
	case <-c.done:
		// The read loop may have delivered the answer just before ending.
		select {
		case resp := <-ch:
			return decodeResult(method, resp, result)
		default:
			return ErrClosed
		}
	case resp := <-ch:
		return decodeResult(method, resp, result)
	}
}

func decodeResult(method string, resp jsonrpc.Message, result any) error {
	if resp.Error != nil {
		return resp.Error
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Result, result); err != nil {
		return fmt.Errorf("client: decoding the %s result: %w", method, err)
	}
	return nil
}

// cancel tells the server a request is no longer wanted
// (notifications/cancelled); best effort.
func (c *Client) cancel(id int64, reason error) {
	ctx := context.Background()
	_ = c.notify(ctx, protocol.NotificationCancelled, map[string]any{"requestId": id, "reason": reason.Error()})
}

func (c *Client) notify(ctx context.Context, method string, params map[string]any) error {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	msg, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.conn.Write(ctx, msg)
}

func (c *Client) readLoop() {
	defer close(c.done)
	defer c.inbound.cancelAll()
	ctx := context.Background()
	for {
		raw, err := c.conn.Read(ctx)
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			return
		}
		msg, derr := jsonrpc.Decode(raw)
		if derr != nil {
			// A message the client cannot read is dropped; the request
			// it answered (if any) times out with its context.
			continue
		}
		switch {
		case msg.IsResponse():
			n, ok := msg.ID.Int()
			if !ok {
				continue
			}
			c.mu.Lock()
			ch := c.pending[n]
			c.mu.Unlock()
			if ch != nil {
				ch <- msg
			}
		case msg.IsNotification():
			c.onNotification(msg.Method, msg.Params)
		case msg.IsRequest():
			if c.opts.OnRequest != nil {
				go c.answer(msg)
				continue
			}
			// Server-to-client requests (sampling, elicitation, roots) are
			// not offered: the client declared no such capability.
			c.refuse(ctx, msg)
		}
	}
}

func (c *Client) refuse(ctx context.Context, msg jsonrpc.Message) {
	resp, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": json.RawMessage(msg.ID.String()),
		"error": map[string]any{"code": jsonrpc.CodeMethodNotFound, "message": "method not supported by this client: " + strconv.Quote(msg.Method)},
	})
	if err == nil {
		_ = c.conn.Write(ctx, resp)
	}
}

func (c *Client) onNotification(method string, params json.RawMessage) {
	if method == protocol.NotificationCancelled {
		c.inbound.serverCancelled(params)
	}
	if method == protocol.NotificationToolsChanged {
		c.tools.Invalidate()
	}
	if c.opts.OnNotification != nil {
		c.opts.OnNotification(method, params)
	}
}
