// Package mcphttp is the Streamable HTTP transport of the MCP server: one
// endpoint (conventionally /mcp) serving both protocol eras, an
// authenticator per request, DNS-rebinding protection, and a server helper
// with timeouts and graceful shutdown (Server).
//
// # The endpoint
//
// POST carries one JSON-RPC message, or, on a session of 2025-03-26 (the
// one revision with batches), a JSON-RPC batch: its members pass the gates
// one by one and the answer is the array of their answers, or 202 when
// none is answered (mcp.Session.HandleBatch); a batch anywhere else is
// refused as before, 400 with -32600. A request is answered with
// application/json, unless the server sends messages on the request's
// behalf before answering it: subscriptions/listen (its acknowledgement and
// the change notifications), and a tool call's progress and log
// notifications and its requests to the client (sampling, elicitation).
// Such a request is answered with text/event-stream from its first
// message on, the answer last; a client that does not accept streams gets
// those messages on its session's GET stream instead. A client whose Accept
// header lists text/event-stream but not application/json gets every
// answer as a stream. Notifications and responses (a client's answer to a
// request of the server's) are answered 202 with no body. The body is
// limited (Options.MaxBodyBytes, 413 beyond).
//
// The handshake era (2024-11-05 to 2025-11-25): initialize opens a session
// whose id is returned in Mcp-Session-Id; every later message names it, or
// is answered 400; an unknown or expired id is answered 404 (the client
// then initializes again). A session is bound to the principal that opened
// it: a request on it authenticated as someone else is answered 404 as
// well, so a leaked session id is worth nothing without its owner's token.
// GET opens the session's notification stream (one at a time, 409 for a
// second; notifications/tools/list_changed arrives there; those sent while
// no stream is open are kept for the next one, see Resumable streams);
// DELETE ends the session.
// Requests are not cancelled when their connection drops (the 2025-11-25
// rule: a client cancels with notifications/cancelled). An
// MCP-Protocol-Version header, when present, must name a revision this
// server speaks (400 otherwise); it need not be the negotiated one, and
// without it the session's revision applies.
//
// The stateless era (2026-07-28): no session. Each request is served by a
// session of its own, as the principal of that request, and nothing of it
// outlives the request: any replica can answer any request. The headers are
// checked against the body before dispatch, as the 2026-07-28 transport
// requires: MCP-Protocol-Version must equal _meta's protocol version,
// Mcp-Method the method, and Mcp-Name params.name (tools/call, prompts/get)
// or params.uri (resources/read), decoded from the =?base64?...?= form when
// so written; a missing or different one is 400 with -32020
// (HeaderMismatch); an Mcp-* header sent twice is 400 in either era, since
// one of its values would be checked while another is acted on. A revision
// the server does not serve statelessly is 400
// with -32022, a method the revision does not have is 404 with -32601.
// Closing the response cancels the request. subscriptions/listen streams
// until the client closes it or the server shuts down (then it is
// answered). Tool parameters mirrored into Mcp-Param-* headers
// (x-mcp-header) are not checked: the schema subset has no x-mcp-header,
// so no tool declares one.
//
// A handler in stateless mode (Options.Stateless) serves only the
// stateless era, as a modern-only server does: initialize is answered 400
// with -32022 naming the revisions it serves, any other request without the
// stateless headers and _meta 400 with -32020, GET and DELETE 405.
// Handshake sessions are carried across replicas by a shared store
// (Options.Sessions, see Replicas) rather than in a signed session id: a
// session's state changes after initialize (its log level, its
// subscriptions), and a client cannot be handed a new id for each change.
//
// # Replicas
//
// Handshake-era sessions live in the handler's memory unless
// Options.Sessions keeps them where every replica reads them: then
// initialize writes the session's record (its principal and
// mcp.SessionState) before its id is returned, a request whose state
// change the session keeps (notifications/initialized, logging/setLevel,
// resources/subscribe) writes it again, and a request naming a session
// this replica does not hold is served from the record, bound to the
// same principal. Every request reads the record, so that a replica never
// serves a session in a state another one changed, nor one the client
// ended (DELETE) elsewhere: one read of the store per request is the
// price. The read keeps the record for SessionIdleTimeout more; unused
// that long, it expires in the store. A replica that lets a session go (idle
// here, or shutting down) leaves the record and the stream events for the
// others; DELETE forgets both. A store that cannot be read is answered
// 503 with -32603 and Retry-After, never 404: the session may well exist.
// A GET stream is one replica's: a client resuming it elsewhere with
// Last-Event-ID gets what the store kept after that event, then opens a
// new GET stream. The bounds on sessions are each replica's own: its
// table is then a cache of the fleet's sessions, and a session resumed
// into a full table takes the place of the least recently used one,
// which is read again from the store when its client comes back.
//
// # Resumable streams
//
// In the handshake era every event of a stream carries an id naming the
// stream and the event's place in it, and is kept (Options.Events, in
// memory by default) until the session ends or the store's bounds drop
// it. A client whose connection broke sends GET with the last id it
// received in Last-Event-ID and gets the rest of that stream, the GET
// stream's or a request's, then the stream goes on live; a request's
// stream ends with its answer, and can be replayed after it too. Ids are
// random per stream, so only the session that owns a stream can name it:
// any other id is answered 400 (-32600), and an id whose following events
// the store no longer holds 410, since replaying what is left would skip
// events without the client knowing. Resuming takes over the stream from
// the connection that had it, which is closed. On 2025-11-25 sessions
// every stream starts with a priming event (an id and empty data, SEP-1699),
// so a client can resume before the first message, and with
// Options.PollAfter the server closes a request's response once the
// request has run that long, having told the client in the priming
// event's retry field how long to wait before it reconnects; the
// connection it reconnects on carries the rest, the answer last. A long
// call thus holds no POST (nor whatever a proxy in front allots a request)
// for longer than PollAfter. A client that accepts only JSON keeps its
// connection, and earlier revisions' sessions get no priming event either. The stateless era has no resumable streams: closing a
// response cancels its request.
//
// A replay is written as live events are, one event at a time on the same
// connection under the same flow control, so a huge backlog is never
// copied into the connection's buffers at once; the events a client never
// collects cost at most the store's bound for a stream, and the oldest go
// first when the store is full (eventstore.MemoryOptions).
//
// # Bounds
//
// One caller must not be able to take the server's memory or its time from
// the others. At most Options.MaxInFlight requests are served at once: a
// request over the bound waits for a place up to Options.QueueWait, and is
// otherwise answered 503 with Retry-After, its body unread. Open event
// streams (GET streams and subscriptions/listen) are bounded apart, by
// Options.MaxStreams. One caller (an agent of a tenant) holds at most its
// share of each (Options.MaxInFlightPerCaller, MaxStreamsPerCaller), so
// that a caller that floods the server is refused while others are
// served. Handshake-era sessions are bounded in all
// (Options.MaxSessions, 503 past it) and per caller
// (Options.MaxSessionsPerCaller: a caller's next initialize ends its least
// recently used session); a session no request used for
// Options.SessionIdleTimeout ends on a timer. While the handler shuts down
// every request is answered 503, never 404.
//
// # Security
//
// Every request is checked before anything else: its Host must be allowed
// (Options.AllowedHosts; loopback names by default) and an Origin header,
// when present, must be allowed (Options.AllowedOrigins) or be a loopback
// origin while the Host is loopback too; otherwise 403. An allowed origin
// gets the CORS headers a browser needs to read the answer, and its
// preflight (OPTIONS) is answered 204 without authentication. Then the
// authenticator decides who the request acts as (401 with the challenge of
// package auth, naming Options.ResourceMetadataURL). Tokens are never
// logged; the access log names method, path, status, MCP method and
// duration.
package mcphttp

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/internal/mono"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The headers of the Streamable HTTP transport.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
)

