package mcphttp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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
	mcp       *mcp.Session
	gone      chan struct{} // closed when the session ends

	mu       sync.Mutex
	stream   *sseStream // the open GET stream, nil when none
	pending  [][]byte   // notifications sent while no stream was open
	lastUsed time.Time
	closed   bool
}

func (h *Handler) newSession(p estate.Principal) *session {
	s := &session{id: newSessionID(), principal: p, gone: make(chan struct{}), lastUsed: time.Now()}
	s.mcp = h.srv.NewSession(p, s.send)
	return s
}

// newSessionID returns 128 random bits in hex: visible ASCII, unguessable.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// register adds s to the table, after ending the sessions that expired.
// It is false once the handler is closed.
func (h *Handler) register(s *session) bool {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false
	}
	var expired []*session
	for id, old := range h.sessions {
		if old.expired(h.opts.SessionIdleTimeout) {
			delete(h.sessions, id)
			expired = append(expired, old)
		}
	}
	h.sessions[s.id] = s
	h.mu.Unlock()
	for _, old := range expired {
		old.close()
	}
	return true
}

// lookup finds the live session id names for principal p: nil when there
// is none, it expired, or it belongs to another principal.
func (h *Handler) lookup(id string, p estate.Principal) *session {
	h.mu.Lock()
	s := h.sessions[id]
	if s != nil && s.expired(h.opts.SessionIdleTimeout) {
		delete(h.sessions, id)
		h.mu.Unlock()
		s.close()
		return nil
	}
	h.mu.Unlock()
	if s == nil || !s.principal.SameAs(p) {
		return nil
	}
	s.mu.Lock()
	s.lastUsed = time.Now()
	s.mu.Unlock()
	return s
}

func (h *Handler) remove(s *session) {
	h.mu.Lock()
	if h.sessions[s.id] == s {
		delete(h.sessions, s.id)
	}
	h.mu.Unlock()
	s.close()
}

// expired reports whether s was unused for longer than idle with no stream
// open.
func (s *session) expired(idle time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stream == nil && time.Since(s.lastUsed) > idle
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
	s.lastUsed = time.Now()
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
