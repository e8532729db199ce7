package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// ServeStream serves newline-delimited JSON-RPC read from r, answering on w:
// the stdio transport, and any other byte stream with the same framing.
// One session serves the whole stream, as principal p.
//
// Each line is one message; blank lines are skipped, and a line longer than
// Options.MaxMessageBytes is answered with -32600 (id null) and skipped.
// On a session of 2025-03-26 a line may also be a JSON-RPC batch, answered
// as Session.HandleBatch answers it, on one line.
// Messages are served in the order they are read, each by the goroutine
// that read it, so a pipelined initialize, notifications/initialized,
// tools/list works. A request other than initialize that runs longer than
// handOverAfter hands the reading on to another goroutine, so requests run
// concurrently: a slow handler holds up neither the requests behind it nor
// the notifications/cancelled meant for it. Every answer and notification
// is written whole, followed by "\n", under one mutex.
//
// A session has at most Options.MaxInFlight requests in flight: a request
// read at the bound waits, and the reading with it, until an answer has
// been written. A client that writes without reading thus holds the
// server to that many requests and their answers, and is held itself by
// its full pipe, rather than making the server keep every answer it has
// not read. Notifications and responses (a client's answer to sampling or
// elicitation) never wait for a place: a handler waiting for the client's
// answer does not keep the answer from being read, unless a request the
// client wrote before it waits for a place. subscriptions/listen holds
// its place while it is open.
//
// ServeStream returns nil at end of input, after every request in flight is
// answered (open subscriptions end with the stream, unanswered: the client
// is gone), or the context's error when ctx is done, or the first read or
// write error. When ctx is done the server shuts the stream down: it reads
// no further, answers every open subscriptions/listen (as Server.Close
// does), then cancels the requests still running, which are answered all
// the same, and returns once every answer is written. It does not close r
// or w; a read blocked in r when ctx is done is left to the caller, who
// owns r.
func (s *Server) ServeStream(ctx context.Context, r io.Reader, w io.Writer, p estate.Principal) error {
	// Requests run under a context of their own, cancelled after the
	// subscriptions are answered: cancelled with ctx, a listen could end
	// without its answer.
	reqCtx, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	out := newLineWriter(w, cancelRequests) // nothing can be answered once a write fails
	sess := s.NewSession(p, out.write)
	rd := &streamReader{
		srv: s, sess: sess, ctx: reqCtx, out: out,
		workers: newWorkers(),
		places:  make(chan struct{}, s.maxInFlight),
		br:      bufio.NewReaderSize(r, 64<<10),
		done:    make(chan error, 1),
	}
	defer rd.workers.close()
	rd.workers.run(rd)

	var err error
	shutdown := false
	select {
	case <-ctx.Done():
		err, shutdown = ctx.Err(), true
	case <-reqCtx.Done(): // a write failed
	case err = <-rd.done:
	}
	rd.mu.Lock()
	rd.stopped = true
	rd.mu.Unlock()
	if shutdown {
		sess.endSubscriptions(true)
		cancelRequests()
	}
	sess.Close() // subscriptions end with the stream, and none can open
	rd.inflight.Wait()
	out.close()
	if werr := out.err(); werr != nil {
		return werr
	}
	return err
}

// handOverAfter is how long a request runs on the goroutine that read it
// before another goroutine takes over the reading. Shorter requests, most
// of them, are served with no goroutine woken for them.
const handOverAfter = 50 * time.Microsecond

// streamReader is the reading of one stream. One goroutine at a time reads
// (see do); the others are serving requests they read before.
type streamReader struct {
	srv  *Server
	sess *Session
	ctx  context.Context
	out  *lineWriter
	done chan error // receives the reading's end: nil at end of input, or the read error
	// workers are the goroutines that take the reading over.
	workers *workers
	// places holds a token per request in flight, Options.MaxInFlight at
	// most: a request takes one before it starts and gives it back once
	// its answer is written.
	places chan struct{}

	// Only the goroutine reading touches these.
	br      *bufio.Reader
	readErr error // what the last read returned: the reading ends with it

	// Once stopped is set (under mu), no line is served, so inflight
	// counts every line that can still be answered.
	mu       sync.Mutex
	stopped  bool
	inflight sync.WaitGroup
}

