package mcphttp

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// maxPending bounds the notifications a session keeps while no GET stream
// is open. They are list-change notifications, each meaning "list again",
// so the oldest can go.
const maxPending = 16

// session is a handshake-era session: the mcp.Session, the principal it is
// bound to, and the notification stream its client may have open.
type session struct {
	id        string
	principal estate.Principal
	caller    string // callerKey(principal)
	mcp       *mcp.Session
	gone      chan struct{} // closed when the session ends

	// Under Handler.mu: when the session was last used, and its places in
	// the table's lists.
	lastUsed   time.Time
	inTable    *list.Element
	inCaller   *list.Element
	registered bool

	mu      sync.Mutex
	stream  *sseStream // the open GET stream, nil when none
	pending [][]byte   // notifications sent while no stream was open
	closed  bool
}

// sessionTable holds the handshake-era sessions under Handler.mu: by id;
// in order of last use, so that the session to expire next is the last of
// the list, whatever the number of sessions; and per caller, so that one
// caller's sessions can be bounded without counting the others'. Every
// operation on it is O(1) in the number of sessions.
type sessionTable struct {
	byID     map[string]*session
	lru      list.List             // of *session, most recently used first
	byCaller map[string]*list.List // of *session per caller, the same order
	// expiry fires when the least recently used session goes idle for
	// SessionIdleTimeout; armed says it is pending.
	expiry *time.Timer
	armed  bool
}

// callerKey is who a session counts against: the agent and its tenant.
// A caller with other scopes or another clearance is still that caller.
func callerKey(p estate.Principal) string { return p.Tenant + "\x00" + p.AgentID }

func (h *Handler) newSession(p estate.Principal) *session {
	s := &session{id: newSessionID(), principal: p, caller: callerKey(p), gone: make(chan struct{})}
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
	s.lastUsed = time.Now()
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
	if time.Since(s.lastUsed) > h.opts.SessionIdleTimeout {
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
	s.lastUsed = time.Now()
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
	idle := h.opts.SessionIdleTimeout
	var expired []*session
	for e := t.lru.Back(); e != nil; e = t.lru.Back() {
		s := e.Value.(*session)
		if wait := idle - time.Since(s.lastUsed); wait > 0 {
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

// send is the mcp.Session's send function: to the open stream, or kept for
// the next one.
func (s *session) send(msg []byte) {
	s.mu.Lock()
	st := s.stream
	if st == nil {
		if !s.closed {
			if len(s.pending) == maxPending {
				s.pending = s.pending[1:]
			}
			s.pending = append(s.pending, msg)
		}
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	st.send(msg)
}

// serveStream serves the session's GET stream until the client leaves, the
// session ends or the handler closes (done).
func (s *session) serveStream(w http.ResponseWriter, reqCtx, done context.Context, keepAlive time.Duration) {
	s.mu.Lock()
	if s.closed || s.stream != nil {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the session already has a notification stream open"))
		return
	}
	st := startSSE(w, http.StatusOK, keepAlive)
	// Pending notifications go out before the stream is published, so
	// that none overtakes them.
	for _, msg := range s.pending {
		st.send(msg)
	}
	s.pending = nil
	s.stream = st
	s.mu.Unlock()

	select {
	case <-reqCtx.Done():
	case <-done.Done():
	case <-s.gone:
	case <-st.stop: // the client stopped reading
	}
	s.mu.Lock()
	if s.stream == st {
		s.stream = nil
	}
	s.mu.Unlock()
	st.close()
}

// close ends the session and its stream.
func (s *session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.pending = nil
	close(s.gone)
	s.mu.Unlock()
	s.mcp.Close()
}
