package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/internal/mono"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Session is one connection: its principal, the revision its handshake
// negotiated, whether it is initialized, its requests in flight, its open
// subscriptions, and where server-initiated messages go. Stateless-era
// requests are served on any session without touching its handshake state.
// A Session is safe for concurrent use.
type Session struct {
	srv       *Server
	principal estate.Principal
	send      func([]byte)
	// sendMu orders server-initiated messages, so that a subscription's
	// acknowledgement goes out before any notification on it.
	sendMu sync.Mutex

	// handshake is what the handshake has settled: replaced whole (under
	// mu, which orders the changes), never changed, so that it is read
	// without a lock, by every request as it starts (see track).
	handshake atomic.Pointer[handshakeSeen]

	mu      sync.Mutex
	closed  bool
	listens map[string]*subscription // open subscriptions/listen, by id text; made at the first
	// registered says the server knows the session (its sessions), which
	// NewSession's is from the start and NewRequestSession's once it
	// opens a subscription; set under mu, never once closed.
	registered bool
	// statelessOnly says the session's transport serves the stateless era
	// only (see ServeStatelessOnly); set before any request is served.
	statelessOnly bool

	// flights are the requests in flight.
	flights flights

	// peer is what the session keeps about its client: requests awaiting
	// its answer, its log level, its resource subscriptions.
	peer peerState
}

// inflight is a request between start and its answer: what runs it, what
// notifications/cancelled reaches, and where its answer goes. One
// allocation holds it all, the request being served included.
type inflight struct {
	flight
	// req is what dispatch reads and the method writes. dispatch sets it
	// anew, on the goroutine that runs the request: track, on the
	// goroutine that reads requests, sets only the flight, so that its
	// core does not write the request's kilobyte first and the running
	// core read it back from there.
	req request
	buf []byte // what the answer is encoded into, kept when the inflight is reused
}

// flight is what track sets anew for each request (see inflight).
type flight struct {
	sess *Session
	msg  jsonrpc.Message
	key  string          // msg.ID's text, its key in the session's flights
	ctx  *requestContext // cancelled as the request ends
	// began is when the request began: a reading of mono.Now taken for
	// it anyway, by track for its deadline, by the stream's lane that
	// began to run it (the later wins), or by ServeIncoming for a call;
	// zero when none was. The call log and the handler's watch take
	// their times from it rather than read the clock again.
	began time.Duration
	// seen is the session's handshake when the request was started: the
	// handshake's gate judges the request by it, so that a request read
	// before notifications/initialized is refused, and one read after it
	// served, whichever runs first (a stream runs requests concurrently).
	seen handshakeSeen

	// sink receives the answer of a request a stream serves, whoever
	// settles it (see watch). Nil for HandleMessage, whose goroutine
	// returns the answer itself.
	sink answerSink
	// paramsRead says req.params holds the transport's reading of msg's
	// params (see HandleIncoming), which dispatch then does not make.
	paramsRead bool
	// answerTo is where ServeIncoming's request is answered (the sink is
	// then the writerSink). Such a request has no lane: invoke watches its
	// context while its handler runs, and early waits for an answer given
	// early (see handlerWatch).
	answerTo AnswerWriter
	early    sync.WaitGroup
	// stopWatch ends the watch of the call's context once it began (see
	// handlerWatch, whose lock guards it).
	stopWatch func() bool

	// handling is the tools/call whose handler is running: while it is
	// set, the call can be answered before its handler returns.
	handling atomic.Pointer[request]
	// detached is set, by the goroutine that runs the request, when the
	// request was answered while its handler kept running on a goroutine
	// of its own (see Server.invoke): the handler still uses the request,
	// which must not be reused.
	detached bool

	// shard is where the request is in its session's flights; the three
	// below are under its lock.
	shard     *flightShard
	cancelled bool          // by notifications/cancelled: the answer is dropped
	settled   bool          // the one answer is decided, given or dropped
	watched   chan struct{} // made by watch, closed when the request settles
}

// handshakeSeen is what a session's handshake has settled: the
// session's now (Session.handshake), or a request's when it started
// (inflight.seen).
type handshakeSeen struct {
	revision    Revision        // negotiated by initialize; "" before
	clientCaps  json.RawMessage // initialize's capabilities, a copy
	initialized bool            // notifications/initialized received after initialize
}

// answerSink is where a settled request's answer goes. deliver is called
// once per request, with the zero reply when there is no answer to give.
type answerSink interface{ deliver(reply) }

// do runs the request and gives its answer to the sink.
func (f *inflight) do() { f.answer(f.sess.run(f)) }

// answer settles the request with rep and delivers it, unless the request
// was answered already (early, see abandon).
func (f *inflight) answer(rep reply) {
	if rep, ok := f.settle(rep); ok {
		f.sink.deliver(rep)
	}
}

// settle decides that rep is the request's one answer, unless one was
// decided already (ok false). It returns the answer to give, which is none
// when the request was cancelled.
func (f *inflight) settle(rep reply) (_ reply, ok bool) {
	ok, drop := f.claim()
	if !ok || drop {
		return reply{}, ok
	}
	return rep, true
}

