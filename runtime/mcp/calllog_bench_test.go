package mcp_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// BenchmarkCallLogArguments is a tools/call through Session.Handle with
// the call log on, as a service writes it (oplog.Async over a
// JSONHandler, here to io.Discard), for a tool whose input schema marks
// none of its five properties secret (secrets=none) and one whose schema
// marks its PIN so (secrets=pin): what logging a call's arguments costs
// when a secret in them must not reach the log.
func BenchmarkCallLogArguments(b *testing.B) {
	for _, secrets := range []string{"none", "pin"} {
		b.Run("secrets="+secrets, func(b *testing.B) {
			sink := oplog.NewAsync(oplog.NewJSONHandler(io.Discard, nil), oplog.AsyncOptions{})
			b.Cleanup(func() { sink.Close(context.Background()) })
			srv, err := mcp.NewServer(mcp.Options{Logger: slog.New(sink)})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { srv.Close() })
			marker := ""
			if secrets == "pin" {
				marker = `,"x-secret":true`
			}
			spec := freeTool("payments.authorise", estate.WriteNonIdempotent)
			spec.InputSchema = schema.MustParseJSON(`{"type":"object","properties":{"account":{"type":"string"},"pin":{"type":"string"` + marker + `},` +
				`"amount_minor":{"type":"integer"},"currency":{"type":"string"},"memo":{"type":"string"}},"required":["account","pin"]}`)
			if err := srv.Bind(spec, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("authorised"), nil }}); err != nil {
				b.Fatal(err)
			}
			sess := handshakenSession(b, srv)
			ctx := context.Background()
			req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.authorise","arguments":` +
				`{"account":"AE070331234567890123456","pin":"4921","amount_minor":250000,"currency":"AED","memo":"invoice 2026-114"}}}`)
			if out := string(sess.Handle(ctx, req)); !strings.Contains(out, "authorised") {
				b.Fatalf("tools/call: %s", out)
			}
			b.ReportAllocs()
			for b.Loop() {
				sess.Handle(ctx, req)
			}
		})
	}
}