// do reads and serves lines until the stream ends, or until a request it
// serves runs long enough for another goroutine to take over the reading.
func (rd *streamReader) do() {
	l := newLane(rd)
	for {
		if rd.readErr != nil {
			if errors.Is(rd.readErr, io.EOF) {
				rd.readErr = nil
			}
			rd.done <- rd.readErr
			return
		}
		var item line
		item, rd.readErr = readLine(rd.br, rd.srv.maxMessageBytes, l.line)
		if !item.tooLong && len(bytes.TrimSpace(item.data)) == 0 {
			continue
		}
		l.line = nil // the line's now, until it is known to be free again
		rd.mu.Lock()
		stopped := rd.stopped
		if !stopped {
			rd.inflight.Add(1)
		}
		rd.mu.Unlock()
		if stopped {
			rd.done <- nil
			return
		}
		if !rd.serve(item, l) {
			return // another goroutine reads now
		}
	}
}

// serve answers one line, counted in inflight. It reports whether this
// goroutine still does the reading.
func (rd *streamReader) serve(item line, l *lane) bool {
	s, sess := rd.srv, rd.sess
	if item.tooLong {
		rd.deliver(replyOf(jsonrpc.EncodeError(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"message exceeds the limit of "+strconv.Itoa(s.maxMessageBytes)+" bytes"))))
		return true
	}
	if jsonrpc.IsBatch(item.data) && sess.AcceptsBatches() {
		// A batch holds one place, and runs on a goroutine of its own so
		// that the reading goes on (a notifications/cancelled for one of
		// its members is read meanwhile); its members take places of
		// their own within it (Session.HandleBatch).
		if !rd.takePlace() {
			rd.deliver(replyOf(jsonrpc.EncodeError(jsonrpc.ID{}, errShuttingDown)))
			return true
		}
		go func() { (*placedSink)(rd).deliver(replyOf(sess.HandleBatch(rd.ctx, item.data))) }()
		return true
	}
	msg, rpcErr := jsonrpc.Decode(item.data)
	if rpcErr != nil {
		s.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
		rd.deliver(replyOf(jsonrpc.EncodeError(msg.ID, rpcErr))) // gate 1
		return true
	}
	if msg.IsRequest() && !rd.takePlace() {
		rd.deliver(replyOf(jsonrpc.EncodeError(msg.ID, errShuttingDown)))
		return true
	}
	now, f := sess.start(rd.ctx, msg, l.spare)
	if f == nil {
		if msg.IsRequest() {
			<-rd.places
		}
		rd.deliver(replyOf(now))
		return true
	}
	l.spare = nil
	f.sink = (*placedSink)(rd)
	if msg.Method == methodInitialize {
		// Served before anything read after it, however long it takes.
		f.do()
		return true
	}
	l.begin(f)
	f.do()
	if !l.end() {
		return false
	}
	// Served start to end here, with nothing watching it: nothing refers
	// to f or its line any more (a handler does not keep its Call, see
	// Handler), so the next request reuses them, and the memory a request
	// takes (a kilobyte, most of it the Call) stays warm.
	l.spare = f
	if cap(item.data) <= maxKeptBuffer {
		l.line = item.data[:0]
	}
	return true
}

// deliver writes an answer and counts its line done.
func (rd *streamReader) deliver(r reply) {
	rd.out.writeReply(r)
	rd.inflight.Done()
}

// takePlace waits for a place for one more request in flight (see
// ServeStream); it is false when the stream ends first.
func (rd *streamReader) takePlace() bool {
	select {
	case rd.places <- struct{}{}:
		return true
	default:
	}
	select {
	case rd.places <- struct{}{}:
		return true
	case <-rd.ctx.Done():
		return false
	}
}

// placedSink is where the answer of a request holding a place goes: it is
// written, and then the place is given back.
type placedSink streamReader

func (p *placedSink) deliver(r reply) {
	rd := (*streamReader)(p)
	rd.out.writeReply(r)
	<-rd.places
	rd.inflight.Done()
}

// errShuttingDown answers a request read while the server stops.
var errShuttingDown = jsonrpc.NewError(jsonrpc.CodeInternalError, "the server is shutting down")

