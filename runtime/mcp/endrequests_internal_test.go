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

// A shard keeps its first request in flight apart from its map (see
// flightShard.one): requests of one shard, whichever place each is in,
// are found as duplicates, reached by notifications/cancelled and by
// endRequests, and leave the shard empty once claimed, in any order.
func TestFlightsOfOneShard(t *testing.T) {
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := srv.NewSession(estate.Principal{}, func([]byte) {})
	// Four ids whose texts fall in one shard.
	var ids []int64
	var sh *flightShard
	for id := int64(1); len(ids) < 4; id++ {
		s := sess.flights.shard(jsonrpc.IntID(id).String())
		if sh == nil {
			sh = s
		}
		if s == sh {
			ids = append(ids, id)
		}
	}
	base := context.WithoutCancel(context.Background())
	track := func(id int64) *inflight {
		return sess.track(base, jsonrpc.Message{ID: jsonrpc.IntID(id), Method: "tools/list"}, nil)
	}
	cancel := func(id int64) {
		sess.notification(jsonrpc.Message{Method: notificationCancelled, Params: []byte(`{"requestId":` + jsonrpc.IntID(id).String() + `}`)})
	}
	f0, f1, f2 := track(ids[0]), track(ids[1]), track(ids[2])
	if f0 == nil || f1 == nil || f2 == nil {
		t.Fatal("three requests of one shard not all tracked")
	}
	if sh.one != f0 || len(sh.m) != 2 {
		t.Fatalf("the shard holds %p and %d in its map; want the first apart and two in the map", sh.one, len(sh.m))
	}
	for _, id := range ids[:3] {
		if track(id) != nil {
			t.Errorf("request %d tracked twice", id)
		}
	}
	cancel(ids[1])
	if f1.ctx.Err() == nil || !f1.cancelled || f0.ctx.Err() != nil || f2.ctx.Err() != nil {
		t.Errorf("cancelling %d (in the map): cancelled %v %v %v", ids[1], f0.ctx.Err(), f1.ctx.Err(), f2.ctx.Err())
	}
	cancel(ids[0])
	if f0.ctx.Err() == nil || !f0.cancelled || f2.ctx.Err() != nil {
		t.Errorf("cancelling %d (apart): cancelled %v, %v", ids[0], f0.ctx.Err(), f2.ctx.Err())
	}
	if ok, drop := f0.claim(); !ok || !drop {
		t.Errorf("claim of a cancelled request: %v %v", ok, drop)
	}
	again := track(ids[0]) // its place is free again
	if again == nil || sh.one != again {
		t.Fatalf("an id in flight again after its claim: %p, the shard's first %p", again, sh.one)
	}
	if track(ids[1]) != nil {
		t.Error("a claimed request's neighbour in the map was tracked twice")
	}
	f3 := track(ids[3])
	sess.endRequests()
	for i, f := range []*inflight{again, f2, f3} {
		if f.ctx.Err() == nil {
			t.Errorf("endRequests left request %d running", i)
		}
	}
	for _, f := range []*inflight{f2, f1, again, f3} {
		if ok, _ := f.claim(); !ok {
			t.Errorf("request %s: claimed before", f.key)
		}
	}
	if sh.one != nil || len(sh.m) != 0 {
		t.Errorf("after every claim the shard holds %p and %d in its map", sh.one, len(sh.m))
	}
}