// Defaults of Options.
const (
	DefaultMaxBodyBytes       = 4 << 20
	DefaultSessionIdleTimeout = 30 * time.Minute
	DefaultKeepAlive          = 25 * time.Second
	// DefaultMaxInFlight requests at once: enough to keep two cores busy
	// while handlers wait on the systems behind them, and a bounded
	// multiple of DefaultMaxBodyBytes in memory (128 MiB of bodies).
	DefaultMaxInFlight = 32
	// DefaultQueueWait is how long a request waits for a place once every
	// place is taken, before it is answered 503.
	DefaultQueueWait = time.Second
	// DefaultMaxSessions and DefaultMaxSessionsPerCaller bound the
	// handshake-era sessions: a session keeps some kilobytes (its
	// capabilities up to mcp.MaxCapabilitiesBytes), so the table stays
	// within some hundreds of megabytes at its worst.
	DefaultMaxSessions          = 4096
	DefaultMaxSessionsPerCaller = 64
	// DefaultMaxStreams bounds the open event streams (GET streams and
	// subscriptions/listen): each holds a goroutine and the connection's
	// buffers, some 40 KiB.
	DefaultMaxStreams = 512
	// DefaultMaxInFlightPerCaller and DefaultMaxStreamsPerCaller are one
	// caller's share: a quarter of the requests in flight, an eighth of
	// the streams, so that one caller flooding the server leaves the
	// others places.
	DefaultMaxInFlightPerCaller = 8
	DefaultMaxStreamsPerCaller  = 64
)