// lane is a reading goroutine's watch over the request it serves. When
// the request runs for handOverAfter, the lane's timer has another
// goroutine take over the reading and then watches the request, so that
// it is answered early if its context ends while its handler runs (see
// inflight.watch). A request that ends sooner costs a timer reset and stop.
type lane struct {
	rd    *streamReader
	timer *time.Timer

	mu         sync.Mutex
	serving    *inflight // nil between requests
	handedOver bool      // the reading went to another goroutine

	// spare is a request this lane served and answered itself, and line
	// the buffer it was read into, for the next request to reuse. Only
	// the lane's goroutine touches them.
	spare *inflight
	line  []byte
}

func newLane(rd *streamReader) *lane {
	l := &lane{rd: rd}
	l.timer = time.AfterFunc(time.Hour, l.fire)
	l.timer.Stop()
	return l
}

func (l *lane) begin(f *inflight) {
	l.mu.Lock()
	l.serving = f
	l.mu.Unlock()
	l.timer.Reset(handOverAfter)
}

// end reports whether the goroutine still does the reading.
func (l *lane) end() bool {
	l.timer.Stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.serving = nil
	return !l.handedOver
}

func (l *lane) fire() {
	l.mu.Lock()
	f := l.serving
	if f == nil || l.handedOver {
		l.mu.Unlock()
		return
	}
	l.handedOver = true
	l.mu.Unlock()
	l.rd.workers.run(l.rd)
	f.watch()
}

// line is one framed message, or the mark of one that was too long.
type line struct {
	data    []byte
	tooLong bool
}

// readLine reads up to and without the next "\n" (a final line may lack
// it) into buf. A line longer than limit is consumed and reported as too
// long. A line that outgrows buf is gathered in pieces and copied once into
// a buffer of its length, so that reading it allocates twice its length
// in all: growing one buffer as the line arrives allocated three to five
// times (a geometric growth allocates up to its factor squared over the
// factor less one).
func readLine(br *bufio.Reader, limit int, buf []byte) (line, error) {
	buf = buf[:0]
	var pieces [][]byte
	n, tooLong := 0, false
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case tooLong:
		case n+len(chunk) > limit+1: // +1: the newline
			tooLong, buf, pieces = true, nil, nil
		case pieces == nil && (len(buf)+len(chunk) <= cap(buf) || len(buf) == 0 && err != bufio.ErrBufferFull):
			// It fits buf, or it is the whole line.
			buf = append(buf, chunk...)
		default:
			if pieces == nil && len(buf) > 0 {
				pieces = append(pieces, buf)
			}
			pieces = append(pieces, bytes.Clone(chunk)) // chunk is br's, overwritten by the next read
		}
		n += len(chunk)
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return line{tooLong: true}, err
		}
		if pieces != nil {
			buf = make([]byte, 0, n)
			for _, p := range pieces {
				buf = append(buf, p...)
			}
		}
		return line{data: bytes.TrimSuffix(buf, []byte{'\n'})}, err
	}
}

// lineWriter writes whole messages, one per line, under a mutex, through a
// buffer flushed after each message (so a small message and its newline
// are one write, without a copy allocated per message, and a large one
// goes through without being copied whole). After a write error it writes
// nothing more and calls failed; after close it writes nothing (a
// notification racing the end of the stream is dropped).
type lineWriter struct {
	mu     sync.Mutex
	bw     *bufio.Writer
	closed bool
	werr   error
	failed func()
}

func newLineWriter(w io.Writer, failed func()) *lineWriter {
	return &lineWriter{bw: bufio.NewWriterSize(w, 16<<10), failed: failed}
}

func (l *lineWriter) write(msg []byte) { l.writeReply(replyOf(msg)) }

// writeReply writes r's parts and the newline as one message.
func (l *lineWriter) writeReply(r reply) {
	if r.none() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.werr != nil {
		return
	}
	l.bw.Write(r.head)
	l.bw.Write(r.body)
	l.bw.Write(r.tail)
	l.bw.WriteByte('\n')
	if err := l.bw.Flush(); err != nil {
		l.werr = err
		l.failed()
	}
}

func (l *lineWriter) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

func (l *lineWriter) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.werr
}
