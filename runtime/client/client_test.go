package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

var investigator = estate.Principal{AgentID: "agent-1", Tenant: "wholesale",
	Scopes: []string{"payments.read", "crm.write"}, MaxClassification: estate.Confidential}

func lookupSpec(version, in string) estate.ToolSpec {
	return sampleSpec("payments.lookup", version, "Look up a payment", "Look a payment up.", in,
		estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil)
}

func newServer(t *testing.T) (*mcp.Server, *estate.Registry, *int) {
	t.Helper()
	reg := estate.NewRegistry()
	srv, err := mcp.NewServer(mcp.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	calls := new(int)
	if err := srv.Bind(lookupSpec("1.0.0", lookupSchema), mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		*calls++
		return mcp.TextResult("ok"), nil
	}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, reg, calls
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestListCacheDroppedOncePerChange: the cache serves repeated lists, and
// each estate change costs exactly one new tools/list.
func TestListCacheDroppedOncePerChange(t *testing.T) {
	srv, reg, _ := newServer(t)
	notes := make(chan string, 8)
	c := pipe(srv, investigator, client.Options{OnNotification: func(m string, _ json.RawMessage) { notes <- m }})
	defer c.Close()
	ctx := ctxT(t)
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := c.ListTools(ctx, false); err != nil {
			t.Fatal(err)
		}
	}
	if c.ListCalls() != 1 {
		t.Fatalf("three lists cost %d round trips, want 1", c.ListCalls())
	}
	if err := reg.Deprecate("payments.lookup", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	if m := <-notes; m != "notifications/tools/list_changed" {
		t.Fatalf("notification %q", m)
	}
	tools, err := c.ListTools(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	c.ListTools(ctx, false)
	if c.ListCalls() != 2 || c.Invalidations() != 1 || len(tools) != 0 {
		t.Errorf("after one change: %d list calls, %d invalidations, %d tools; want 2, 1, 0", c.ListCalls(), c.Invalidations(), len(tools))
	}
	if _, err := c.ListTools(ctx, true); err != nil || c.ListCalls() != 3 {
		t.Errorf("force must bypass the cache: %d calls, %v", c.ListCalls(), err)
	}
}

// TestProtocolErrorsAreTyped: a protocol error is a *jsonrpc.Error with
// code, message and data; a tool failure is not an error at all.
func TestProtocolErrorsAreTyped(t *testing.T) {
	srv, _, calls := newServer(t)
	c := pipe(srv, investigator, client.Options{ProtocolVersion: "2025-06-18"})
	defer c.Close()
	ctx := ctxT(t)
	c.Connect(ctx)
	_, err := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": 5})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("schema violation: %v", err)
	}
	data, _ := rpcErr.DataJSON()
	if string(data) != `{"errors":["$.reference: expected type string, got integer"]}` {
		t.Errorf("data %s", data)
	}
	_, err = c.CallTool(ctx, "nope", nil)
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown tool: %v", err)
	}
	if *calls != 0 {
		t.Errorf("the handler ran %d times", *calls)
	}
}

// TestSchemaHashPin: a pinned hash that is not the resolved version's
// comes back as the server's typed drift error; the right one goes through.
func TestSchemaHashPin(t *testing.T) {
	srv, reg, calls := newServer(t)
	c := pipe(srv, investigator, client.Options{})
	defer c.Close()
	ctx := ctxT(t)
	c.Connect(ctx)
	_, err := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771"}, client.WithSchemaHash("fnv1a64:0000000000000000"))
	var d *drift.Error
	ok := errors.As(err, &d)
	spec, _ := reg.Latest("payments.lookup")
	if !ok || d.ToolName != "payments.lookup" || d.ExpectedSchemaHash != "fnv1a64:0000000000000000" || d.ObservedHash != spec.InputSchema.Hash() {
		t.Fatalf("drift = %+v, %v", d, ok)
	}
	if _, err := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771"}, client.WithSchemaHash(spec.InputSchema.Hash()), client.WithVersion("^1.0.0")); err != nil {
		t.Fatal(err)
	}
	if *calls != 1 {
		t.Errorf("handler calls %d, want 1 (the drifted call must not reach it)", *calls)
	}
}

// TestResultSaysLifecycle: a pinned call that reaches a version which is
// not listed, a preview or a deprecated one, is told so in its result's
// _meta, with the successor to move to; a call of the active version is
// told nothing.
func TestResultSaysLifecycle(t *testing.T) {
	srv, reg, _ := newServer(t)
	preview := lookupSpec("2.0.0", lookupSchema)
	preview.Lifecycle = estate.Preview
	if err := srv.Bind(preview, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult("ok"), nil
	}}); err != nil {
		t.Fatal(err)
	}
	c := pipe(srv, investigator, client.Options{})
	defer c.Close()
	ctx := ctxT(t)
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"reference": "PMT-771"}
	for _, step := range []struct {
		name   string
		change func() error
		pin    string
		want   client.CallMeta
	}{
		{name: "active, unpinned", want: client.CallMeta{}},
		{name: "preview, pinned", pin: "2.0.0", want: client.CallMeta{Lifecycle: "preview"}},
		{name: "deprecated, pinned", pin: "1.0.0", want: client.CallMeta{Lifecycle: "deprecated", SupersededBy: "payments.lookup@2.0.0"},
			change: func() error { return reg.Deprecate("payments.lookup", "1.0.0", "payments.lookup@2.0.0") }},
	} {
		if step.change != nil {
			if err := step.change(); err != nil {
				t.Fatal(err)
			}
		}
		var opts []client.CallOption
		if step.pin != "" {
			opts = append(opts, client.WithVersion(step.pin))
		}
		res, err := c.CallTool(ctx, "payments.lookup", args, opts...)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if res.Meta != step.want {
			t.Errorf("%s: _meta %+v, want %+v", step.name, res.Meta, step.want)
		}
	}
}

// TestStatelessClient: in 2026-07-28 the client sends no handshake, learns
// about the server from server/discover, and every request carries _meta.
func TestStatelessClient(t *testing.T) {
	srv, _, _ := newServer(t)
	c := pipe(srv, investigator, client.Options{ProtocolVersion: client.StatelessProtocolVersion, Info: client.Implementation{Name: "kernel", Version: "1"}})
	defer c.Close()
	ctx := ctxT(t)
	info, err := c.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.ServerInfo.Name != "mcpgen" || len(info.SupportedVersions) == 0 || info.SupportedVersions[0] != "2026-07-28" {
		t.Errorf("discover: %+v", info)
	}
	// Without _meta on every request the server would refuse these.
	tools, err := c.ListTools(ctx, false)
	if err != nil || len(tools) != 1 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	res, err := c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771"})
	if err != nil || res.Text() != "ok" {
		t.Fatalf("call: %+v %v", res, err)
	}
	// From 2025-11-25 on a schema violation is a result, not an error.
	res, err = c.CallTool(ctx, "payments.lookup", map[string]any{})
	if err != nil || !res.IsError {
		t.Errorf("violation in the stateless era: %+v %v", res, err)
	}
}

// TestClosedConnection: when the server goes away, pending and later calls
// fail instead of hanging.
func TestClosedConnection(t *testing.T) {
	toClient, fromServer := io.Pipe()
	toServer, fromClient := io.Pipe()
	c := client.New(client.NewStreamConn(toClient, fromClient), client.Options{})
	// A server process that exits closes both of its ends.
	fromServer.Close()
	toServer.Close()
	ctx := ctxT(t)
	if _, err := c.ListTools(ctx, false); err == nil {
		t.Fatal("a call on a closed connection succeeded")
	}
}