// Options configure a Handler. The zero value serves loopback clients
// without authentication, each request acting as Anonymous.
type Options struct {
	// Authenticator decides who each request acts as; nil means every
	// request acts as Anonymous. Server refuses to serve without a real
	// authenticator unless told it is a local development server.
	Authenticator auth.Authenticator
	// ResourceMetadataURL is named in the 401 challenge (RFC 9728): where
	// a client learns how to get a token.
	ResourceMetadataURL string
	// AllowedHosts are the host names (without port) requests may be
	// addressed to; empty means the loopback names (localhost, 127.0.0.1,
	// ::1), and "*" any host (when a proxy in front checks Host).
	AllowedHosts []string
	// AllowedOrigins are the browser origins ("https://app.example",
	// scheme://host[:port]) allowed besides loopback ones on a loopback
	// host; "*" allows any.
	AllowedOrigins []string
	// Stateless makes the handler serve only the stateless era, holding
	// no state between requests (see the package documentation).
	Stateless bool
	// MaxBodyBytes bounds a POST body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// SessionIdleTimeout ends a handshake-era session that no request
	// used for that long (an open GET stream ends with it); zero means
	// DefaultSessionIdleTimeout. A timer ends it, whether or not anything
	// else happens.
	SessionIdleTimeout time.Duration
	// MaxInFlight bounds the requests served at once, event streams
	// apart (MaxStreams): a request that finds every place taken waits
	// for one up to QueueWait, with at most MaxInFlight others waiting,
	// and is otherwise answered 503 with Retry-After. Its body is read
	// only once it has a place. Zero means DefaultMaxInFlight.
	MaxInFlight int
	// QueueWait is how long a request may wait for a place; zero means
	// DefaultQueueWait, negative not at all.
	QueueWait time.Duration
	// MaxSessions bounds the handshake-era sessions; an initialize over
	// it is answered 503. MaxSessionsPerCaller bounds those of one caller
	// (an agent of a tenant): its next initialize ends its least recently
	// used session. Zero means DefaultMaxSessions and
	// DefaultMaxSessionsPerCaller.
	MaxSessions          int
	MaxSessionsPerCaller int
	// MaxStreams bounds the open event streams, GET streams and
	// subscriptions/listen together; one over it is answered 503. Zero
	// means DefaultMaxStreams.
	MaxStreams int
	// MaxInFlightPerCaller and MaxStreamsPerCaller bound what one caller
	// (an agent of a tenant) holds of MaxInFlight and MaxStreams. A request
	// over its caller's share waits for one of the caller's places as for
	// the handler's (QueueWait), then is answered 503; a stream over it is
	// answered 503 at once. Zero means DefaultMaxInFlightPerCaller and
	// DefaultMaxStreamsPerCaller.
	MaxInFlightPerCaller int
	MaxStreamsPerCaller  int
	// KeepAlive is the interval of SSE comment lines on an idle stream, so
	// that proxies do not close it; zero means DefaultKeepAlive, negative
	// none.
	KeepAlive time.Duration
	// Events keeps the events of handshake-era streams, so that a client
	// whose connection broke resumes with Last-Event-ID (see "Resumable
	// streams" in the package documentation). Nil means a store in memory
	// with eventstore's default bounds, the handler's own; a store shared
	// by several handlers or replicas is keyed by session id, which is
	// unique.
	Events eventstore.Store
	// Sessions, when set, keeps the handshake-era sessions where every
	// replica behind a load balancer reads them: a request naming a
	// session this handler does not hold is served from its record (see
	// "Replicas" in the package documentation). Give Events a store
	// the replicas share too, so that a stream resumes on any of them.
	Sessions SessionStore
	// PollAfter, when positive, closes a request's response, its event
	// stream started, once the request has run that long and still runs,
	// so that the client comes back for the rest with Last-Event-ID
	// rather than hold the POST for the whole of a long call (2025-11-25
	// sessions whose client accepts event streams, SEP-1699). Zero never
	// closes one.
	PollAfter time.Duration
	// PollRetry is how long a client is told to wait before it
	// reconnects to a stream closed for polling; zero means
	// DefaultPollRetry.
	PollRetry time.Duration
	// Logger receives the access log and transport errors; nil discards
	// them.
	Logger *slog.Logger
}

// Anonymous is the principal of a request when no authenticator is set: no
// agent, tenant or scopes, public clearance. It sees only what is open to
// everyone.
var Anonymous = estate.Principal{MaxClassification: estate.Public}

// Handler serves the MCP endpoint for one mcp.Server. It is safe for
// concurrent use. Close it (or use Server, which does) to end its streams.
type Handler struct {
	srv  *mcp.Server
	opts Options
	log  *slog.Logger

	// ctx is cancelled by Close: it ends the streams still open.
	ctx    context.Context
	cancel context.CancelFunc

	// places holds a token per request in flight (MaxInFlight), waiting
	// counts the requests waiting for one, and streams holds a token per
	// open event stream (MaxStreams).
	places  chan struct{}
	waiting atomic.Int64
	streams chan struct{}
	// callerPlaces and callerStreams count each caller's share.
	callerPlaces, callerStreams callerCounts

	mu       sync.Mutex
	sessions sessionTable
	requests map[*mcp.Session]struct{} // stateless subscriptions/listen streams open
	closed   bool
}