// claim takes the request out of flight, deciding that whoever calls it
// gives the answer, unless that was decided already (ok false). drop says
// the request was cancelled: its answer is none.
func (f *inflight) claim() (ok, drop bool) {
	sh := f.shard
	sh.mu.Lock()
	if f.settled {
		sh.mu.Unlock()
		return false, false
	}
	f.settled = true
	sh.remove(f)
	drop = f.cancelled
	if f.watched != nil {
		close(f.watched)
	}
	sh.mu.Unlock()
	f.ctx.cancel()
	return true, drop
}

// abandon answers the tools/call r, whose context has ended, with a
// failure now, whether or not its handler has returned (see Handler); the
// handler's own result is dropped when it comes.
func (f *inflight) abandon(r *request) {
	ok, drop := f.claim()
	if !ok {
		return
	}
	var rep reply
	if !drop {
		rep = f.sess.srv.abandonedCall(r)
	}
	f.sink.deliver(rep)
}

// watch waits until the request settles or its context ends. In the
// latter case a tool handler still running is not waited for: the call is
// answered now with a failure (see Handler), and the handler's own result
// is dropped when it comes. A request not in a handler answers by itself.
func (f *inflight) watch() {
	sh := f.shard
	sh.mu.Lock()
	if f.settled {
		sh.mu.Unlock()
		return
	}
	if f.watched == nil {
		f.watched = make(chan struct{})
	}
	settled := f.watched
	sh.mu.Unlock()
	select {
	case <-settled:
	case <-f.ctx.Done():
		if r := f.handling.Load(); r != nil {
			f.abandon(r)
		}
	}
}

type subscription struct {
	id       jsonrpc.ID
	filter   subscriptionFilter // what the server agreed to send
	end      chan struct{}
	graceful bool // ended by the server: answer the listen request
}

// noResponse is the result of a request that must not be answered (a
// subscription that ended with its transport or was cancelled).
type noResponseType struct{}

var noResponse = noResponseType{}

// Handle processes one message (one line of stdio, one HTTP POST body) and
// returns the encoded answer, or nil when there is none (a notification, a
// response, a request without id, a cancelled request). It blocks for as
// long as the request runs; a subscriptions/listen request runs until the
// subscription ends (ctx done, notifications/cancelled, Session.Close or
// Server.Close). Handle may be called concurrently. raw must not change
// until Handle returns, and a handler's Call.Raw aliases it.
func (s *Session) Handle(ctx context.Context, raw []byte) []byte {
	if jsonrpc.IsBatch(raw) && s.AcceptsBatches() {
		return s.HandleBatch(ctx, raw)
	}
	var in Incoming
	if rpcErr := in.Decode(raw); rpcErr != nil {
		s.srv.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
		return jsonrpc.EncodeError(in.Message.ID, rpcErr) // gate 1
	}
	return s.HandleIncoming(ctx, &in)
}

// AcceptsBatches reports whether s serves a JSON-RPC batch: when its
// handshake negotiated a revision that has them (Revision.Batches). Every
// other session refuses one as jsonrpc.Decode does, with one -32600.
func (s *Session) AcceptsBatches() bool { return s.handshake.Load().revision.Batches() }

// HandleBatch serves a JSON-RPC batch (raw is a JSON array) and returns
// the encoded answer: an array of the members' answers, nil when no
// member is answered (notifications and responses only). Each member is a
// message of its own and passes every gate alone (its envelope, its id,
// the handshake, dispatch); a malformed member is answered with its error
// in the array, the others are served. Text that is not well formed, or an
// empty array, is one error under id null. initialize is refused inside a
// batch (-32600): the handshake is the first exchange, alone.
//
// Notifications and responses are handled in the batch's order, each
// before any member that follows it (notifications/initialized first,
// then the requests it allows); requests run at once, at most
// Options.MaxInFlight of them at a time. The answer is written when every
// request is answered, in the members' order. Use it only where
// AcceptsBatches is true; Handle chooses by itself.
func (s *Session) HandleBatch(ctx context.Context, raw []byte) []byte {
	members, rpcErr := jsonrpc.SplitBatch(raw)
	if rpcErr != nil {
		s.srv.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
		return jsonrpc.EncodeError(jsonrpc.ID{}, rpcErr)
	}
	answers := make([][]byte, len(members))
	places := make(chan struct{}, s.srv.maxInFlight)
	var wg sync.WaitGroup
	for i, m := range members {
		msg, rpcErr := jsonrpc.Decode(m)
		switch {
		case rpcErr != nil:
			s.srv.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
			answers[i] = jsonrpc.EncodeError(msg.ID, rpcErr)
		case msg.Method == methodInitialize:
			answers[i] = jsonrpc.EncodeError(msg.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "initialize must not be part of a batch"))
		case !msg.IsRequest():
			answers[i] = s.HandleMessage(ctx, msg)
		default:
			places <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = s.HandleMessage(ctx, msg)
				<-places
			}()
		}
	}
	wg.Wait()
	return jsonrpc.AppendBatch(nil, slices.DeleteFunc(answers, func(a []byte) bool { return a == nil }))
}

