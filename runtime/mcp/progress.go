package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// MetaProgressToken is the request _meta key under which a client asks for
// progress notifications about that request.
const MetaProgressToken = "progressToken"

// progressState is what a call remembers of the progress it reported:
// MCP requires every notification's progress to exceed the previous one's.
type progressState struct {
	mu   sync.Mutex
	sent bool
	last float64
}

type progressNotification struct {
	ProgressToken any      `json:"progressToken"`
	Progress      float64  `json:"progress"`
	Total         *float64 `json:"total,omitempty"`
	Message       string   `json:"message,omitempty"`
}

// progressToken returns the token the client gave in the request's _meta:
// a string or an integer, as MCP allows.
func (c *Call) progressToken() (any, bool) {
	raw := c.metaMembers[metaProgressToken]
	switch kindOf(raw) {
	case '"':
		return jsonrpc.Unquote(raw)
	case '0':
		n := json.Number(raw)
		if _, err := n.Int64(); err == nil {
			return n, true
		}
	}
	return nil, false
}

// Progress reports how far the call has come (notifications/progress):
// progress so far, out of total (0 when the total is unknown), with an
// optional message for the user (sent from 2025-03-26 on). It does nothing
// when the client did not ask for progress (no _meta.progressToken in the
// request), and nothing when the transport cannot carry notifications.
// Progress must increase from one report to the next: a report that does
// not is an error and is not sent.
func (c *Call) Progress(ctx context.Context, progress, total float64, message string) error {
	token, asked := c.progressToken()
	if !asked {
		return nil
	}
	c.progress.mu.Lock()
	defer c.progress.mu.Unlock() // held while sending, so reports go out in order
	if c.progress.sent && progress <= c.progress.last {
		return fmt.Errorf("mcp: progress %v does not exceed the last report, %v", progress, c.progress.last)
	}
	n := progressNotification{ProgressToken: token, Progress: progress}
	if total > 0 {
		n.Total = &total
	}
	if c.Revision.Has(FeatureProgressMessage) {
		n.Message = message
	}
	msg, err := jsonrpc.EncodeNotification(notificationProgress, n)
	if err != nil {
		return fmt.Errorf("mcp: encoding a progress notification: %w", err)
	}
	c.progress.sent, c.progress.last = true, progress
	c.notify(ctx, msg)
	return nil
}
