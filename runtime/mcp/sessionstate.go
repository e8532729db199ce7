package mcp

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// SessionState is what a handshake-era session knows of its client
// between requests: the revision its initialize negotiated, whether the
// client said it is initialized, the capabilities it declared, the log
// level it asked for, and the resources it subscribed to. It is what a
// transport keeps where every replica reads it, so that a session opened
// on one process is served on another (ResumeSession). Requests in flight
// and open streams are not part of it: they belong to the connection
// that carries them.
type SessionState struct {
	Revision           Revision        `json:"revision"`
	Initialized        bool            `json:"initialized,omitempty"`
	ClientCapabilities json.RawMessage `json:"capabilities,omitempty"`
	LogLevel           LogLevel        `json:"logLevel,omitempty"`
	// Watching lists the URIs of resources/subscribe, sorted.
	Watching []string `json:"watching,omitempty"`
}

// Equal reports whether st and o are the same state.
func (st SessionState) Equal(o SessionState) bool {
	return st.Revision == o.Revision && st.Initialized == o.Initialized && st.LogLevel == o.LogLevel &&
		bytes.Equal(st.ClientCapabilities, o.ClientCapabilities) && slices.Equal(st.Watching, o.Watching)
}

// State returns the session's state now.
func (s *Session) State() SessionState {
	h := s.handshake.Load()
	st := SessionState{Revision: h.revision, Initialized: h.initialized, ClientCapabilities: h.clientCaps}
	s.peer.mu.Lock()
	st.LogLevel = s.peer.logLevel
	st.Watching = slices.Sorted(maps.Keys(s.peer.watching))
	s.peer.mu.Unlock()
	return st
}

// ResumeSession is NewSession for a session whose handshake happened
// elsewhere: it starts in st, as if its initialize, notifications/
// initialized, logging/setLevel and resources/subscribe had been served
// here. The caller vouches that st is the state of a session p opened.
func (s *Server) ResumeSession(p estate.Principal, send func(msg []byte), st SessionState) *Session {
	sess := s.NewSession(p, send)
	sess.SetState(st)
	return sess
}

// SetState puts the session in st: what another process serving the same
// session changed (its log level, its subscriptions) holds here too.
func (s *Session) SetState(st SessionState) {
	s.mu.Lock()
	s.handshake.Store(&handshakeSeen{revision: st.Revision, initialized: st.Initialized, clientCaps: bytes.Clone(st.ClientCapabilities)})
	s.mu.Unlock()
	s.peer.mu.Lock()
	s.peer.logLevel = st.LogLevel
	s.peer.watching = nil
	if len(st.Watching) > 0 {
		s.peer.watching = make(map[string]bool, len(st.Watching))
		for _, uri := range st.Watching {
			s.peer.watching[uri] = true
		}
	}
	s.peer.mu.Unlock()
}