// HandleMessage is Handle for a message the transport has already decoded
// (gate 1 passed), so that one that reads the message to route it does not
// decode it twice.
func (s *Session) HandleMessage(ctx context.Context, msg jsonrpc.Message) []byte {
	return s.handle(ctx, msg, nil)
}

// HandleIncoming is HandleMessage for a message the transport has read
// the params of to route it: dispatch takes in's reading of them. See
// ServeIncoming, which serves a tool call without a goroutine of its own.
func (s *Session) HandleIncoming(ctx context.Context, in *Incoming) []byte {
	return s.handle(ctx, in.Message, &in.params)
}

// An AnswerWriter takes the answer of a request ServeIncoming serves. The
// answer is handed over: the server keeps no reference to it. early says
// it is given while the request's handler still runs (its context ended,
// see Handler), from a goroutine of the server's: the transport sends it
// at once, not when ServeIncoming returns.
type AnswerWriter interface {
	WriteAnswer(answer []byte, early bool)
}

// ServeIncoming serves in on this goroutine, a tool call's handler
// included, and writes its answer, when it has one, to w: when it is
// done, from this goroutine, or, when a tool call's context ends while its
// handler runs, at that moment with a failure (see Handler), from another
// goroutine. ServeIncoming returns once the request is done, its handler
// returned, and w written to if it is; w is not written to after that.
//
// It is HandleIncoming without a goroutine per tool call: HandleIncoming
// must return the answer itself, so it runs a handler on a goroutine of
// its own and waits for whichever comes first, the handler or the
// context's end; handing a call to another core and back cost a third of
// an HTTP call's time in process.
func (s *Session) ServeIncoming(ctx context.Context, in *Incoming, w AnswerWriter) {
	spare := spareRequests.Get().(*inflight)
	now, f := s.start(ctx, in.Message, spare, nil)
	if f == nil {
		spareRequests.Put(spare) // not taken
		if now != nil {
			w.WriteAnswer(now, false)
		}
		return
	}
	f.req.params, f.paramsRead = in.params, true
	f.answerTo, f.sink = w, (*writerSink)(f)
	if f.began == 0 && f.msg.Method == methodToolsCall {
		f.began = mono.Now() // the one reading its call log and its handler's watch share
	}
	f.do()
	// The handler has returned and any early answer is written (see
	// handlerWatch): nothing refers to f any more.
	f.clearForReuse()
	spareRequests.Put(f)
}

// writerSink delivers a request's answer to its AnswerWriter (see
// ServeIncoming).
type writerSink inflight

func (w *writerSink) deliver(r reply) {
	if b := r.bytes(); b != nil {
		// A handler still running is what abandon answers early; invoke
		// clears handling before a request answers by itself.
		w.answerTo.WriteAnswer(b, w.handling.Load() != nil)
	}
}

// abandonEarly answers the call f serves in place when its context ends
// while its handler runs (see handlerWatch).
func (f *inflight) abandonEarly() {
	defer f.early.Done()
	f.abandon(&f.req)
}

// handle serves msg on this goroutine; read is its params' reading when
// the transport made one, nil when dispatch is to make it.
func (s *Session) handle(ctx context.Context, msg jsonrpc.Message, read *params) []byte {
	spare := spareRequests.Get().(*inflight)
	now, f := s.start(ctx, msg, spare, nil)
	if f == nil {
		spareRequests.Put(spare) // not taken
		return now
	}
	if read != nil {
		f.req.params = *read
		f.paramsRead = true
	}
	rep, _ := f.settle(s.run(f))
	out := rep.bytes()
	if f.detached {
		return out // its handler still runs: f is the handler's until it returns
	}
	// The request was run and settled on this goroutine, and its handler
	// has returned without keeping its Call (see Handler): nothing refers
	// to f any more. Its answer buffer goes with out, which may be it.
	f.clearForReuse()
	spareRequests.Put(f)
	return out
}

// clearForReuse empties f, a request nothing refers to any more, for
// spareRequests, keeping the buffer the call log writes redacted arguments
// into (request.logText).
func (f *inflight) clearForReuse() {
	logText := f.req.logText
	*f = inflight{}
	f.req.logText = logText
}

// spareRequests are requests HandleMessage ran to the end, for the next to
// reuse: a request in flight is more than a kilobyte (most of it the
// Call), which the HTTP transport, serving each message through
// HandleMessage, would otherwise allocate per message. A stream reuses its
// own (see streamReader).
var spareRequests = sync.Pool{New: func() any { return new(inflight) }}

