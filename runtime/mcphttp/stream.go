package mcphttp

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// sseStream writes Server-Sent Events, one JSON-RPC message per "message"
// event, with the event's id when its stream is resumable. Writes from several goroutines are serialised; after close, or
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

// send writes one message as an event, with id unless it is ""; it reports
// false when the stream is closed or broken.
func (s *sseStream) send(id string, msg []byte) bool {
	var b bytes.Buffer
	b.WriteString("event: message\n")
	if id != "" {
		b.WriteString("id: ")
		b.WriteString(id)
		b.WriteByte('\n')
	}
	for _, line := range bytes.Split(msg, []byte{'\n'}) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return s.write(b.Bytes())
}

// prime writes an event with an id and no message, so that the client has
// an id to resume from before the first message (2025-11-25, SEP-1699),
// and, when retry is positive, the time it waits before reconnecting.
func (s *sseStream) prime(id string, retry time.Duration) bool {
	var b bytes.Buffer
	b.WriteString("id: ")
	b.WriteString(id)
	b.WriteByte('\n')
	if retry > 0 {
		b.WriteString("retry: ")
		b.WriteString(itoa(retry.Milliseconds()))
		b.WriteByte('\n')
	}
	b.WriteString("data: \n\n")
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
// when the client accepts only event streams. The stream of a
// handshake-era request is resumable (sess is set; see eventStream).
type reply struct {
	w         http.ResponseWriter
	acc       acceptance
	keepAlive time.Duration
	sess      *session

	mu       sync.Mutex
	stream   *sseStream   // the stream of a request that is not resumable
	events   *eventStream // the resumable stream, once started
	conn     *sseStream   // the response's own connection to events
	finished bool
	// status is what WriteAnswer answers with (set by serve).
	status int
	// length holds the Content-Length header's value, and lengthText its
	// digits: the header is set from the reply's own memory, without a
	// slice and a string of its own.
	length     [1]string
	lengthText [20]byte
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
	if r.sess != nil {
		e := r.eventsLocked()
		r.mu.Unlock()
		e.send(msg)
		return
	}
	if r.stream == nil {
		r.stream = startSSE(r.w, http.StatusOK, r.keepAlive)
	}
	s := r.stream
	r.mu.Unlock()
	s.send("", msg)
}

// eventsLocked is the request's resumable stream, started on the response
// when it is not yet.
func (r *reply) eventsLocked() *eventStream {
	if r.events == nil {
		r.events = r.sess.requestStream()
		r.conn, _ = r.events.attach(r.w, 0, false) // a new stream: nothing to replay
	}
	return r.events
}

// poll closes the response's connection while the request runs on, so
// that its client reconnects for the rest (SEP-1699): the stream is
// started first, primed with an event id to resume from. It reports false
// when the answer was given already, and then the response is being
// written or done.
func (r *reply) poll() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return false
	}
	r.eventsLocked().detach(r.conn)
	r.conn.close()
	return true
}

// jsonContentType is the Content-Type of a JSON answer, one slice for
// every response (Header.Set would make one a response). net/http only
// reads a header's values; nothing here changes them once set.
var jsonContentType = []string{"application/json"}

// serve serves in on sess, its answer written with status (WriteAnswer),
// or, when it has none (a cancelled request), the reply finished empty.
func (r *reply) serve(ctx context.Context, sess *mcp.Session, in *mcp.Incoming, status int) {
	r.status = status
	sess.ServeIncoming(ctx, in, r)
	r.finish(status, nil) // nothing when the answer was written
}

// WriteAnswer finishes the reply with a request's answer and r.status: the
// reply is the request's mcp.AnswerWriter (see Session.ServeIncoming). An
// early answer is flushed: the handler still runs on the goroutine whose
// return would otherwise send it.
func (r *reply) WriteAnswer(answer []byte, early bool) {
	if early {
		// The connection is the handler's until it returns: a client
		// that sent its next request on it would wait that long.
		r.mu.Lock()
		if !r.finished && r.stream == nil && r.events == nil {
			r.w.Header().Set("Connection", "close")
		}
		r.mu.Unlock()
	}
	r.finish(r.status, answer)
	if early {
		_ = http.NewResponseController(r.w).Flush()
	}
}

// finish writes the answer (nil when there is none: the request was
// cancelled, answered 204, or a batch answered nothing, answered 202 when
// status says so) and ends the response, or, once the response is closed
// for polling, the stream a client reconnects to.
//
// Only the first call writes: a request answered early (mcp.AnswerWriter)
// is finished again, with nothing, when it is done.
func (r *reply) finish(status int, out []byte) {
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return
	}
	r.finished = true
	if r.sess != nil && r.events == nil && !r.acc.json && out != nil {
		r.eventsLocked()
	}
	s, e := r.stream, r.events
	r.mu.Unlock()
	switch {
	case e != nil:
		e.end(out)
	case s != nil:
		if out != nil {
			s.send("", out)
		}
		s.close()
	case out == nil && status == http.StatusAccepted:
		r.w.WriteHeader(http.StatusAccepted)
	case out == nil:
		r.w.WriteHeader(http.StatusNoContent)
	case r.acc.json:
		// The length lets a client read an answer given early (see
		// WriteAnswer) before the response ends.
		h := r.w.Header()
		h["Content-Type"] = jsonContentType
		digits := strconv.AppendInt(r.lengthText[:0], int64(len(out)), 10)
		r.length[0] = unsafe.String(unsafe.SliceData(digits), len(digits))
		h["Content-Length"] = r.length[:] // Set would canonicalize the name again
		r.w.WriteHeader(status)
		_, _ = r.w.Write(out)
	default:
		s := startSSE(r.w, status, 0)
		s.send("", out)
		s.close()
	}
}
