package bench

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// lookupText is what every server's payments.lookup answers.
func lookupText(reference string) string { return reference + ": HELD, 250000 AED" }

// bankHandlers implements the generated bank.Handler with the same trivial
// work as the anchors' handlers.
type bankHandlers struct{}

func (bankHandlers) CrmNotesAppendV1(_ context.Context, _ *mcp.Call, _ bank.CrmNotesAppendV1Args) (*mcp.Result, error) {
	return mcp.TextResult("appended"), nil
}

func (bankHandlers) PaymentsLookupV1(_ context.Context, _ *mcp.Call, a bank.PaymentsLookupV1Args) (*mcp.Result, error) {
	return mcp.TextResult(lookupText(a.Reference)), nil
}

func (bankHandlers) PaymentsLookupV2(_ context.Context, _ *mcp.Call, a bank.PaymentsLookupV2Args) (*mcp.Result, error) {
	return mcp.TextResult(lookupText(a.Reference)), nil
}

func (bankHandlers) PaymentsLookupV3(_ context.Context, _ *mcp.Call, a bank.PaymentsLookupV3Args) (*mcp.Result, error) {
	return mcp.TextResult(lookupText(a.Reference)), nil
}

func (bankHandlers) PaymentsReleaseV1(_ context.Context, _ *mcp.Call, a bank.PaymentsReleaseV1Args) (*mcp.Result, error) {
	return mcp.TextResult("released " + a.Reference), nil
}

// investigator is the worked session's principal: payments.read, cleared to
// confidential.
var investigator = estate.Principal{
	AgentID: "payments-investigator", Tenant: "wholesale",
	Scopes: []string{"payments.read"}, MaxClassification: estate.Confidential,
}

// newBankServer is the generated bank package served by the mcpgen runtime.
func newBankServer(tb testing.TB) *mcp.Server {
	tb.Helper()
	return newBankServerWith(tb, func(*mcp.Options) {})
}

// newBankServerWith is newBankServer with its options as set changes
// them.
func newBankServerWith(tb testing.TB, set func(*mcp.Options)) *mcp.Server {
	tb.Helper()
	opts := bank.Options()
	set(&opts)
	srv, err := mcp.NewServer(opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := bank.Register(srv, bankHandlers{}); err != nil {
		tb.Fatal(err)
	}
	return srv
}

// serviceLog is the log a service writes: JSON lines through the
// asynchronous sink, here to io.Discard, so that the writer's own cost is
// not the benchmark's.
func serviceLog(tb testing.TB) *slog.Logger {
	log, _ := serviceLogSink(tb)
	return log
}

// serviceLogSink is serviceLog and its sink, whose Lost count says
// whether a row wrote every record it claims to (see reportLost).
func serviceLogSink(tb testing.TB) (*slog.Logger, *oplog.Async) {
	sink := oplog.NewAsync(oplog.NewJSONHandler(io.Discard, nil), oplog.AsyncOptions{})
	tb.Cleanup(func() { sink.Close(context.Background()) })
	return slog.New(sink), sink
}

// reportLost reports the records sink dropped, per call (lost/op): a row
// with the log on whose writer fell behind wrote less than it claims,
// and was timed for less.
func reportLost(b *testing.B, sink *oplog.Async) {
	b.ReportMetric(float64(sink.Lost())/float64(b.N), "lost/op")
}

// newLoggedBankServer is newBankServer with the call log on, written to
// log as a service writes it (see serviceLog).
func newLoggedBankServer(tb testing.TB, log *slog.Logger) *mcp.Server {
	tb.Helper()
	return newBankServerWith(tb, func(opts *mcp.Options) { opts.Logger = log })
}

// serveMcpgen serves srv over the stream transport for principal p.
func serveMcpgen(srv *mcp.Server, p estate.Principal) serveFunc {
	return func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return srv.ServeStream(ctx, in, out, p)
	}
}

// sdkTool is a tool for the official Go SDK server: a name, the schema
// document, and its typed handler registered with mcp.AddTool.
type sdkTool struct {
	name, description string
	schema            []byte
}

func parseGoogleSchema(tb testing.TB, doc []byte) *gjs.Schema {
	tb.Helper()
	var s gjs.Schema
	if err := json.Unmarshal(doc, &s); err != nil {
		tb.Fatal(err)
	}
	return &s
}

// newSDKServer is the official Go SDK server with every tool added through
// mcp.AddTool (typed input, validation by the SDK).
func newSDKServer(tb testing.TB, tools []sdkTool) *sdk.Server {
	tb.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "bank-payments-mcp", Version: "2.3.1"}, nil)
	handler := func(_ context.Context, _ *sdk.CallToolRequest, in lookupV2Args) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: lookupText(in.Reference)}}}, nil, nil
	}
	for _, t := range tools {
		sdk.AddTool(s, &sdk.Tool{Name: t.name, Description: t.description, InputSchema: parseGoogleSchema(tb, t.schema)}, handler)
	}
	return s
}

func serveSDK(s *sdk.Server) serveFunc {
	return func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		ss, err := s.Connect(ctx, &sdk.IOTransport{Reader: in, Writer: out}, nil)
		if err != nil {
			return err
		}
		return ss.Wait()
	}
}

// newMcpGoServer is mark3labs/mcp-go with input schema validation on and
// every tool added with its raw schema and a typed handler.
func newMcpGoServer(tools []sdkTool) *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("bank-payments-mcp", "2.3.1",
		mcpgoserver.WithToolCapabilities(true), mcpgoserver.WithInputSchemaValidation())
	handler := mcpgomcp.NewTypedToolHandler(func(_ context.Context, _ mcpgomcp.CallToolRequest, in lookupV2Args) (*mcpgomcp.CallToolResult, error) {
		return mcpgomcp.NewToolResultText(lookupText(in.Reference)), nil
	})
	for _, t := range tools {
		s.AddTool(mcpgomcp.NewToolWithRawSchema(t.name, t.description, json.RawMessage(t.schema)), handler)
	}
	return s
}

// serveMcpGo serves s over mcp-go's stdio server. mcp-go keeps one stdio
// session per process, so only one such connection may be open at a time.
func serveMcpGo(s *mcpgoserver.MCPServer) serveFunc {
	return func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		stdio := mcpgoserver.NewStdioServer(s)
		stdio.SetErrorLogger(log.New(io.Discard, "", 0))
		return stdio.Listen(ctx, in, out)
	}
}

// dialed starts serve, runs the handshake, and closes the connection when
// the benchmark ends.
func dialed(b *testing.B, serve serveFunc) *pipeConn {
	b.Helper()
	c := dial(serve)
	b.Cleanup(c.close)
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	return c
}