// NewHandler returns the endpoint handler serving srv.
func NewHandler(srv *mcp.Server, opts Options) *Handler {
	if opts.Authenticator == nil {
		opts.Authenticator = auth.Static{Principal: Anonymous}
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.SessionIdleTimeout <= 0 {
		opts.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if opts.KeepAlive == 0 {
		opts.KeepAlive = DefaultKeepAlive
	}
	if opts.Events == nil {
		opts.Events = eventstore.NewMemory(eventstore.MemoryOptions{})
	}
	if opts.PollRetry <= 0 {
		opts.PollRetry = DefaultPollRetry
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&opts.MaxInFlight, DefaultMaxInFlight)
	def(&opts.MaxSessions, DefaultMaxSessions)
	def(&opts.MaxSessionsPerCaller, DefaultMaxSessionsPerCaller)
	def(&opts.MaxStreams, DefaultMaxStreams)
	def(&opts.MaxInFlightPerCaller, DefaultMaxInFlightPerCaller)
	def(&opts.MaxStreamsPerCaller, DefaultMaxStreamsPerCaller)
	if opts.QueueWait == 0 {
		opts.QueueWait = DefaultQueueWait
	}
	log := oplog.Logger(opts.Logger)
	ctx, cancel := context.WithCancel(context.Background())
	return &Handler{
		srv: srv, opts: opts, log: log, ctx: ctx, cancel: cancel,
		places:        make(chan struct{}, opts.MaxInFlight),
		streams:       make(chan struct{}, opts.MaxStreams),
		callerPlaces:  callerCounts{max: opts.MaxInFlightPerCaller, shares: map[caller]*share{}},
		callerStreams: callerCounts{max: opts.MaxStreamsPerCaller, shares: map[caller]*share{}},
		sessions:      sessionTable{byID: map[string]*session{}, byCaller: map[caller]*list.List{}},
		requests:      map[*mcp.Session]struct{}{},
	}
}

// Close ends every open stream (a subscriptions/listen stream without an
// answer: close the mcp.Server first to have them answered) and every
// handshake-era session; later requests are answered 503. Requests in
// flight run to their end (closing an mcp.Session does not cancel them).
func (h *Handler) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	var sessions []*session
	for _, s := range h.sessions.byID {
		h.removeLocked(s)
		sessions = append(sessions, s)
	}
	if h.sessions.expiry != nil {
		h.sessions.expiry.Stop()
	}
	requests := h.requests
	h.requests = map[*mcp.Session]struct{}{}
	h.mu.Unlock()
	h.cancel()
	for _, s := range sessions {
		s.close()
	}
	for s := range requests {
		s.Close()
	}
	return nil
}

func (h *Handler) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// ServeHTTP serves the endpoint.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := mono.Now()
	rec := &statusRecorder{ResponseWriter: w}
	defer h.recovered(rec, r)
	mcpMethod := h.serve(rec, r)
	// The access log's record is an oplog.AccessRecord: under the
	// service's asynchronous sink it is queued as it is and its line
	// written by the sink's writer, without a slog record on the
	// request's path (Logger.LogAttrs also captured the caller's program
	// counter, half a microsecond a request, for a source that is always
	// this line). Its time is the request's end, told from the
	// monotonic clock's reading (mono.Wall): a request reads one clock at
	// its start and one at its end, where time.Now read two at its start.
	ctx, log := r.Context(), h.log.Handler()
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	end := mono.Now()
	oplog.LogAccess(ctx, log, &oplog.AccessRecord{
		Time: mono.Wall(end), Method: r.Method, Path: r.URL.Path, Status: rec.status(),
		MCPMethod: mcpMethod, Duration: end - start,
	})
}

// recovered is the transport's safety net, as Session's is dispatch's: a
// panic outside dispatch (an Authenticator's, or the transport's own) is
// logged with its stack and answered 500 with -32603, where net/http would
// drop the connection and leave the request unanswered. An answer already
// begun cannot be; its connection is dropped.
func (h *Handler) recovered(w *statusRecorder, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	h.log.LogAttrs(r.Context(), slog.LevelError, "panic while serving a request",
		slog.String("path", r.URL.Path), slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
	if w.code != 0 {
		panic(http.ErrAbortHandler)
	}
	writeError(w, http.StatusInternalServerError, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error"))
}

// serve routes a request and returns the MCP method it carried, for the
// access log.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) string {
	if reason := h.checkHostAndOrigin(r); reason != "" {
		writeError(w, http.StatusForbidden, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "forbidden: "+reason))
		return ""
	}
	if origin := headerValue(r.Header, "Origin"); origin != "" {
		// An allowed origin: a browser page there may read the answer.
		if allowCORS(w.Header(), origin, r) {
			w.WriteHeader(http.StatusNoContent) // a preflight
			return ""
		}
	}
	if name := repeatedHeader(r.Header); name != "" {
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the "+name+" header is repeated: send it once"))
		return ""
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet, http.MethodDelete:
		if h.opts.Stateless {
			methodNotAllowed(w)
			return ""
		}
	default:
		methodNotAllowed(w)
		return ""
	}
	if h.isClosed() {
		unavailable(w, jsonrpc.ID{}, errClosed)
		return ""
	}
	p, err := h.opts.Authenticator.Authenticate(r)
	if err != nil {
		e := auth.AsError(err)
		h.log.LogAttrs(r.Context(), slog.LevelInfo, "request not authenticated", slog.String("reason", e.Error()))
		auth.Challenge(w.Header(), e, h.opts.ResourceMetadataURL)
		writeError(w, e.Status(), jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "unauthorized: "+e.Description))
		return ""
	}
	switch r.Method {
	case http.MethodGet:
		h.get(w, r, p)
	case http.MethodDelete:
		h.delete(w, r, p)
	default:
		a := &admission{h: h, caller: callerKey(p)}
		if err := a.enter(r.Context()); err != nil {
			unavailable(w, jsonrpc.ID{}, err)
			return ""
		}
		defer a.release()
		return h.post(w, r, p, a)
	}
	return ""
}

