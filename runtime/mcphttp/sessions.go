package mcphttp

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/internal/mono"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// session is a handshake-era session: the mcp.Session, the principal it is
// bound to, and its resumable streams (see eventStream).
type session struct {
	h         *Handler
	id        string
	principal estate.Principal
	caller    caller // callerKey(principal)
	mcp       *mcp.Session
	gone      chan struct{} // closed when the session ends
	// standalone is the GET stream: the session's notifications, kept
	// for the next GET while none is open.
	standalone *eventStream

	// Under Handler.mu: when the session was last used, and its places in
	// the table's lists.
	lastUsed   time.Duration // when a request last named it (mono.Now)
	inTable    *list.Element
	inCaller   *list.Element
	registered bool

	mu      sync.Mutex
	streams map[string]*eventStream // the request streams not yet answered, by id
	closed  bool
	// shared is the state last read from or written to the shared store
	// (Options.Sessions), and sharedRaw the record it was read from or
	// written as.
	shared    mcp.SessionState
	sharedRaw []byte
}

// sessionTable holds the handshake-era sessions under Handler.mu: by id;
// in order of last use, so that the session to expire next is the last of
// the list, whatever the number of sessions; and per caller, so that one
// caller's sessions can be bounded without counting the others'. Every
// operation on it is O(1) in the number of sessions.
type sessionTable struct {
	byID     map[string]*session
	lru      list.List             // of *session, most recently used first
	byCaller map[caller]*list.List // of *session per caller, the same order
	// expiry fires when the least recently used session goes idle for
	// SessionIdleTimeout; armed says it is pending.
	expiry *time.Timer
	armed  bool
}

// caller is who a session and a request count against: the agent and its
// tenant. A caller with other scopes or another clearance is still that
// caller. Two strings rather than one joined: a key made per request
// allocates nothing.
type caller struct{ tenant, agent string }

// callerKey is p's caller.
func callerKey(p estate.Principal) caller { return caller{p.Tenant, p.AgentID} }

func (h *Handler) newSession(p estate.Principal) *session {
	s := &session{h: h, id: newSessionID(), principal: p, caller: callerKey(p), gone: make(chan struct{})}
	s.standalone = newEventStream(s)
	s.mcp = h.srv.NewSession(p, s.send)
	return s
}

// newSessionID returns 128 random bits in hex: visible ASCII, unguessable.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

var (
	errClosed       = errors.New("the server is shutting down")
	errHeld         = errors.New("the session is held already")
	errTooManyTotal = errors.New("the server holds as many sessions as it may: retry later, or end a session you no longer use (DELETE)")
)

// register adds s to the table. A caller at MaxSessionsPerCaller loses its
// least recently used session to the new one: it only ever displaces its
// own. It fails when the handler is closed, or when the table holds
// MaxSessions sessions of others.
func (h *Handler) register(s *session) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return errClosed
	}
	t := &h.sessions
	if t.byID[s.id] != nil {
		h.mu.Unlock()
		return errHeld
	}
	var displaced *session
	if own := t.byCaller[s.caller]; own != nil && own.Len() >= h.opts.MaxSessionsPerCaller {
		displaced = own.Back().Value.(*session)
		h.removeLocked(displaced)
	}
	if len(t.byID) >= h.opts.MaxSessions {
		h.mu.Unlock()
		if displaced != nil {
			displaced.close()
		}
		return errTooManyTotal
	}
	s.lastUsed = mono.Now()
	t.byID[s.id] = s
	s.inTable = t.lru.PushFront(s)
	own := t.byCaller[s.caller]
	if own == nil {
		own = list.New()
		t.byCaller[s.caller] = own
	}
	s.inCaller = own.PushFront(s)
	s.registered = true
	if !t.armed {
		h.armExpiryLocked(h.opts.SessionIdleTimeout)
	}
	h.mu.Unlock()
	if displaced != nil {
		displaced.close()
	}
	return nil
}

// lookup finds the live session id names for principal p, and marks it
// used: nil when there is none, it expired, or it belongs to another
// principal.
func (h *Handler) lookup(id string, p estate.Principal) *session {
	h.mu.Lock()
	s := h.sessions.byID[id]
	if s == nil {
		h.mu.Unlock()
		return nil
	}
	now := mono.Now()
	if now-s.lastUsed > h.opts.SessionIdleTimeout {
		// Expired, and the timer has not got to it yet.
		h.removeLocked(s)
		h.mu.Unlock()
		s.close()
		return nil
	}
	if !s.principal.SameAs(p) {
		h.mu.Unlock()
		return nil
	}
	s.lastUsed = now
	h.sessions.lru.MoveToFront(s.inTable)
	h.sessions.byCaller[s.caller].MoveToFront(s.inCaller)
	h.mu.Unlock()
	return s
}

