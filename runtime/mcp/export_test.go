package mcp

import "time"

// SetClock makes s read the time from now when it seals and opens a
// requestState, so that a test can move past an expiry without waiting
// for it. Call it before s serves.
func SetClock(s *Server, now func() time.Time) { s.sealer.now = now }

// WatchedHandlers is what s's handlerWatch holds: the handlers it counts
// as running, and whether its timer is armed.
func WatchedHandlers(s *Server) (running int, armed bool) {
	s.handlers.mu.Lock()
	defer s.handlers.mu.Unlock()
	return len(s.handlers.running), s.handlers.armed
}
