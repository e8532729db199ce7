package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// SessionStore keeps handshake-era sessions where every replica behind a
// load balancer reads them (Options.Sessions; package fleet has one in
// memory and one in Redis). A record is opaque to the store.
type SessionStore interface {
	// SaveSession keeps record under id for ttl from now.
	SaveSession(ctx context.Context, id string, record []byte, ttl time.Duration) error
	// LoadSession returns id's record, nil when there is none, and keeps
	// it for ttl from now.
	LoadSession(ctx context.Context, id string, ttl time.Duration) ([]byte, error)
	// DeleteSession forgets id.
	DeleteSession(ctx context.Context, id string) error
}

// sharedRecord is what a shared store keeps of a session: the principal it
// is bound to and the state a replica resumes it in.
type sharedRecord struct {
	Principal estate.Principal `json:"principal"`
	State     mcp.SessionState `json:"state"`
}

// errStoreUnreadable answers a request on a session the shared store
// could not be asked about: whether the session exists, and in what
// state, is unknown, and guessing would answer against a state that is
// not the session's.
var errStoreUnreadable = errors.New("the shared session store cannot be read: retry")

// storeTimeout bounds one call to the shared store on a request's path;
// the store's own timeouts are usually shorter.
const storeTimeout = 2 * time.Second

// share writes s's state to the shared store when it changed since it
// was last read or written there. A handler with no shared store shares
// nothing.
func (h *Handler) share(ctx context.Context, s *session) error {
	if h.opts.Sessions == nil {
		return nil
	}
	st := s.mcp.State()
	s.mu.Lock()
	same := st.Equal(s.shared)
	s.mu.Unlock()
	if same {
		return nil
	}
	data, err := json.Marshal(sharedRecord{Principal: s.principal, State: st})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if err := h.opts.Sessions.SaveSession(ctx, s.id, data, h.opts.SessionIdleTimeout); err != nil {
		h.log.LogAttrs(ctx, slog.LevelWarn, "session not shared", slog.String("error", err.Error()))
		return err
	}
	s.mu.Lock()
	s.shared, s.sharedRaw = st, data
	s.mu.Unlock()
	return nil
}

// fromStore is the session id names for p as the shared store has it,
// read on every request so that no replica serves a session in a state
// another replica changed, nor one the client ended elsewhere; the read
// also keeps the record for SessionIdleTimeout more. local is the
// session this handler holds, if any: it is brought to the record's
// state, or let go when the store holds none. Without a local one, the
// session is resumed from the record. It returns nil when the store
// holds no session of p's under id, and errStoreUnreadable when the
// store could not be read.
func (h *Handler) fromStore(ctx context.Context, id string, p estate.Principal, local *session) (*session, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	data, err := h.opts.Sessions.LoadSession(ctx, id, h.opts.SessionIdleTimeout)
	if err != nil {
		h.log.LogAttrs(ctx, slog.LevelWarn, "session store unreadable", slog.String("error", err.Error()))
		return nil, errStoreUnreadable
	}
	if local != nil && bytes.Equal(data, local.sharedRaw) {
		// The record this replica last read or wrote, unchanged: local
		// is in its state, and lookup checked its principal.
		return local, nil
	}
	var rec sharedRecord
	if data == nil || json.Unmarshal(data, &rec) != nil || !rec.Principal.SameAs(p) {
		// Ended, expired, or another principal's: no session of p's.
		if local != nil {
			h.remove(local)
		}
		return nil, nil
	}
	if local != nil {
		local.mu.Lock()
		changed := !rec.State.Equal(local.shared)
		local.shared, local.sharedRaw = rec.State, data
		local.mu.Unlock()
		if changed {
			local.mcp.SetState(rec.State)
		}
		return local, nil
	}
	s := &session{h: h, id: id, principal: rec.Principal, caller: callerKey(rec.Principal), gone: make(chan struct{})}
	s.standalone = newEventStream(s)
	s.mcp = h.srv.ResumeSession(rec.Principal, s.send, rec.State)
	s.shared, s.sharedRaw = rec.State, data
	return h.adopt(s)
}

// adopt registers s, a session resumed from the shared store, unless a
// request racing this one registered it first: then that one is
// returned and s is closed. A full table lets its least recently used
// session go to make room (MaxSessions bounds a replica's memory; the
// fleet's sessions are bounded by the store).
func (h *Handler) adopt(s *session) (*session, error) {
	err := h.register(s)
	if errors.Is(err, errTooManyTotal) && h.evictOldest() {
		err = h.register(s)
	}
	if !errors.Is(err, errHeld) {
		if err != nil {
			s.close()
			return nil, err
		}
		return s, nil
	}
	s.close()
	h.mu.Lock()
	held := h.sessions.byID[s.id]
	h.mu.Unlock()
	return held, nil
}

// evictOldest lets go of the least recently used session this handler
// holds, to make room for one resumed from the shared store: with a
// shared store the table is a cache of the fleet's sessions, and one let
// go here is read again from the store when its client comes back. It
// reports whether there was one.
func (h *Handler) evictOldest() bool {
	h.mu.Lock()
	e := h.sessions.lru.Back()
	if e == nil {
		h.mu.Unlock()
		return false
	}
	s := e.Value.(*session)
	h.removeLocked(s)
	h.mu.Unlock()
	s.close()
	return true
}

// unshare forgets a session the client ended (DELETE) in the shared
// store, and its events; a session a replica only lets go (idle, or
// shutting down) stays for the others.
func (h *Handler) unshare(s *session) {
	if h.opts.Sessions == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := h.opts.Sessions.DeleteSession(ctx, s.id); err != nil {
		h.log.LogAttrs(ctx, slog.LevelWarn, "shared session not forgotten", slog.String("error", err.Error()))
	}
	if err := h.opts.Events.ForgetSession(ctx, s.id); err != nil {
		h.log.LogAttrs(ctx, slog.LevelWarn, "session's events not forgotten", slog.String("error", err.Error()))
	}
}