// start takes a decoded message through the gates that need no work and
// registers a request as in flight, in home when that is not nil (see
// flights.add). It returns either the answer to send now (possibly nil)
// or the request in flight, which Session.run runs and settle or answer
// settles. ServeStream calls start in reading order.
func (s *Session) start(ctx context.Context, msg jsonrpc.Message, spare *inflight, home *flightShard) (now []byte, req *inflight) {
	defer func() {
		if v := recover(); v != nil {
			now, req = s.recovered(ctx, msg, v), nil
		}
	}()
	if msg.IsResponse() {
		// A response answers a request the server sent (sampling,
		// elicitation), or nothing; it is never answered itself.
		s.answered(msg)
		return nil, nil
	}
	if strings.HasPrefix(msg.Method, "notifications/") {
		s.notification(msg) // gate 2: handled, never answered
		return nil, nil
	}
	if msg.ID.IsZero() {
		return nil, nil // gate 3: nothing to answer to
	}
	req = s.track(ctx, msg, spare, home)
	if req == nil {
		return jsonrpc.EncodeError(msg.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "request id "+msg.ID.String()+" is already in flight")), nil
	}
	return nil, req
}

func (s *Session) recovered(ctx context.Context, msg jsonrpc.Message, v any) []byte {
	s.srv.log.LogAttrs(ctx, slog.LevelError, "panic while handling a message",
		slog.String("method", msg.Method), slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
	if !msg.IsRequest() {
		return nil
	}
	return jsonrpc.EncodeError(msg.ID, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error"))
}

// run dispatches a request in flight and encodes its answer.
func (s *Session) run(f *inflight) (out reply) {
	ctx, msg := f.ctx, f.msg
	defer func() {
		if v := recover(); v != nil {
			out = replyOf(s.recovered(ctx, msg, v))
		}
	}()
	result, rpcErr := s.dispatch(f)
	out = s.srv.encodeAnswer(ctx, msg, f.buf, result, rpcErr)
	if head := reusable(out.head); head != nil {
		f.buf = head
	}
	return out
}

// maxKeptBuffer bounds the buffers a stream keeps for the next request: an
// answer, a line or a structured content larger than this is not worth
// keeping.
const maxKeptBuffer = 16 << 10

// reusable is b emptied for the next request to write into, or nil when
// it grew past maxKeptBuffer.
func reusable(b []byte) []byte {
	if cap(b) > maxKeptBuffer {
		return nil
	}
	return b[:0]
}

// encodeAnswer encodes what dispatching msg came to: its result, or rpcErr.
// A result is appended to buf, when buf is not nil.
func (s *Server) encodeAnswer(ctx context.Context, msg jsonrpc.Message, buf []byte, result any, rpcErr *jsonrpc.Error) reply {
	if rpcErr != nil {
		return replyOf(jsonrpc.EncodeError(msg.ID, rpcErr))
	}
	switch result := result.(type) {
	case noResponseType:
		return reply{}
	case sharedResult:
		return replyWithShared(msg.ID, result)
	}
	b, err := jsonrpc.AppendResult(buf, msg.ID, result)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "result does not encode", slog.String("method", msg.Method), slog.String("error", err.Error()))
		return replyOf(jsonrpc.EncodeError(msg.ID, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error")))
	}
	return replyOf(b)
}

// track registers a request in flight, so notifications/cancelled can
// reach it, in home when that is not nil (see flights.add). It returns nil
// when a request with the same id is already in flight. A tools/call's
// context carries Options.CallTimeout. The request is kept in spare when
// that is not nil: an inflight that nothing refers to any more (see
// lane.spare).
func (s *Session) track(ctx context.Context, msg jsonrpc.Message, spare *inflight, home *flightShard) *inflight {
	var timeout time.Duration
	if msg.Method == methodToolsCall {
		timeout = s.srv.callTimeout
	}
	rc := newRequestContext(ctx, timeout)
	f := spare
	if f == nil {
		f = new(inflight)
	}
	f.flight = flight{sess: s, msg: msg, key: msg.ID.String(), ctx: rc, seen: *s.handshake.Load()}
	if timeout > 0 {
		f.began = rc.expires - timeout // the reading its deadline was set from
	}
	if !s.flights.add(f, home) {
		f.flight = flight{}
		rc.cancel()
		return nil
	}
	if s.flights.ended.Load() {
		rc.cancel()
	}
	return f
}

// endRequests cancels every request in flight, and every request tracked
// after it. A transport that starts requests under a context no
// cancellation reaches calls it to cancel them: ServeStream does, since
// a request that waits for its end registers with its parent (see
// requestContext), and a parent the stream's requests shared would be
// locked twice for each, on both cores at once when requests run on both.
func (s *Session) endRequests() {
	// Set before the shards are read: a request tracked meanwhile is
	// either in its shard when it is read or sees ended after.
	s.flights.ended.Store(true)
	var ends []*requestContext
	for i := range s.flights.shards {
		sh := &s.flights.shards[i]
		sh.mu.Lock()
		if sh.one != nil {
			ends = append(ends, sh.one.ctx)
		}
		for _, f := range sh.m {
			ends = append(ends, f.ctx)
		}
		sh.mu.Unlock()
	}
	for _, end := range ends {
		end.cancel() // the request's context, even if f is reused meanwhile
	}
}

// noHandshake is the handshake of a session that has had none, shared by
// every new session.
var noHandshake = &handshakeSeen{}

// flightShards is how many locks the requests in flight of a
// connection's session (NewSession) are spread over (see flights); a
// request's session (NewRequestSession) has one. Either is a power of two.
const flightShards = 8

// flights are a session's requests in flight, spread over shards of a
// lock each, so that the goroutines serving a session on several cores do
// not all write one lock and one map for every request.
//
// A request whose id is a counter (see counterID) above every counter the
// session tracked before cannot have its id in flight: it is put in the
// shard its caller asks for, its home, with no look elsewhere. A stream
// gives each goroutine serving it a home of its own (see lane), so that
// a request is added, claimed and removed in memory only its own core
// writes: with the ids' hash choosing the shard, both cores wrote every
// shard, and one session's pipelined calls on two cores got 11% less of
// them done (see docs/benchmarks.md). Clients number their requests from
// a counter, so this is the common case. A counter at or below the
// highest (a client that numbers every request 1, say) is looked for in
// every shard that holds a request, in turn with the others like it
// (checkMu), once any request was given a home; every other id (a string,
// a negative or a very large integer) can equal no counter, and is kept in
// the shard of its text's hash, where a request with the same id would be.
type flights struct {
	shards []flightShard // flightShards of them, or one
	// above is one more than the highest counter tracked: no counter at
	// or above it has been in flight.
	above atomic.Int64
	// homed is set once a request was given a home: before, every request
	// is in its hash's shard, where a duplicate would be.
	homed atomic.Bool
	// checkMu orders the counters looked for in every shard, so that two
	// with the same id do not miss each other.
	checkMu sync.Mutex
	// ended is set by Session.endRequests: a request tracked after it
	// starts cancelled.
	ended atomic.Bool
}

type flightShard struct {
	mu sync.Mutex
	// one is a request in flight kept without the map: the shard's only
	// one, as a session with one request at a time always has, costs no
	// lookup, insert and delete in it (nor, in a session that serves one
	// request, the map's making).
	one *inflight
	m   map[string]*inflight // the others, by id text; made at the first
	// held is how many requests the shard holds, changed under mu and
	// read without it by a look for a counter in every shard, which
	// passes an empty shard by.
	held atomic.Int32
	_    [36]byte // a shard to a cache line: the shards' locks do not share one
}

// find returns the request in flight with id text key, or nil; sh.mu is
// held.
func (sh *flightShard) find(key string) *inflight {
	if sh.one != nil && sh.one.key == key {
		return sh.one
	}
	return sh.m[key]
}

// add puts f in flight; sh.mu is held, and no request with f's key is.
func (sh *flightShard) add(f *inflight) {
	sh.held.Add(1)
	if sh.one == nil {
		sh.one = f
		return
	}
	if sh.m == nil {
		sh.m = map[string]*inflight{}
	}
	sh.m[f.key] = f
}

// remove takes f out of flight; sh.mu is held.
func (sh *flightShard) remove(f *inflight) {
	sh.held.Add(-1)
	if sh.one == f {
		sh.one = nil
		return
	}
	delete(sh.m, f.key)
}

// flightSeed spreads the ids over the shards.
var flightSeed = maphash.MakeSeed()

// shard is where a request with id text key is kept when it is not a
// counter, and a counter's home when its caller gives none.
func (fl *flights) shard(key string) *flightShard {
	if len(fl.shards) == 1 {
		return &fl.shards[0]
	}
	return &fl.shards[maphash.String(flightSeed, key)&uint64(len(fl.shards)-1)]
}

// counterID returns the value of an id text that is a counter: a
// non-negative integer written without leading zeros, below 10^18. Two
// counters are the same id exactly when they have the same value.
func counterID(key string) (n int64, ok bool) {
	if key == "" || len(key) > 18 || key[0] == '0' && len(key) > 1 {
		return 0, false
	}
	for i := range len(key) {
		d := key[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int64(d)
	}
	return n, true
}

// add puts f in flight, in home when its id is a counter and home is not
// nil, and reports whether it did: false when a request with f's id is in
// flight already. f.key is set; add sets f.shard.
func (fl *flights) add(f *inflight, home *flightShard) bool {
	n, counter := counterID(f.key)
	if !counter || home == nil {
		home = fl.shard(f.key)
	} else if !fl.homed.Load() {
		fl.homed.Store(true) // before f is in its home: see below
	}
	home.mu.Lock()
	if home.find(f.key) != nil {
		home.mu.Unlock()
		return false
	}
	f.shard = home
	home.add(f)
	home.mu.Unlock()
	if !counter || fl.raise(n) || !fl.homed.Load() {
		// Not a counter: a request with its id would be in this shard.
		// A counter above every one before: none with its id was in
		// flight, and any tracked from now on is looked for here. No
		// request given a home yet when f was raised: any with its id is
		// in this shard too (one given a home from now on is raised
		// after it is in its home, and looks for f).
		return true
	}
	// f is in its shard already, so that another request with its id
	// that is looked for from now on finds it: look for one that came
	// before, and take f out again if there is one.
	fl.checkMu.Lock()
	defer fl.checkMu.Unlock()
	for i := range fl.shards {
		sh := &fl.shards[i]
		if sh == home || sh.held.Load() == 0 {
			continue // home was looked in; an empty shard holds none
		}
		sh.mu.Lock()
		other := sh.find(f.key)
		sh.mu.Unlock()
		if other != nil && other != f {
			home.mu.Lock()
			home.remove(f)
			home.mu.Unlock()
			return false
		}
	}
	return true
}

// raise notes that counter n is tracked, and reports whether it is above
// every counter tracked before.
func (fl *flights) raise(n int64) bool {
	for {
		above := fl.above.Load()
		if n < above {
			return false
		}
		if fl.above.CompareAndSwap(above, n+1) {
			return true
		}
	}
}

// cancel cancels the request in flight with id text key, if there is one,
// as notifications/cancelled does: its answer is dropped. A counter may be
// in any shard (see flights), every other id only in its hash's.
func (fl *flights) cancel(key string) {
	if _, counter := counterID(key); !counter {
		fl.shard(key).cancel(key)
		return
	}
	for i := range fl.shards {
		fl.shards[i].cancel(key)
	}
}

// cancel cancels the request with id text key in sh, if it is there.
func (sh *flightShard) cancel(key string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f := sh.find(key); f != nil {
		f.cancelled = true
		f.ctx.cancel()
	}
}

// notification handles a client notification (gate 2). Unknown ones are
// ignored, as JSON-RPC requires.
func (s *Session) notification(msg jsonrpc.Message) {
	switch msg.Method {
	case notificationInitialized:
		s.mu.Lock()
		if h := *s.handshake.Load(); h.revision != "" { // only after initialize has negotiated
			h.initialized = true
			s.handshake.Store(&h)
		}
		s.mu.Unlock()
	case notificationCancelled:
		p := parseParams(msg.Params)
		raw := p.member("requestId")
		if raw == nil {
			return
		}
		var id jsonrpc.ID
		if json.Unmarshal(raw, &id) != nil || id.IsZero() {
			return
		}
		s.flights.cancel(id.String())
	}
}

// dispatch is gates 4 and 5: the era and revision in force, the handshake
// gate, and the method table.
func (s *Session) dispatch(f *inflight) (any, *jsonrpc.Error) {
	msg := f.msg
	r := &f.req
	// A transport's reading of the params (HandleIncoming) is in r.params
	// already: the request is set anew around it.
	r.requestState = requestState{ctx: f.ctx, session: s, flight: f, id: msg.ID, method: msg.Method}
	if !f.paramsRead {
		r.params = params{}
		r.params.parse(msg.Params)
	}
	if stateless, _ := r.params.era(msg.Method); stateless {
		rev, caps, err := statelessRevision(&r.params)
		if err != nil {
			return nil, err
		}
		r.rev, r.clientCaps = rev, caps
	} else {
		if msg.Method == methodInitialize {
			return s.initialize(r)
		}
		// The handshake as it stood when the request was read (see
		// track), however late it runs.
		r.rev, r.clientCaps = f.seen.revision, f.seen.clientCaps
		if !f.seen.initialized {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "server not initialized") // gate 4
		}
	}
	if !r.rev.Serves(msg.Method) {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "unknown method: "+echo(msg.Method)) // gate 5
	}
	if r.params.metaState == metaMalformed {
		return nil, invalidParams("_meta must be an object")
	}
	if err := checkRequestLogLevel(r); err != nil {
		return nil, err
	}
	srv := s.srv
	switch msg.Method {
	case methodPing:
		res := &emptyResult{}
		srv.finish(r.rev, &res.common, "")
		return res, nil
	case methodDiscover:
		return srv.discover(r)
	case methodListen:
		return s.listen(r)
	case methodToolsList:
		return srv.toolsList(r)
	case methodToolsCall:
		return srv.toolsCall(r)
	case methodResourcesList:
		return srv.resourcesList(r)
	case methodResourceTemplatesList:
		return srv.resourceTemplatesList(r)
	case methodResourcesRead:
		return srv.resourcesRead(r)
	case methodPromptsList:
		return srv.promptsList(r)
	case methodPromptsGet:
		return srv.promptsGet(r)
	case methodSetLevel:
		return s.setLevel(r)
	case methodResourcesSubscribe:
		return s.subscribe(r)
	case methodResourcesUnsubscribe:
		return s.unsubscribe(r)
	case methodComplete:
		return srv.complete(r)
	}
	// Serves and this switch list the same methods.
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "unknown method: "+echo(msg.Method))
}

