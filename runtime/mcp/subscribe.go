package mcp

import (
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// subscribe serves resources/subscribe (handshake era): the session is told
// with notifications/resources/updated when the resource at uri changes
// (Server.NotifyResourceUpdated). uri must be one the caller may read, a
// fixed resource or a member of a template; any other is answered exactly
// as resources/read answers it.
func (s *Session) subscribe(r *request) (any, *jsonrpc.Error) {
	uri, ok := r.params.str("uri")
	if !ok {
		return nil, invalidParams("uri is required and must be a string")
	}
	if rs, t, _ := s.srv.findResource(s.principal.Tenant, uri); rs == nil && t == nil {
		return nil, unknownResource(uri)
	}
	s.mu.Lock()
	if !s.closed {
		s.srv.registerLocked(s) // NotifyResourceUpdated reaches it through the server
	}
	s.mu.Unlock()
	s.peer.mu.Lock()
	if s.peer.watching == nil {
		s.peer.watching = map[string]bool{}
	}
	s.peer.watching[uri] = true
	s.peer.mu.Unlock()
	res := &emptyResult{}
	s.srv.finish(r.rev, &res.common, "")
	return res, nil
}

// unsubscribe serves resources/unsubscribe. Ending a subscription that
// does not exist succeeds: the client's wish (no notifications for uri)
// holds either way.
func (s *Session) unsubscribe(r *request) (any, *jsonrpc.Error) {
	uri, ok := r.params.str("uri")
	if !ok {
		return nil, invalidParams("uri is required and must be a string")
	}
	s.peer.mu.Lock()
	delete(s.peer.watching, uri)
	s.peer.mu.Unlock()
	res := &emptyResult{}
	s.srv.finish(r.rev, &res.common, "")
	return res, nil
}

// NotifyResourceUpdated tells every session subscribed to uri that the
// resource changed (notifications/resources/updated), so that it reads it
// again. Call it after the contents a Resource.Read or a template's Read
// returns have changed. Each session is notified from a goroutine of its
// own, as for tool list changes: a slow client holds up no one.
func (s *Server) NotifyResourceUpdated(uri string) {
	s.mu.Lock()
	sessions := s.liveSessionsLocked()
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.peer.mu.Lock()
		watching := sess.peer.watching[uri]
		sess.peer.mu.Unlock()
		if watching {
			go sess.resourceUpdated(uri)
		}
	}
}

func (s *Session) resourceUpdated(uri string) {
	if s.send == nil {
		return
	}
	msg, err := jsonrpc.EncodeNotification(notificationResourceUpdated, map[string]string{"uri": uri})
	if err != nil {
		return
	}
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		s.send(msg)
	}
}
