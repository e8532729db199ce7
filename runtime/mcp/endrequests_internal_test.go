package mcp

import (
	"context"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// A stream starts its requests under a context no cancellation reaches
// (ServeStream's reqBase) and ends them through their session:
// endRequests cancels every request in flight, and a request tracked
// after it starts cancelled (one read as the stream ended).
func TestEndRequestsCancelsThoseInFlightAndAfter(t *testing.T) {
	sess := flightSession(t)
	base := context.WithoutCancel(context.Background())
	request := func(id int64) *inflight {
		f := sess.track(base, jsonrpc.Message{ID: jsonrpc.IntID(id), Method: "tools/list"}, nil, nil)
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
	sess := flightSession(t)
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
		return sess.track(base, jsonrpc.Message{ID: jsonrpc.IntID(id), Method: "tools/list"}, nil, nil)
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

// A counter above every id before is kept in the home its caller gives,
// with no look elsewhere; a counter at or below the highest is looked for
// in every shard, so a duplicate in another home is refused; every other
// id goes to its hash's shard whatever the home. notifications/cancelled
// and endRequests reach requests in any home.
func TestFlightsInHomes(t *testing.T) {
	sess := flightSession(t)
	base := context.WithoutCancel(context.Background())
	home := func(i int) *flightShard { return &sess.flights.shards[i] }
	track := func(id jsonrpc.ID, h *flightShard) *inflight {
		return sess.track(base, jsonrpc.Message{ID: id, Method: "tools/list"}, nil, h)
	}
	f5 := track(jsonrpc.IntID(5), home(1))
	if f5 == nil || f5.shard != home(1) {
		t.Fatalf("counter 5 kept in %p, want home 1 (%p)", f5.shard, home(1))
	}
	f3 := track(jsonrpc.IntID(3), home(2)) // below the highest: looked for, then kept at home
	if f3 == nil || f3.shard != home(2) {
		t.Fatalf("counter 3 kept in %p, want home 2 (%p)", f3.shard, home(2))
	}
	for _, dup := range []struct {
		id   int64
		home int
	}{{5, 0}, {5, 1}, {3, 1}, {3, 7}} {
		if track(jsonrpc.IntID(dup.id), home(dup.home)) != nil {
			t.Errorf("counter %d in flight in another home tracked again in home %d", dup.id, dup.home)
		}
	}
	s := track(jsonrpc.StringID("5"), home(3))
	if s == nil || s.shard != sess.flights.shard(`"5"`) {
		t.Fatalf(`string id "5" kept in %p, want its hash's shard`, s)
	}
	if track(jsonrpc.StringID("5"), home(4)) != nil {
		t.Error(`string id "5" tracked twice`)
	}
	neg := track(jsonrpc.IntID(-5), home(3))
	if neg == nil || neg.shard != sess.flights.shard("-5") {
		t.Fatal("id -5 not kept in its hash's shard")
	}
	sess.notification(jsonrpc.Message{Method: notificationCancelled, Params: []byte(`{"requestId":3}`)})
	if !f3.cancelled || f5.cancelled || s.cancelled || neg.cancelled {
		t.Errorf("cancelling 3: cancelled 3 %v, 5 %v, \"5\" %v, -5 %v", f3.cancelled, f5.cancelled, s.cancelled, neg.cancelled)
	}
	if ok, drop := f5.claim(); !ok || drop {
		t.Errorf("claim of 5: %v %v", ok, drop)
	}
	if again := track(jsonrpc.IntID(5), home(6)); again == nil || again.shard != home(6) {
		t.Error("counter 5, claimed, not tracked again in another home")
	}
	sess.endRequests()
	for _, f := range []*inflight{f3, s, neg} {
		if f.ctx.Err() == nil {
			t.Errorf("endRequests left %s running", f.key)
		}
	}
}

// Requests with one id tracked at once from many goroutines, as a
// stream's goroutines (each with a home of its own) and a transport's
// concurrent requests (with none) may: exactly one of them is in flight,
// whether its id is above every one before or not.
func TestFlightsConcurrentDuplicates(t *testing.T) {
	t.Run("homes", func(t *testing.T) { concurrentDuplicates(t, true) })
	t.Run("no-homes", func(t *testing.T) { concurrentDuplicates(t, false) })
}

func concurrentDuplicates(t *testing.T, homes bool) {
	sess := flightSession(t)
	base := context.WithoutCancel(context.Background())
	const goroutines = 6
	for round := range 5000 {
		// Even rounds: a fresh counter, above the highest. Odd rounds:
		// the counter of the round before, claimed and now below it.
		id := jsonrpc.IntID(int64(round / 2 * 2))
		tracked := make([]*inflight, goroutines)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				var home *flightShard
				if homes {
					home = &sess.flights.shards[g]
				}
				tracked[g] = sess.track(base, jsonrpc.Message{ID: id, Method: "tools/list"}, nil, home)
			})
		}
		wg.Wait()
		var in []*inflight
		for _, f := range tracked {
			if f != nil {
				in = append(in, f)
			}
		}
		if len(in) != 1 {
			t.Fatalf("round %d, id %s: %d requests in flight, want 1", round, id, len(in))
		}
		if ok, _ := in[0].claim(); !ok {
			t.Fatalf("round %d: the request in flight was claimed before", round)
		}
	}
	for i := range sess.flights.shards {
		if sh := &sess.flights.shards[i]; sh.one != nil || len(sh.m) != 0 || sh.held.Load() != 0 {
			t.Errorf("shard %d holds requests after every one was claimed (%d counted)", i, sh.held.Load())
		}
	}
}

// flightSession is a session of a server of no tools, whose requests in
// flight the tests above track directly.
func flightSession(t *testing.T) *Session {
	t.Helper()
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return srv.NewSession(estate.Principal{}, func([]byte) {})
}