// statelessRevision reads a stateless-era request's _meta: its revision,
// which must be one of that era this server speaks, and the client's
// capabilities (their text: nothing decodes them unless a handler asks, see
// Call.ClientCapabilities).
func statelessRevision(p *params) (Revision, json.RawMessage, *jsonrpc.Error) {
	switch p.metaState {
	case metaAbsent:
		return "", nil, invalidParams("_meta is required: it carries " + MetaProtocolVersion + " and " + MetaClientCapabilities)
	case metaMalformed:
		return "", nil, invalidParams("_meta must be an object")
	}
	if kindOf(p.metaMembers[metaProtocolVersion]) != '"' {
		return "", nil, invalidParams("_meta." + MetaProtocolVersion + " is required and must be a string")
	}
	caps := p.metaMembers[metaClientCapabilities]
	if kindOf(caps) != '{' {
		return "", nil, invalidParams("_meta." + MetaClientCapabilities + " is required and must be an object")
	}
	rev, known := ParseRevision(p.version)
	if !known || !rev.Stateless() {
		return "", nil, UnsupportedProtocolVersionError(p.version)
	}
	return rev, caps, nil
}

// UnsupportedProtocolVersionError is the stateless era's answer to a request
// naming a revision this server does not serve statelessly: -32022 listing
// the revisions such a request may name (see Revision). Transports that read
// the revision from elsewhere (an HTTP header) answer with it too.
func UnsupportedProtocolVersionError(requested string) *jsonrpc.Error {
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeUnsupportedProtocolVersion,
		Message: "Unsupported protocol version",
		Data:    map[string]any{"supported": supportedVersions(true), "requested": echo(requested)},
	}
}