func (h *Handler) remove(s *session) {
	h.mu.Lock()
	h.removeLocked(s)
	h.mu.Unlock()
	s.close()
}

// removeLocked takes s out of the table, if it is there; the caller closes
// it once h.mu is released.
func (h *Handler) removeLocked(s *session) {
	if !s.registered {
		return
	}
	s.registered = false
	t := &h.sessions
	delete(t.byID, s.id)
	t.lru.Remove(s.inTable)
	own := t.byCaller[s.caller]
	own.Remove(s.inCaller)
	if own.Len() == 0 {
		delete(t.byCaller, s.caller)
	}
}

// armExpiryLocked sets the expiry timer to fire after d.
func (h *Handler) armExpiryLocked(d time.Duration) {
	t := &h.sessions
	if t.expiry == nil {
		t.expiry = time.AfterFunc(d, h.expireIdle)
	} else {
		t.expiry.Reset(d)
	}
	t.armed = true
}

// expireIdle ends the sessions unused for SessionIdleTimeout, from the
// least recently used on, and sets the timer for the next one to go. An
// open GET stream does not keep a session alive: a session is used by its
// requests, and a client whose stream ends with its session initializes
// again, as it does after any 404.
func (h *Handler) expireIdle() {
	h.mu.Lock()
	t := &h.sessions
	t.armed = false
	if h.closed {
		h.mu.Unlock()
		return
	}
	idle, now := h.opts.SessionIdleTimeout, mono.Now()
	var expired []*session
	for e := t.lru.Back(); e != nil; e = t.lru.Back() {
		s := e.Value.(*session)
		if wait := idle - (now - s.lastUsed); wait > 0 {
			h.armExpiryLocked(wait)
			break
		}
		h.removeLocked(s)
		expired = append(expired, s)
	}
	h.mu.Unlock()
	for _, s := range expired {
		s.close()
	}
}

// send is the mcp.Session's send function: the GET stream's next event.
func (s *session) send(msg []byte) { s.standalone.send(msg) }

// requestStream starts the resumable stream of a request.
func (s *session) requestStream() *eventStream {
	e := newEventStream(s)
	s.mu.Lock()
	if s.streams == nil {
		s.streams = map[string]*eventStream{}
	}
	s.streams[e.id] = e
	s.mu.Unlock()
	return e
}

// forgetStream drops a request's stream once it has ended.
func (s *session) forgetStream(e *eventStream) {
	s.mu.Lock()
	delete(s.streams, e.id)
	s.mu.Unlock()
}

// liveStream is the stream id names that is still going: the GET stream,
// or a request stream not yet answered; nil when there is none.
func (s *session) liveStream(id string) *eventStream {
	if id == s.standalone.id {
		return s.standalone
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id]
}

func (s *session) isGone() bool {
	select {
	case <-s.gone:
		return true
	default:
		return false
	}
}

// serveStream serves a GET stream that names no event (no Last-Event-ID):
// the notifications sent while no stream was open first, then the others,
// until the client leaves, the session ends or the handler closes (done).
func (s *session) serveStream(w http.ResponseWriter, reqCtx, done context.Context) {
	conn, err := s.standalone.attach(w, 0, true)
	if err != nil {
		writeError(w, http.StatusConflict, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, err.Error()))
		return
	}
	s.carry(s.standalone, conn, reqCtx, done)
}

// close ends the session and its streams' connections, and drops its
// events from the store, unless the store is shared (Options.Sessions).
func (s *session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.gone)
	s.mu.Unlock()
	s.mcp.Close()
	if s.h.opts.Sessions != nil {
		// The session goes on for the other replicas, and its events
		// with it, until the client ends it or it expires.
		return
	}
	if err := s.h.opts.Events.ForgetSession(context.Background(), s.id); err != nil {
		s.h.log.LogAttrs(context.Background(), slog.LevelWarn, "session's events not forgotten", slog.String("error", err.Error()))
	}
}
