package sdkclient

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/client"
)

// Options configure Connect. The zero value connects with the SDK's
// defaults: its newest revision (2026-07-28, reached through
// server/discover, falling back to the initialize handshake when the
// server does not speak it).
type Options struct {
	// Info is sent as clientInfo; nil means mcpgen-client.
	Info *sdk.Implementation
	// ProtocolVersion is the revision to ask for; "" leaves it to the SDK.
	ProtocolVersion string
	// SDK are the SDK client's own options: the host's elicitation and
	// sampling handlers (which also answer a 2026-07-28 server's
	// input_required results), capabilities, notification handlers. Its
	// ToolListChangedHandler, when set, runs after the cache is dropped.
	SDK sdk.ClientOptions
}

// Client is a connection to one MCP server through the official Go SDK's
// client, with what the SDK's session does not keep: the tools/list cache
// that notifications/tools/list_changed drops (client.ToolCache, the
// runtime client's rule) and calls that pin a version and a schema hash
// and come back typed. It is a client.ToolCaller, so a generated typed
// client runs over it.
//
// The transport is the SDK's: for Streamable HTTP its
// StreamableClientTransport, which opens the GET stream for the server's
// notifications, resumes a dropped event stream from the last event id,
// and, given an OAuthHandler, obtains and refreshes the bearer token.
type Client struct {
	session *sdk.ClientSession
	tools   client.ToolCache
}

var _ client.ToolCaller = (*Client)(nil)

// Connect opens a session with the server over transport and returns it
// as a Client. Close it when done.
func Connect(ctx context.Context, transport sdk.Transport, opts Options) (*Client, error) {
	info := opts.Info
	if info == nil {
		info = &sdk.Implementation{Name: "mcpgen-client", Version: "0"}
	}
	c := &Client{}
	sdkOpts := opts.SDK
	onChanged := sdkOpts.ToolListChangedHandler
	// The SDK opens the stateless era's subscriptions/listen stream only
	// when this handler is set, so it is always set.
	sdkOpts.ToolListChangedHandler = func(ctx context.Context, req *sdk.ToolListChangedRequest) {
		c.tools.Invalidate()
		if onChanged != nil {
			onChanged(ctx, req)
		}
	}
	cs, err := sdk.NewClient(info, &sdkOpts).Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: opts.ProtocolVersion})
	if err != nil {
		return nil, err
	}
	c.session = cs
	return c, nil
}

// Session is the SDK session underneath, for what this package has no
// method for (resources, prompts, completion).
func (c *Client) Session() *sdk.ClientSession { return c.session }

// ProtocolVersion is the revision the session speaks.
func (c *Client) ProtocolVersion() string {
	if res := c.session.InitializeResult(); res != nil {
		return res.ProtocolVersion
	}
	return ""
}

// CallTool calls a tool, the options pinning version and schema hash in
// the request's _meta; see Session.CallTool for the errors.
func (c *Client) CallTool(ctx context.Context, name string, arguments any, opts ...client.CallOption) (*client.CallResult, error) {
	return Session{Session: c.session}.CallTool(ctx, name, arguments, opts...)
}

// ListTools returns the tools the server shows this client, every page,
// from the cache when it holds them; force bypasses the cache.
func (c *Client) ListTools(ctx context.Context, force bool) ([]client.Tool, error) {
	return c.tools.List(ctx, force, func(ctx context.Context, cursor string) ([]client.Tool, string, error) {
		res, err := c.session.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		var tools []client.Tool
		if err := convert(res.Tools, &tools); err != nil {
			return nil, "", err
		}
		return tools, res.NextCursor, nil
	})
}

// ListCalls counts the complete tools/list fetches made so far.
func (c *Client) ListCalls() int { return c.tools.ListCalls() }

// Invalidations counts the list_changed notifications that dropped the
// cache.
func (c *Client) Invalidations() int { return c.tools.Invalidations() }

// Close ends the session.
func (c *Client) Close() error { return c.session.Close() }

// convert copies an SDK value into the runtime's type for the same wire
// object: through JSON, so every field and block stays as sent.
func convert(from, to any) error {
	data, err := json.Marshal(from)
	if err != nil {
		return fmt.Errorf("sdkclient: %w", err)
	}
	if err := json.Unmarshal(data, to); err != nil {
		return fmt.Errorf("sdkclient: %w", err)
	}
	return nil
}