// Incoming is a decoded message (gate 1 passed) with its params read once:
// what a transport reads of a request to route it (its era, the protocol
// version its _meta names, the name it calls) and what dispatch reads to
// serve it. A transport that routes by the params hands the same Incoming
// to Session.HandleIncoming, so that they are not walked a second time.
//
// The zero Incoming is not ready; Decode or Read fills it. It refers to the
// message's text.
type Incoming struct {
	Message jsonrpc.Message
	params  params
}

// Read reads msg's params, without dispatching or decoding anything.
func (in *Incoming) Read(msg jsonrpc.Message) {
	in.Message = msg
	in.params = params{}
	in.params.parse(msg.Params)
}

// Decode decodes data (jsonrpc.Decode) and reads its params as Read does,
// in the pass that checks the text (jsonrpc.DecodeParams): a request's
// params are not walked a second time. On an error, the Message holds
// what Decode returns with it (the id to answer under).
func (in *Incoming) Decode(data []byte) *jsonrpc.Error {
	in.params = params{}
	msg, err := jsonrpc.DecodeParams(data, in.params.add)
	in.Message = msg
	if err == nil && msg.Params != nil {
		in.params.readMeta()
	}
	return err
}

// Stateless says whether dispatch serves the request in the stateless era
// (the rule params.era applies, see Revision), and version is the protocol
// version its _meta names ("" when absent or not a string).
func (in *Incoming) Stateless() (stateless bool, version string) {
	return in.params.era(in.Message.Method)
}

