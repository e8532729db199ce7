package mcp

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// A stream starts its requests under a context no cancellation reaches
// (ServeStream's reqBase) and ends them through their session:
// endRequests cancels every request in flight, and a request tracked
// after it starts cancelled (one read as the stream ended).
func TestEndRequestsCancelsThoseInFlightAndAfter(t *testing.T) {
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := srv.NewSession(estate.Principal{}, func([]byte) {})
	base := context.WithoutCancel(context.Background())
	request := func(id int64) *inflight {
		f := sess.track(base, jsonrpc.Message{ID: jsonrpc.IntID(id), Method: "tools/list"}, nil)
		if f == nil {
			t.Fatalf("request %d not tracked", id)
		}
		return f
	}
	before := request(1)
	if before.ctx.Err() != nil {
		t.Fatal("a request started cancelled before the stream ended")
	}
	sess.endRequests()
	if before.ctx.Err() == nil {
		t.Error("endRequests left a request in flight running")
	}
	if after := request(2); after.ctx.Err() == nil {
		t.Error("a request tracked after endRequests started uncancelled")
	}
}
