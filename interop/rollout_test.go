package interop

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
	svcpkg "github.com/mcpgen/mcpgen/runtime/service"
)

// TestPreviewRolloutWithTheSDK ships stock.reserve@2.0.0, a breaking
// major (requested_by becomes required), as a preview beside 1.0.0. The
// official Go SDK's client, unmodified, never pins a version: it is still
// listed and served 1.0.0, while a call pinned to ^2.0.0 reaches 2.0.0.
// Promoting 2.0.0 through the service's lifecycle file sends
// notifications/tools/list_changed, and from then on the same unpinned
// client lists and reaches 2.0.0; a pin to ^1.0.0 still reaches 1.0.0.
func TestPreviewRolloutWithTheSDK(t *testing.T) {
	ctx := timeout(t)
	reserve := func(version, required string, life estate.Lifecycle) estate.ToolSpec {
		return estate.ToolSpec{
			Name: "stock.reserve", Version: estate.MustParseVersion(version), Title: "Reserve stock",
			Description: "Reserve units of a SKU.", SideEffect: estate.WriteIdempotent,
			DataClassification: estate.Internal, Owner: "warehouse", Lifecycle: life,
			InputSchema: schema.MustParseJSON(`{"type":"object","properties":{"sku":{"type":"string"},"requested_by":{"type":"string"}},"required":[` + required + `],"additionalProperties":false}`),
		}
	}
	srv, err := mcp.NewServer(mcp.Options{Name: "warehouse", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	// The handler says which version served the call.
	served := mcp.Tool{Handler: func(_ context.Context, call *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(call.Spec.Key()), nil
	}}
	for _, s := range []estate.ToolSpec{reserve("1.0.0", `"sku"`, ""), reserve("2.0.0", `"sku","requested_by"`, estate.Preview)} {
		if err := srv.Bind(s, served); err != nil {
			t.Fatal(err)
		}
	}

	changed := make(chan struct{}, 4)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		srv.ServeStream(context.Background(), toServer, fromServer, estate.Principal{AgentID: "picker", MaxClassification: estate.Internal})
		fromServer.Close()
	}()
	c := sdk.NewClient(&sdk.Implementation{Name: "sdk-host", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	listed := func() string {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name+"@"+tool.Meta["version"].(string))
		}
		return strings.Join(out, ",")
	}
	call := func(pin string, args map[string]any) (string, *sdk.CallToolResult) {
		t.Helper()
		p := &sdk.CallToolParams{Name: "stock.reserve", Arguments: args}
		if pin != "" {
			p.Meta = sdk.Meta{"version": pin}
		}
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("call pinned %q: %v", pin, err)
		}
		if res.IsError || len(res.Content) == 0 {
			t.Fatalf("call pinned %q failed: %+v", pin, res)
		}
		return res.Content[0].(*sdk.TextContent).Text, res
	}
	old := map[string]any{"sku": "A-1"}
	full := map[string]any{"sku": "A-1", "requested_by": "ops"}

	// 2.0.0 in preview: the unpinned client is not moved.
	if got := listed(); got != "stock.reserve@1.0.0" {
		t.Errorf("in preview, tools/list shows %s, want stock.reserve@1.0.0", got)
	}
	if got, _ := call("", old); got != "stock.reserve@1.0.0" {
		t.Errorf("in preview, an unpinned call is served by %s, want 1.0.0", got)
	}
	got, res := call("^2.0.0", full)
	if got != "stock.reserve@2.0.0" {
		t.Errorf("in preview, a call pinned to ^2.0.0 is served by %s, want 2.0.0", got)
	}
	if life := res.Meta["lifecycle"]; life != "preview" {
		t.Errorf("the pinned call's result says lifecycle %v, want preview", life)
	}
	select {
	case <-changed:
		t.Fatal("tools/list_changed before anything changed")
	default:
	}

	// The promotion: a lifecycle change, no redeploy.
	file := filepath.Join(t.TempDir(), "lifecycle.json")
	if err := os.WriteFile(file, []byte(`{"stock.reserve@2.0.0": "active"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := svcpkg.ApplyLifecycle(srv.Registry(), file); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the promotion")
	}
	if got := listed(); got != "stock.reserve@2.0.0" {
		t.Errorf("promoted, tools/list shows %s, want stock.reserve@2.0.0", got)
	}
	if got, _ := call("", full); got != "stock.reserve@2.0.0" {
		t.Errorf("promoted, an unpinned call is served by %s, want 2.0.0", got)
	}
	if got, _ := call("^1.0.0", old); got != "stock.reserve@1.0.0" {
		t.Errorf("promoted, a call pinned to ^1.0.0 is served by %s, want 1.0.0", got)
	}
}
