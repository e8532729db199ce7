package mcp_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// A server written by hand: one tool version bound to a handler, served
// over a stream as one principal.
func ExampleServer_Bind() {
	srv, err := mcp.NewServer(mcp.Options{Name: "payments", Version: "1.0.0"})
	if err != nil {
		panic(err)
	}
	err = srv.Bind(estate.ToolSpec{
		Name:               "payments.lookup",
		Version:            estate.MustParseVersion("1.0.0"),
		Title:              "Look up a payment",
		Description:        "Return the status of a payment by its reference.",
		InputSchema:        schema.MustParseJSON(`{"type":"object","properties":{"reference":{"type":"string"}},"required":["reference"]}`),
		SideEffect:         estate.Read,
		RequiredScopes:     []string{"payments.read"},
		DataClassification: estate.Confidential,
		Owner:              "wholesale-payments",
	}, mcp.Tool{Handler: func(ctx context.Context, call *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(fmt.Sprintf("%s: HELD", call.Arguments()["reference"])), nil
	}})
	if err != nil {
		panic(err)
	}

	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`,
	}, "\n")
	analyst := estate.Principal{AgentID: "analyst", Tenant: "wholesale", Scopes: []string{"payments.read"}, MaxClassification: estate.Confidential}
	if err := srv.ServeStream(context.Background(), strings.NewReader(input), os.Stdout, analyst); err != nil {
		panic(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{}},"serverInfo":{"name":"payments","version":"1.0.0"}}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"PMT-771: HELD"}],"isError":false}}
}

// The message-level entry point other transports use: one session per
// connection, one Handle per message.
func ExampleSession_Handle() {
	srv, _ := mcp.NewServer(mcp.Options{Name: "payments", Version: "1.0.0"})
	sess := srv.NewSession(estate.Principal{MaxClassification: estate.Public}, nil)
	defer sess.Close()
	out := sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	fmt.Println(string(out))
	// Output:
	// {"jsonrpc":"2.0","id":"d","result":{"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":false,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{}},"resultType":"complete","ttlMs":60000,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"payments","version":"1.0.0"}}}}
}

func BenchmarkToolsCall(b *testing.B) {
	srv, _ := mcp.NewServer(mcp.Options{})
	srv.Bind(lookupSpec("1.0.0", lookupSchema), mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult("HELD"), nil
	}})
	sess := handshakenSession(b, srv)
	ctx := context.Background()
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","include_legs":true}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := sess.Handle(ctx, req); len(out) == 0 {
			b.Fatal("no answer")
		}
	}
}

func BenchmarkToolsList(b *testing.B) {
	srv, _ := mcp.NewServer(mcp.Options{})
	srv.Bind(lookupSpec("1.0.0", lookupSchema), mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, nil }})
	srv.Bind(notesSpec, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, nil }})
	sess := srv.NewSession(investigator, nil)
	defer sess.Close()
	ctx := context.Background()
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + statelessMeta + `}}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := sess.Handle(ctx, req); len(out) == 0 {
			b.Fatal("no answer")
		}
	}
}
