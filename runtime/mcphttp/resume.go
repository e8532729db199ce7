package mcphttp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// HeaderLastEventID is the header a client resuming a stream names the
// last event it received in (the SSE standard's).
const HeaderLastEventID = "Last-Event-ID"

// lastEventIDKey is HeaderLastEventID as net/http keys a request's
// Header: canonical, the form header reads (see header).
const lastEventIDKey = "Last-Event-Id"

// DefaultPollRetry is how long a client is told to wait before it
// reconnects to a stream the server closed (Options.PollRetry).
const DefaultPollRetry = time.Second

// eventStream is a resumable stream of a handshake-era session: the
// session's GET stream, or the stream of one POST request, which ends with
// the request's answer. Every event is kept in the handler's store
// (Options.Events) at its position, then written to the connection
// attached, if any, with an id naming the stream and the position. A
// connection that breaks, or that the server closes to have the client
// poll (Options.PollAfter), leaves the stream going: a GET naming one of
// its events in Last-Event-ID attaches another connection once what
// followed that event is replayed on it.
type eventStream struct {
	sess *session
	// id names the stream in its events' ids: random, so that an id of
	// another session's stream names none of this one's.
	id string

	mu      sync.Mutex
	conn    *sseStream    // the connection attached, nil when none
	pos     uint64        // the position of the last event, 0 before any
	written uint64        // the last event written to a connection
	ended   bool          // the request's answer was the last event
	done    chan struct{} // closed when ended
}

func newEventStream(s *session) *eventStream {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &eventStream{sess: s, id: hex.EncodeToString(b[:]), done: make(chan struct{})}
}

// eventID is the SSE id of the event at pos of stream: opaque to the
// client, unique within the session.
func eventID(stream string, pos uint64) string {
	return stream + "-" + strconv.FormatUint(pos, 10)
}

// parseEventID undoes eventID.
func parseEventID(id string) (stream string, pos uint64, ok bool) {
	stream, p, ok := strings.Cut(id, "-")
	if !ok || stream == "" {
		return "", 0, false
	}
	pos, err := strconv.ParseUint(p, 10, 64)
	return stream, pos, err == nil
}

// send adds msg as the stream's next event; it reports false once the
// stream has ended.
func (e *eventStream) send(msg []byte) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		return false
	}
	e.addLocked(msg)
	return true
}

// addLocked keeps msg as the next event and writes it to the connection
// attached. A session that has ended keeps nothing: its store entries are
// gone, and no client can resume it.
func (e *eventStream) addLocked(msg []byte) {
	e.pos++
	if !e.sess.isGone() {
		if err := e.sess.h.opts.Events.Append(context.Background(), e.sess.id, e.id, e.pos, msg); err != nil {
			e.sess.h.log.LogAttrs(context.Background(), slog.LevelWarn, "event not kept for replay", slog.String("error", err.Error()))
		}
	}
	if e.conn == nil {
		return
	}
	if e.conn.send(eventID(e.id, e.pos), msg) {
		e.written = e.pos
	} else {
		e.conn = nil
	}
}

// end adds the request's answer (none when out is nil: the request was
// cancelled) as the stream's last event, and closes the connection
// attached. The session forgets the stream; the store keeps its events for
// a client that reconnects to get the answer.
func (e *eventStream) end(out []byte) {
	e.mu.Lock()
	if e.ended {
		e.mu.Unlock()
		return
	}
	if out != nil {
		e.addLocked(out)
	}
	e.ended = true
	close(e.done)
	conn := e.conn
	e.conn = nil
	e.mu.Unlock()
	e.sess.forgetStream(e)
	if conn != nil {
		conn.close()
	}
}

// errStreamOpen refuses a second GET stream without Last-Event-ID.
var errStreamOpen = errors.New("the session already has a notification stream open")

