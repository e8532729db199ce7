package mcp_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// recorder keeps the events a server reports, with durations dropped.
type recorder struct {
	mu     sync.Mutex
	events []mcp.Event
}

func (r *recorder) observe(ev mcp.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev.Duration = 0
	r.events = append(r.events, ev)
}

func (r *recorder) take() []mcp.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// TestObserveReportsEveryGate drives one stdio session through each kind
// of outcome a metric counts and checks the events, in order: every
// refusal names its gate, a call is bracketed by its start and finish,
// and a handler's error is a failed finish.
func TestObserveReportsEveryGate(t *testing.T) {
	rec := &recorder{}
	b := newBank(t, mcp.Options{Observe: rec.observe})
	b.bind(t, freeTool("ops.fail", "read"), func(*mcp.Call) (*mcp.Result, error) { return nil, errors.New("core banking is down") })
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	if got := rec.take(); !slices.Equal(got, []mcp.Event{{Kind: mcp.SessionOpened}}) {
		t.Fatalf("after the handshake: %+v", got)
	}
	w.call(`{"jsonrpc":"2.0","id":1,"method":`)
	w.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no.such.tool","arguments":{}}}`)
	w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-1"},"_meta":{"schemaHash":"x"}}}`)
	w.call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":7}}}`)
	w.call(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`)
	w.call(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ops.fail","arguments":{}}}`)
	want := []mcp.Event{
		{Kind: mcp.Refused, Refusal: mcp.RefusedEnvelope},
		{Kind: mcp.Refused, Refusal: mcp.RefusedUnknownTool, Tool: "no.such.tool"},
		{Kind: mcp.Refused, Refusal: mcp.RefusedDrift, Tool: "payments.lookup", Version: "1.0.0"},
		{Kind: mcp.Refused, Refusal: mcp.RefusedSchema, Tool: "payments.lookup", Version: "1.0.0"},
		{Kind: mcp.CallStarted, Tool: "payments.lookup", Version: "1.0.0"},
		{Kind: mcp.CallFinished, Tool: "payments.lookup", Version: "1.0.0"},
		{Kind: mcp.CallStarted, Tool: "ops.fail", Version: "1.0.0"},
		{Kind: mcp.CallFinished, Tool: "ops.fail", Version: "1.0.0", Failed: true},
	}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
	if _, err := w.finish(); err != nil {
		t.Fatal(err)
	}
	if got := rec.take(); !slices.Equal(got, []mcp.Event{{Kind: mcp.SessionClosed}}) {
		t.Errorf("after the input ended: %+v", got)
	}
}