// StringMember returns a string member of the params, one of those the
// server reads ("name", "uri", ...: see the names registered in this
// package's init); ok is false when it is absent or not a string.
func (in *Incoming) StringMember(name string) (value string, ok bool) {
	return in.params.str(name)
}

// StringMemberIs reports whether StringMember(name) would return want,
// without making a string of the member when it has no escape: what a
// transport that checks a header against the body asks.
func (in *Incoming) StringMemberIs(name, want string) bool {
	return jsonrpc.UnquoteEqual(in.params.member(name), want)
}

// MaxCapabilitiesBytes bounds the capabilities an initialize request may
// declare. A session keeps them for its whole life; real clients declare a
// few hundred bytes, and a session must not be a way to park megabytes.
const MaxCapabilitiesBytes = 64 << 10

// initialize is the handshake: lenient negotiation, once per session.
func (s *Session) initialize(r *request) (any, *jsonrpc.Error) {
	requested, ok := r.params.str("protocolVersion")
	if !ok {
		return nil, invalidParams("protocolVersion is required and must be a string")
	}
	for _, name := range []string{"capabilities", "clientInfo"} {
		if raw := r.params.member(name); raw != nil && kindOf(raw) != '{' {
			return nil, invalidParams(name + " must be an object")
		}
	}
	var caps json.RawMessage
	if raw := r.params.member("capabilities"); raw != nil {
		if len(raw) > MaxCapabilitiesBytes {
			return nil, invalidParams("capabilities exceed the limit of " + strconv.Itoa(MaxCapabilitiesBytes) + " bytes")
		}
		// Kept for the session's life, so copied out of the message.
		caps = bytes.Clone(raw)
	}
	rev := negotiate(requested)
	s.mu.Lock()
	if s.handshake.Load().revision != "" {
		s.mu.Unlock()
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "initialize was already received on this session")
	}
	s.handshake.Store(&handshakeSeen{revision: rev, clientCaps: caps})
	s.mu.Unlock()
	res := &initializeResult{
		ProtocolVersion: rev,
		Capabilities:    capabilitiesFor(rev),
		ServerInfo:      s.srv.infoOn(rev),
		Instructions:    s.srv.instructions,
	}
	s.srv.finish(rev, &res.common, "")
	return res, nil
}

