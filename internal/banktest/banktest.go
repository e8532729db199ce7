// Package banktest holds what the tests of clients against the bank's
// generated package share, in this module (examples/bankpayments, with
// the runtime's client) and in interop (with the official Go SDK's): the
// principal they are served as, a server on in-memory stdio pipes, and a
// server whose payments.lookup@1.0.0 has drifted from the generated
// client's contract. Each client test then differs only in its client.
package banktest

import (
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Investigator may read payments and append CRM notes, up to confidential
// data: payments.lookup is visible to it, payments.release is not.
var Investigator = estate.Principal{AgentID: "inv", Tenant: "wholesale",
	Scopes: []string{"payments.read", "crm.write"}, MaxClassification: estate.Confidential}

// ServeStdio serves srv as principal over in-memory pipes framed as stdio
// is, and returns the client's ends: the server's answers to read, and
// the requests' writer, whose closing ends the session.
func ServeStdio(srv *mcp.Server, principal estate.Principal) (io.Reader, io.WriteCloser) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		srv.ServeStream(context.Background(), toServer, fromServer, principal)
		fromServer.Close()
	}()
	return toClient, fromClient
}

// DriftedLookup is a server whose payments.lookup@1.0.0 takes another
// input schema than the generated client was made from (a test-only
// setup: a published version never changes), and the count of times its
// handler ran, which a pinned call must leave at zero.
func DriftedLookup(t testing.TB) (*mcp.Server, estate.ToolSpec, *atomic.Int32) {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var spec estate.ToolSpec
	for _, s := range bank.Specs() {
		if s.Key() == "payments.lookup@1.0.0" {
			spec = s
		}
	}
	spec.Lifecycle = estate.Active
	spec.InputSchema = schema.MustParseJSON(`{"type":"object","properties":{"reference":{"type":"string"}},"required":["reference"]}`)
	ran := new(atomic.Int32)
	if err := srv.Bind(spec, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		ran.Add(1)
		return mcp.TextResult("ran"), nil
	}}); err != nil {
		t.Fatal(err)
	}
	return srv, spec, ran
}