// attach starts an event stream on w, replays the events after position
// after, and attaches the connection, in place of any other: a client that
// resumes has given the other up. A 2025-11-25 session gets a priming event
// first (see sseStream.prime). Nothing is written when the replay cannot
// be whole: the error is eventstore.ErrDropped or ErrUnknown then. With
// fresh, the client named no event: after is what was last written to a
// connection, what the store no longer holds of the rest is skipped, and a
// connection already attached is errStreamOpen. The connection returned is
// nil on error; it is attached unless the stream has ended.
func (e *eventStream) attach(w http.ResponseWriter, after uint64, fresh bool) (*sseStream, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if fresh {
		if e.conn != nil {
			return nil, errStreamOpen
		}
		after = e.written
	}
	if after > e.pos {
		return nil, eventstore.ErrUnknown
	}
	var replay []eventstore.Event
	if after < e.pos {
		var err error
		replay, err = e.sess.h.opts.Events.After(context.Background(), e.sess.id, e.id, after)
		if err != nil && !fresh {
			return nil, err
		}
	}
	conn := e.sess.startStream(w, eventID(e.id, after))
	for _, ev := range replay {
		if !conn.send(eventID(e.id, ev.Pos), ev.Data) {
			break
		}
		e.written = max(e.written, ev.Pos)
	}
	if !e.ended {
		if e.conn != nil {
			e.conn.close()
		}
		e.conn = conn
	}
	return conn, nil
}

// detach takes conn off the stream, if it is still attached.
func (e *eventStream) detach(conn *sseStream) {
	e.mu.Lock()
	if e.conn == conn {
		e.conn = nil
	}
	e.mu.Unlock()
}

// startStream starts an event stream on w, primed with the event id
// primeID on a 2025-11-25 session (with the retry when the server may
// close it, Options.PollAfter).
func (s *session) startStream(w http.ResponseWriter, primeID string) *sseStream {
	conn := startSSE(w, http.StatusOK, s.h.opts.KeepAlive)
	if s.mcp.Revision().StreamPolling() {
		var retry time.Duration
		if s.h.opts.PollAfter > 0 {
			retry = s.h.opts.PollRetry
		}
		conn.prime(primeID, retry)
	}
	return conn
}

// polls reports whether the server closes the connections of the
// session's request streams after Options.PollAfter.
func (s *session) polls() bool {
	return s.h.opts.PollAfter > 0 && s.mcp.Revision().StreamPolling()
}

// resume serves a GET naming the last event its client received
// (lastID): the rest of that event's stream is replayed, and then, when
// the stream goes on, the connection carries it until the client leaves,
// the session or the handler ends (done), or a request's stream ends with
// its answer. The server closes a request's own response for polling, not
// the connection a client comes back on, as the SDKs' servers do: a
// client that reconnects once gets the answer, however long it takes. An id that names no event of
// this session's streams is answered 400; one whose events after it are no
// longer kept, 410.
func (s *session) resume(w http.ResponseWriter, reqCtx, done context.Context, lastID string) {
	stream, pos, ok := parseEventID(lastID)
	if !ok {
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "the "+HeaderLastEventID+" header "+quote(lastID)+" is not an event id of this server"))
		return
	}
	es := s.liveStream(stream)
	if es == nil {
		// The stream's request was answered: what is left of it is in
		// the store.
		s.replayEnded(w, stream, pos, lastID)
		return
	}
	conn, err := es.attach(w, pos, false)
	if err != nil {
		refuseResume(w, lastID, err)
		return
	}
	s.carry(es, conn, reqCtx, done)
}

// carry keeps conn attached to e until the client leaves, the session or
// the handler ends (done), another connection takes e over, or e, a
// request's stream, ends with its answer; then it takes conn off and ends
// the response.
func (s *session) carry(e *eventStream, conn *sseStream, reqCtx, done context.Context) {
	select {
	case <-reqCtx.Done():
	case <-done.Done():
	case <-s.gone:
	case <-conn.stop: // the client stopped reading, or resumed on another connection
	case <-e.done:
	}
	e.detach(conn)
	conn.close()
}

// replayEnded replays the events after pos of a request's stream that has
// ended, the answer last, and ends the response.
func (s *session) replayEnded(w http.ResponseWriter, stream string, pos uint64, lastID string) {
	replay, err := s.h.opts.Events.After(context.Background(), s.id, stream, pos)
	if err != nil {
		refuseResume(w, lastID, err)
		return
	}
	conn := s.startStream(w, lastID)
	for _, ev := range replay {
		if !conn.send(eventID(stream, ev.Pos), ev.Data) {
			break
		}
	}
	conn.close()
}

// refuseResume answers a GET whose Last-Event-ID cannot be resumed from.
func refuseResume(w http.ResponseWriter, lastID string, err error) {
	if errors.Is(err, eventstore.ErrDropped) {
		writeError(w, http.StatusGone, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"the events after "+HeaderLastEventID+" "+quote(lastID)+" are no longer kept: the stream cannot be resumed"))
		return
	}
	writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
		"the "+HeaderLastEventID+" header "+quote(lastID)+" names no event of this session's streams"))
}
