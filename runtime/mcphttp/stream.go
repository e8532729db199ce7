package mcphttp

import (
	"bytes"
	"net/http"
	"sync"
	"time"
)

// sseStream writes Server-Sent Events, one JSON-RPC message per "message"
// event. Writes from several goroutines are serialised; after close, or
// after a write fails, nothing more is written, so a message racing the end
// of the handler never touches a finished response.
type sseStream struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	rc     *http.ResponseController
	closed bool
	stop   chan struct{}
}

// startSSE sends the stream's headers. A long-lived stream must outlive a
// write timeout of the http.Server, so it is lifted for this response.
// With keepAlive > 0 a comment line goes out at that interval.
func startSSE(w http.ResponseWriter, status int, keepAlive time.Duration) *sseStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no")
	s := &sseStream{w: w, rc: http.NewResponseController(w), stop: make(chan struct{})}
	_ = s.rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(status)
	_ = s.rc.Flush()
	if keepAlive > 0 {
		go s.keepAlive(keepAlive)
	}
	return s
}

// send writes one message as an event; it reports false when the stream is
// closed or broken.
func (s *sseStream) send(msg []byte) bool {
	var b bytes.Buffer
	b.WriteString("event: message\n")
	for _, line := range bytes.Split(msg, []byte{'\n'}) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return s.write(b.Bytes())
}

func (s *sseStream) write(b []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if _, err := s.w.Write(b); err != nil {
		s.closeLocked()
		return false
	}
	if err := s.rc.Flush(); err != nil {
		s.closeLocked()
		return false
	}
	return true
}

func (s *sseStream) keepAlive(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if !s.write([]byte(": keep-alive\n\n")) {
				return
			}
		}
	}
}

// close ends the stream; it returns once no write is in progress.
func (s *sseStream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

func (s *sseStream) closeLocked() {
	if !s.closed {
		s.closed = true
		close(s.stop)
	}
}

// reply answers one POST request: JSON by default, or an event stream as
// soon as the session has a message to send before the answer (push), or
// when the client accepts only event streams.
type reply struct {
	w         http.ResponseWriter
	acc       acceptance
	keepAlive time.Duration

	mu       sync.Mutex
	stream   *sseStream
	finished bool
}

func newReply(w http.ResponseWriter, acc acceptance, keepAlive time.Duration) *reply {
	return &reply{w: w, acc: acc, keepAlive: keepAlive}
}

// push sends a server-initiated message ahead of the answer, turning the
// reply into a stream. It is the send function of a request's own session;
// a client that does not accept streams gets no such message.
func (r *reply) push(msg []byte) {
	r.mu.Lock()
	if r.finished || !r.acc.sse {
		r.mu.Unlock()
		return
	}
	if r.stream == nil {
		r.stream = startSSE(r.w, http.StatusOK, r.keepAlive)
	}
	s := r.stream
	r.mu.Unlock()
	s.send(msg)
}

// finish writes the answer (nil when there is none: the request was
// cancelled, answered 204, or a batch answered nothing, answered 202 when
// status says so) and ends the response.
func (r *reply) finish(status int, out []byte) {
	r.mu.Lock()
	r.finished = true
	s := r.stream
	r.mu.Unlock()
	switch {
	case s != nil:
		if out != nil {
			s.send(out)
		}
		s.close()
	case out == nil && status == http.StatusAccepted:
		r.w.WriteHeader(http.StatusAccepted)
	case out == nil:
		r.w.WriteHeader(http.StatusNoContent)
	case r.acc.json:
		r.w.Header().Set("Content-Type", "application/json")
		r.w.WriteHeader(status)
		_, _ = r.w.Write(out)
	default:
		s := startSSE(r.w, status, 0)
		s.send(out)
		s.close()
	}
}