var (
	errBusy              = errors.New("the server is serving as many requests as it may: retry later")
	errCallerBusy        = errors.New("this caller has as many requests in flight as it may: retry later")
	errManyStreams       = errors.New("the server has as many event streams open as it may: retry later")
	errCallerManyStreams = errors.New("this caller has as many event streams open as it may: close one, or retry later")
)

// unavailable answers 503 with Retry-After: the request may succeed later,
// and nothing of it was done.
func unavailable(w http.ResponseWriter, id jsonrpc.ID, why error) {
	w.Header().Set("Retry-After", "1")
	writeError(w, http.StatusServiceUnavailable, id, jsonrpc.NewError(jsonrpc.CodeInternalError, why.Error()))
}

// callerCounts holds each caller's share of a bounded resource: max
// places per caller.
type callerCounts struct {
	mu     sync.Mutex
	shares map[caller]*share
	// free are shares dropped, for the next callers to take: a caller
	// whose requests come one at a time drops its share after each, and
	// would make one, and its channel, for every request.
	free []*share
	max  int
}

// maxFreeShares bounds callerCounts.free.
const maxFreeShares = 16

// share is one caller's places, and how many of its requests hold or wait
// for one (the share is dropped when none does).
type share struct {
	places chan struct{}
	users  int
}

// take takes one of who's places, waiting for one as h.wait allows when
// wait is set; false means the caller gets none.
func (c *callerCounts) take(ctx context.Context, h *Handler, who caller, wait bool) bool {
	c.mu.Lock()
	sh := c.shares[who]
	if sh == nil {
		if n := len(c.free); n > 0 {
			sh, c.free = c.free[n-1], c.free[:n-1]
		} else {
			sh = &share{places: make(chan struct{}, c.max)}
		}
		c.shares[who] = sh
	}
	sh.users++
	c.mu.Unlock()
	if (wait && h.wait(ctx, sh.places)) || (!wait && tryPut(sh.places)) {
		return true
	}
	c.leave(who, sh)
	return false
}

// give gives back one of who's places.
func (c *callerCounts) give(who caller) {
	c.mu.Lock()
	sh := c.shares[who]
	c.mu.Unlock()
	<-sh.places
	c.leave(who, sh)
}

func (c *callerCounts) leave(who caller, sh *share) {
	c.mu.Lock()
	if sh.users--; sh.users == 0 {
		// No request holds a place of it or waits for one: its channel
		// is empty, and the share can serve another caller.
		delete(c.shares, who)
		if len(c.free) < maxFreeShares {
			c.free = append(c.free, sh)
		}
	}
	c.mu.Unlock()
}

// tryPut takes a place of places without waiting.
func tryPut(places chan struct{}) bool {
	select {
	case places <- struct{}{}:
		return true
	default:
		return false
	}
}

// wait takes a place of places, waiting for one up to QueueWait when all
// are taken, with at most MaxInFlight requests waiting in the handler in
// all; false means the request gets none.
func (h *Handler) wait(ctx context.Context, places chan struct{}) bool {
	if tryPut(places) {
		return true
	}
	if h.opts.QueueWait < 0 {
		return false
	}
	if h.waiting.Add(1) > int64(h.opts.MaxInFlight) {
		h.waiting.Add(-1)
		return false
	}
	defer h.waiting.Add(-1)
	timer := time.NewTimer(h.opts.QueueWait)
	defer timer.Stop()
	select {
	case places <- struct{}{}:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return false
}

// openStream takes a place for who's event stream, without waiting;
// closeStream gives it back.
func (h *Handler) openStream(who caller) error {
	if !h.callerStreams.take(context.Background(), h, who, false) {
		return errCallerManyStreams
	}
	if !tryPut(h.streams) {
		h.callerStreams.give(who)
		return errManyStreams
	}
	return nil
}

func (h *Handler) closeStream(who caller) {
	<-h.streams
	h.callerStreams.give(who)
}

// admission is what a POST request of caller holds: a place among the
// requests in flight, or, once it is known to be a subscriptions/listen
// stream, a place among the streams instead; each counted in the caller's
// share too.
type admission struct {
	h              *Handler
	caller         caller
	placed, stream bool
}

// enter takes the request's place: a place of its caller's share first,
// then one of the handler's, each waited for as Handler.wait allows. A
// caller over its share thus waits on its own requests, taking no place
// from other callers.
func (a *admission) enter(ctx context.Context) error {
	if !a.h.callerPlaces.take(ctx, a.h, a.caller, true) {
		return errCallerBusy
	}
	if !a.h.wait(ctx, a.h.places) {
		a.h.callerPlaces.give(a.caller)
		return errBusy
	}
	a.placed = true
	return nil
}

// toStream trades the request's place for a stream's; it fails when no
// stream place is left (the request keeps its place).
func (a *admission) toStream() error {
	if err := a.h.openStream(a.caller); err != nil {
		return err
	}
	<-a.h.places
	a.h.callerPlaces.give(a.caller)
	a.placed, a.stream = false, true
	return nil
}

// handOff moves what a holds to another admission, released by whoever
// serves the request on once a's request handler has returned.
func (a *admission) handOff() *admission {
	b := *a
	a.placed, a.stream = false, false
	return &b
}

func (a *admission) release() {
	if a.placed {
		<-a.h.places
		a.h.callerPlaces.give(a.caller)
	}
	if a.stream {
		a.h.closeStream(a.caller)
	}
	a.placed, a.stream = false, false
}

func methodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Allow", "GET, POST, DELETE")
	writeError(w, http.StatusMethodNotAllowed, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "method not allowed"))
}