// ServeStatelessOnly marks s as a session of a transport that serves the
// stateless era only (mcphttp's stateless mode): server/discover on it
// then lists only that era's revisions, since a client that picked a
// handshake revision from the list would be refused. The transport calls
// it before s serves a request.
func (s *Session) ServeStatelessOnly() { s.statelessOnly = true }

func (s *Server) discover(r *request) (any, *jsonrpc.Error) {
	res := &discoverResult{
		SupportedVersions: supportedVersions(r.session.statelessOnly),
		Capabilities:      capabilitiesFor(r.rev),
		Instructions:      s.instructions,
	}
	s.finish(r.rev, &res.common, cacheScopePublic)
	return res, nil
}

// listen serves subscriptions/listen: acknowledge what is honoured (tool,
// resource and prompt list changes), then hold the request
// open until the client cancels it, the transport ends, or the server
// shuts down (the one case that is answered).
func (s *Session) listen(r *request) (any, *jsonrpc.Error) {
	if s.send == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "this transport cannot carry a notification stream")
	}
	var requested members
	if raw := r.params.member("notifications"); raw != nil {
		if kindOf(raw) != '{' {
			return nil, invalidParams("notifications must be an object")
		}
		requested.split(raw)
	}
	asked := func(name string) bool { return string(requested.member(name)) == "true" }
	sub := &subscription{
		id: r.id,
		filter: subscriptionFilter{
			ToolsListChanged:     asked("toolsListChanged"),
			ResourcesListChanged: asked("resourcesListChanged"),
			PromptsListChanged:   asked("promptsListChanged"),
		},
		end: make(chan struct{}),
	}
	ack, err := jsonrpc.EncodeNotification(notificationSubscriptionAck, subscriptionAck{
		Meta:          map[string]any{MetaSubscriptionID: r.id},
		Notifications: sub.filter,
	})
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error")
	}
	key := r.id.String()
	s.sendMu.Lock()
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.srv.registerLocked(s) // list changes and Close reach it through the server
		if s.listens == nil {
			s.listens = map[string]*subscription{}
		}
		s.listens[key] = sub
	}
	s.mu.Unlock()
	if !closed {
		s.send(ack)
	}
	s.sendMu.Unlock()
	if closed {
		return noResponse, nil
	}

	select {
	case <-r.ctx.Done():
	case <-sub.end:
	}
	// A subscription the server ended is answered even when the request's
	// context ended at the same time: a shutdown ends the subscriptions,
	// then cancels the requests (see ServeStream).
	select {
	case <-sub.end:
	default:
		s.mu.Lock()
		delete(s.listens, key)
		s.mu.Unlock()
		return noResponse, nil
	}
	if !sub.graceful {
		return noResponse, nil
	}
	res := &listenResult{}
	res.Meta = map[string]any{MetaSubscriptionID: r.id}
	s.srv.finish(r.rev, &res.common, "")
	return res, nil
}

// endSubscriptions ends every open subscription; graceful ones are
// answered (server shutdown), the others end silently (their transport is
// gone).
func (s *Session) endSubscriptions(graceful bool) {
	s.mu.Lock()
	subs := s.listens
	s.listens = nil
	s.mu.Unlock()
	for _, sub := range subs {
		sub.graceful = graceful
		close(sub.end)
	}
}

// listChanged tells the client the list kind changed: in the handshake era
// when the session is initialized (the server declares listChanged for
// tools, resources and prompts), and on every open subscription that asked
// for that list's changes.
func (s *Session) listChanged(kind listKind) {
	if s.send == nil {
		return
	}
	method := kind.changedNotification()
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	handshake := s.handshake.Load().initialized
	var ids []jsonrpc.ID
	for _, sub := range s.listens {
		if sub.filter.follows(kind) {
			ids = append(ids, sub.id)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(ids, func(a, b jsonrpc.ID) int { return strings.Compare(a.String(), b.String()) })
	if handshake {
		msg, _ := jsonrpc.EncodeNotification(method, nil)
		s.send(msg)
	}
	for _, id := range ids {
		msg, _ := jsonrpc.EncodeNotification(method, map[string]any{
			"_meta": map[string]any{MetaSubscriptionID: id},
		})
		s.send(msg)
	}
}

// Revision is the revision the session's handshake negotiated, "" before
// initialize is answered.
func (s *Session) Revision() Revision { return s.handshake.Load().revision }

// Close ends the session: its subscriptions end without an answer and it
// receives no more notifications. It does not wait for requests in flight.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	registered := s.registered
	s.mu.Unlock()
	s.endSubscriptions(false)
	s.closePeer()
	s.srv.removeSession(s, registered)
}