// post serves one JSON-RPC message, admitted as a.
func (h *Handler) post(w http.ResponseWriter, r *http.Request, p estate.Principal, a *admission) string {
	// The usual value is taken as it is; any other is parsed (a
	// charset parameter, another case).
	if ct := headerValue(r.Header, "Content-Type"); ct != "" && ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the body must be application/json"))
			return ""
		}
	}
	acc := parseAccept(r.Header["Accept"])
	if !acc.json && !acc.sse {
		writeError(w, http.StatusNotAcceptable, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Accept must list application/json and text/event-stream"))
		return ""
	}
	body, err := readBody(w, r, h.opts.MaxBodyBytes)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the body exceeds the limit of "+itoa(h.opts.MaxBodyBytes)+" bytes"))
		} else {
			writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the body could not be read"))
		}
		return ""
	}
	if jsonrpc.IsBatch(body) {
		if s := h.batchSession(r, p); s != nil {
			h.postBatch(w, r, s, body, acc)
			return "batch"
		}
		// Anywhere else a batch is refused as jsonrpc.Decode refuses it.
	}
	// The params are read once, in the pass that checks the body: to
	// route the message, and for dispatch (HandleIncoming).
	var in mcp.Incoming
	if rpcErr := in.Decode(body); rpcErr != nil {
		h.srv.Observe(mcp.Event{Kind: mcp.Refused, Refusal: mcp.RefusedEnvelope})
		writeError(w, http.StatusBadRequest, in.Message.ID, rpcErr)
		return ""
	}
	msg := in.Message
	stateless, bodyVersion := in.Stateless()
	if rev, ok := mcp.ParseRevision(headerValue(r.Header, HeaderProtocolVersion)); ok && rev.Stateless() {
		stateless = true
	}
	if stateless {
		h.postStateless(w, r, p, &in, bodyVersion, acc, a)
	} else {
		h.postHandshake(w, r, p, &in, acc, a)
	}
	return msg.Method
}

// readBody reads a POST body, at most limit bytes of it. A body that states
// its length is read into one buffer of that length: io.ReadAll grows its
// buffer as the body arrives, allocating two to three times the body.
// net/http ends a body at its stated length (a client that sends more
// gets an error), so such a body is read as it is; one of no stated
// length, or past the limit, through MaxBytesReader, which bounds what is
// read whatever it is.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= limit {
		buf := make([]byte, n)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

// postStateless serves a request of the stateless era on a session of its
// own.
func (h *Handler) postStateless(w http.ResponseWriter, r *http.Request, p estate.Principal, in *mcp.Incoming, bodyVersion string, acc acceptance, a *admission) {
	msg := in.Message
	if !msg.IsRequest() {
		// The era defines no notification over HTTP (closing a response
		// is what cancels its request), and its server sends no request
		// a response could answer.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if e := checkStatelessHeaders(r.Header, in, bodyVersion); e != nil {
		writeError(w, http.StatusBadRequest, msg.ID, e)
		return
	}
	rev := mcp.Revision(headerValue(r.Header, HeaderProtocolVersion)) // equal to the body's, and served
	status := http.StatusOK
	if !rev.Serves(msg.Method) {
		status = http.StatusNotFound
	}
	if msg.Method == methodListen && status == http.StatusOK {
		if !acc.sse {
			writeError(w, http.StatusNotAcceptable, msg.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "subscriptions/listen answers with an event stream: Accept must list text/event-stream"))
			return
		}
		// A stream, not a request in flight: it counts among the streams.
		if err := a.toStream(); err != nil {
			unavailable(w, msg.ID, err)
			return
		}
	}
	rep := newReply(w, acc, h.opts.KeepAlive)
	sess := h.srv.NewRequestSession(p, rep.push)
	if h.opts.Stateless {
		sess.ServeStatelessOnly() // what server/discover lists
	}
	listen := msg.Method == methodListen
	if listen && !h.track(sess) {
		sess.Close()
		unavailable(w, msg.ID, errClosed)
		return
	}
	rep.serve(r.Context(), sess, in, status)
	if listen {
		h.untrack(sess)
	}
	sess.Close()
}

// track registers the session of a stateless subscriptions/listen, so
// that Close can end its stream, which would otherwise outlive the
// handler (any other stateless request ends with its answer). It is false
// once the handler is closed.
func (h *Handler) track(s *mcp.Session) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.requests[s] = struct{}{}
	return true
}

func (h *Handler) untrack(s *mcp.Session) {
	h.mu.Lock()
	delete(h.requests, s)
	h.mu.Unlock()
}

// postHandshake serves a message of the handshake era on its session, or
// opens one (initialize), admitted as a.
func (h *Handler) postHandshake(w http.ResponseWriter, r *http.Request, p estate.Principal, in *mcp.Incoming, acc acceptance, a *admission) {
	msg := in.Message
	if v := headerValue(r.Header, HeaderProtocolVersion); v != "" {
		if _, known := mcp.ParseRevision(v); !known {
			writeError(w, http.StatusBadRequest, answerID(msg), unsupportedHeader(v))
			return
		}
	}
	if h.opts.Stateless {
		writeError(w, http.StatusBadRequest, answerID(msg), statelessOnly(in))
		return
	}
	if msg.Method == methodInitialize && msg.IsRequest() {
		s := h.newSession(p)
		out := s.mcp.HandleIncoming(r.Context(), in)
		if isResult(out) {
			if err := h.register(s); err != nil {
				s.close()
				unavailable(w, msg.ID, err)
				return
			}
			if err := h.share(r.Context(), s); err != nil {
				h.remove(s)
				unavailable(w, msg.ID, errStoreUnreadable)
				return
			}
			w.Header().Set(HeaderSessionID, s.id)
		} else {
			s.close()
		}
		newReply(w, acc, 0).finish(http.StatusOK, out)
		return
	}
	s := h.sessionOf(w, r, p, answerID(msg))
	if s == nil {
		return
	}
	if !msg.IsRequest() {
		// A notification, or the client's answer to a request of the
		// server's (sampling, elicitation).
		s.mcp.HandleMessage(r.Context(), msg)
		if h.share(r.Context(), s) != nil {
			unavailable(w, jsonrpc.ID{}, errStoreUnreadable)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// What the request changes of the session's state (its log level,
	// its subscriptions) reaches the shared store once it is answered.
	defer h.share(r.Context(), s)
	// A dropped connection does not cancel a request in this era. What the
	// request sends the client on its way (progress, log messages,
	// requests) streams ahead of its answer when the client accepts a
	// stream, and otherwise goes to the session's GET stream.
	ctx := requestContext(r)
	rep := newReply(w, acc, h.opts.KeepAlive)
	rep.sess = s
	if acc.sse {
		ctx = mcp.WithRelatedSender(ctx, rep.push)
	}
	if !acc.sse || !s.polls() {
		rep.serve(ctx, s.mcp, in, http.StatusOK)
		return
	}
	// The server may close the response for the client to poll: the
	// request runs apart from it, holding its place until answered.
	held := a.handOff()
	// The goroutine keeps a copy made on this path alone: were it to keep
	// msg, or in, either would be moved to the heap on every request.
	polled := msg
	answered := make(chan struct{})
	go func() {
		defer held.release()
		rep.finish(http.StatusOK, s.mcp.HandleMessage(ctx, polled))
		close(answered)
	}()
	timer := time.NewTimer(h.opts.PollAfter)
	defer timer.Stop()
	select {
	case <-answered:
	case <-timer.C:
		if !rep.poll() {
			<-answered // the answer is being written on this response
		}
	}
}

// requestContext is the context a handshake-era request runs under: a
// dropped connection does not cancel it, but a server that is shutting
// down does, once the grace period is nearly over, so the handler returns
// and the request is answered before the connection closes.
//
// It registers nothing: the request's context (mcp's) reads the drain's
// end, and registers with the drain only once something waits for the
// request's end. Cancelling a context of the request's own at the drain
// (context.WithCancel, and context.AfterFunc on the drain) registered
// every request with the one drain all requests share.
func requestContext(r *http.Request) context.Context {
	drain, ok := r.Context().Value(drainKey{}).(context.Context)
	if !ok {
		return context.WithoutCancel(r.Context())
	}
	return drainingContext{Context: drain, request: r.Context()}
}

// drainingContext is a request's context ended by its server's drain
// alone: the drain's end, and the request's values.
type drainingContext struct {
	context.Context // the drain (see withDrain)
	request         context.Context
}

// Value is the drain's value for key, which the drain has for none but
// the context package's own (its cancellation, which a context derived
// from c finds there and registers with, rather than start a goroutine
// to wait for Done), and otherwise the request's.
func (c drainingContext) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.request.Value(key)
}

// batchSession is the handshake-era session a batch is sent on, when the
// request names one of p's sessions and that session accepts batches (its
// revision is 2025-03-26, see mcp.Session.AcceptsBatches); nil otherwise.
func (h *Handler) batchSession(r *http.Request, p estate.Principal) *session {
	if h.opts.Stateless {
		return nil
	}
	sid := headerValue(r.Header, HeaderSessionID)
	if sid == "" {
		return nil
	}
	s := h.lookup(sid, p)
	if h.opts.Sessions != nil {
		// Unreadable is answered as not found here: the batch is then
		// refused as a batch, and the client retries.
		s, _ = h.fromStore(r.Context(), sid, p, s)
	}
	if s == nil || !s.mcp.AcceptsBatches() {
		return nil
	}
	return s
}

// postBatch serves a JSON-RPC batch on its session: every member passes
// the gates alone (mcp.Session.HandleBatch), and the answer is the array
// of the members' answers, or 202 with no body when no member is
// answered (notifications and responses only), as the 2025-03-26
// transport requires. The body limit bounds the batch whole.
func (h *Handler) postBatch(w http.ResponseWriter, r *http.Request, s *session, body []byte, acc acceptance) {
	ctx := requestContext(r)
	rep := newReply(w, acc, h.opts.KeepAlive)
	rep.sess = s
	if acc.sse {
		ctx = mcp.WithRelatedSender(ctx, rep.push)
	}
	out := s.mcp.HandleBatch(ctx, body)
	h.share(ctx, s)
	if out == nil {
		rep.finish(http.StatusAccepted, nil)
		return
	}
	rep.finish(http.StatusOK, out)
}

// statelessOnly is a stateless handler's answer to a handshake-era
// message: initialize learns the revisions it may use instead.
func statelessOnly(in *mcp.Incoming) *jsonrpc.Error {
	if in.Message.Method == methodInitialize {
		requested, _ := in.StringMember("protocolVersion")
		return mcp.UnsupportedProtocolVersionError(requested)
	}
	return jsonrpc.NewError(jsonrpc.CodeHeaderMismatch, "this server is stateless: every request must carry the "+
		HeaderProtocolVersion+" header and params._meta of a stateless revision ("+strings.Join(statelessRevisions(), ", ")+")")
}

// unsupportedHeader answers a handshake-era message whose
// MCP-Protocol-Version header names a revision this server does not speak.
func unsupportedHeader(v string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "unsupported "+HeaderProtocolVersion+" header "+quote(v)+"; this server speaks "+revisionList())
}

var (
	errNoSessionID     = jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the "+HeaderSessionID+" header is required: send initialize first")
	errSessionNotFound = jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "session not found: send initialize to start a new one")
)

// get opens a handshake-era session's notification stream.
func (h *Handler) get(w http.ResponseWriter, r *http.Request, p estate.Principal) {
	if !parseAccept(r.Header["Accept"]).sse {
		writeError(w, http.StatusNotAcceptable, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Accept must list text/event-stream"))
		return
	}
	if v := headerValue(r.Header, HeaderProtocolVersion); v != "" {
		switch rev, known := mcp.ParseRevision(v); {
		case !known:
			writeError(w, http.StatusBadRequest, jsonrpc.ID{}, unsupportedHeader(v))
			return
		case rev.Stateless():
			// The stateless era has no GET stream: subscriptions/listen.
			methodNotAllowed(w)
			return
		}
	}
	s := h.sessionOf(w, r, p, jsonrpc.ID{})
	if s == nil {
		return
	}
	if err := h.openStream(s.caller); err != nil {
		unavailable(w, jsonrpc.ID{}, err)
		return
	}
	defer h.closeStream(s.caller)
	if lastID, resuming := header(r.Header, lastEventIDKey); resuming {
		s.resume(w, r.Context(), h.ctx, lastID)
		return
	}
	s.serveStream(w, r.Context(), h.ctx)
}

// sessionOf is the handshake-era session the request's Mcp-Session-Id
// names, when p opened it; otherwise it answers the request with the error,
// under id, and returns nil.
func (h *Handler) sessionOf(w http.ResponseWriter, r *http.Request, p estate.Principal, id jsonrpc.ID) *session {
	sid := headerValue(r.Header, HeaderSessionID)
	if sid == "" {
		writeError(w, http.StatusBadRequest, id, errNoSessionID)
		return nil
	}
	s := h.lookup(sid, p)
	if h.opts.Sessions != nil && !h.isClosed() {
		var err error
		if s, err = h.fromStore(r.Context(), sid, p, s); err != nil {
			unavailable(w, id, err)
			return nil
		}
	}
	if s == nil {
		if h.isClosed() {
			// Close ended every session: the id was not wrong, the
			// server is going away.
			unavailable(w, id, errClosed)
		} else {
			writeError(w, http.StatusNotFound, id, errSessionNotFound)
		}
	}
	return s
}

// delete ends a handshake-era session.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request, p estate.Principal) {
	s := h.sessionOf(w, r, p, jsonrpc.ID{})
	if s == nil {
		return
	}
	h.remove(s)
	h.unshare(s)
	w.WriteHeader(http.StatusNoContent)
}

// answerID is the id an error about msg is answered under: a request's own,
// null for a notification or a response, which nothing may answer.
func answerID(msg jsonrpc.Message) jsonrpc.ID {
	if msg.IsRequest() {
		return msg.ID
	}
	return jsonrpc.ID{}
}

// isResult reports whether an encoded answer is a success.
func isResult(out []byte) bool {
	if out == nil {
		return false
	}
	m, err := jsonrpc.Decode(out)
	return err == nil && m.Error == nil
}

// writeError answers with a JSON-RPC error object.
func writeError(w http.ResponseWriter, status int, id jsonrpc.ID, e *jsonrpc.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpc.EncodeError(id, e))
}

// statusRecorder remembers the status written, for the access log. Unwrap
// keeps http.ResponseController working through it.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) status() int {
	if s.code == 0 {
		return http.StatusOK
	}
	return s.code
}

// The methods the transport treats specially.
const (
	methodInitialize = protocol.MethodInitialize
	methodListen     = protocol.MethodListen
)

// drainKey holds, in the context of every request a Server serves, the
// context Serve cancels when a shutdown's grace period is nearly over.
type drainKey struct{}

// withDrain is the context a Server's connections start from: drain,
// holding itself under drainKey, where requestContext finds it. drain
// holds no values of its own (see drainingContext.Value).
func withDrain(drain context.Context) context.Context {
	return context.WithValue(drain, drainKey{}, drain)
}
