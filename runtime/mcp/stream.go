package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
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
// Messages are started in the order they are read (a notification's
// effect reaches every request read after it), so a pipelined initialize,
// notifications/initialized, tools/list works. One request in flight is
// read, started and run by one goroutine; when a client writes ahead,
// the requests read are run by that goroutine and by a helper per other
// core (see streamReader). A request other than initialize that runs
// longer than handOverAfter hands its goroutine's role on to another
// goroutine, so requests run concurrently: a slow handler holds up
// neither the requests behind it nor the notifications/cancelled meant
// for it. Every answer and notification is written whole, followed by
// "\n"; answers given while another is being written are written together
// with the next write (see lineWriter).
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
	// A request's own context does not hang from reqCtx, so that the
	// requests started on one core and answered on the other do not take
	// reqCtx's lock each (see Session.endRequests): cancelRequests
	// cancels them through their session.
	reqCtx, cancelStream := context.WithCancel(context.WithoutCancel(ctx))
	var sess *Session
	cancelRequests := func() {
		cancelStream()
		sess.endRequests()
	}
	places := make(chan struct{}, s.maxInFlight)
	// Nothing can be answered once a write fails; a place is given back
	// once its answer is written.
	out := newLineWriter(w, cancelRequests, func(n int) {
		for range n {
			<-places
		}
	})
	sess = s.NewSession(p, out.write)
	defer cancelRequests()
	rd := &streamReader{
		srv: s, sess: sess, ctx: reqCtx, reqBase: context.WithoutCancel(reqCtx), out: out,
		workers: newWorkers(),
		places:  places,
		br:      bufio.NewReaderSize(r, 64<<10),
		done:    make(chan error, 1),

		maxHelpers: runtime.GOMAXPROCS(0) - 1,
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

// monoEpoch is the origin of the readings sinceEpoch makes, which a lane
// and the handler watch keep of when a request or handler began.
var monoEpoch = time.Now()

// sinceEpoch reads the monotonic clock alone: time.Since of a time that
// has a monotonic reading does not read the wall clock.
func sinceEpoch() time.Duration { return time.Since(monoEpoch) }

// streamReader is the reading of one stream. One goroutine at a time reads
// (see do); the others are serving requests they read before.
//
// Requests are started in reading order (Session.start: the gates that
// need no work, and a notification's effect, which thus reaches every
// request read after it) and then queued to run. The reader runs the queue
// itself whenever no whole line waits to be read, so one request in flight
// is read, started and run by one goroutine, with nobody woken. When more
// lines wait behind a request (a client writing ahead), the reader goes on
// reading and starting them and wakes a helper, one per core beyond the
// reader's, which runs the queue meanwhile: one wake-up per burst of
// lines, not per request, which would cost more than a call (a helper that
// emptied the queue waits helperLinger for more before it stops). A request
// meets the handshake's gate as the handshake stood when it was started,
// however late it runs (see inflight.seen); initialize itself runs before
// anything read after it.
type streamReader struct {
	srv  *Server
	sess *Session
	ctx  context.Context // the stream's: done when the stream ends
	// reqBase is what requests' contexts derive from: ctx's values, none
	// of its cancellation (ServeStream cancels requests itself).
	reqBase context.Context
	out     *lineWriter
	done    chan error // receives the reading's end: nil at end of input, or the read error
	// workers are the goroutines that take the reading over, and the
	// helpers that run the queue.
	workers *workers
	// places holds a token per request in flight, Options.MaxInFlight at
	// most: a request takes one before it starts and gives it back once
	// its answer is written.
	places chan struct{}
	// maxHelpers is how many goroutines besides the reader run queued
	// requests at once: one per core beyond the reader's.
	maxHelpers int

	// Only the goroutine reading touches these.
	br      *bufio.Reader
	readErr error // what the last read returned: the reading ends with it
	// stash are spares (see spares) for the reading alone: the requests
	// it served itself, and the spares it took in one batch, so that it
	// takes the lock for spares once a batch rather than once a line.
	stash []queued

	// Once stopped is set (under mu), no line is served, so inflight
	// counts every line that can still be answered.
	mu       sync.Mutex
	stopped  bool
	inflight sync.WaitGroup

	qmu     sync.Mutex
	queue   []queued     // started and waiting to run, in reading order, from head
	head    int          // queue[head] runs next
	queued  atomic.Int32 // len(queue)-head, read without qmu by a lingering helper
	helpers int          // goroutines running the queue besides the reader
	// spares are requests served start to end and the lines they were
	// read into: nothing refers to them any more (a handler does not keep
	// its Call, see Handler), so the next requests reuse them, and the
	// memory a request takes (a kilobyte, most of it the Call) stays warm.
	spares []queued
}

// queued is a started request and the line it was read into (its Call's
// Raw aliases the line, so the line is not reused before the request ends).
type queued struct {
	f    *inflight
	line []byte
}

// errStopped ends the reading when the server stops: the line read is
// not served, and the reading ends with nil.
var errStopped = errors.New("stopped")

// do reads, starts and runs requests until the stream ends, or until a
// request it runs runs long enough for another goroutine to take over the
// reading.
func (rd *streamReader) do() {
	l := newLane(rd, rd)
	for {
		// A line waiting is read first, so that a helper has requests to
		// run, unless every place is taken: the request it may be would
		// wait for one, and the reader has requests of its own to run
		// meanwhile (waiting, it would be woken for every answer written).
		if rd.lineWaiting() && len(rd.places) < cap(rd.places) {
			rd.readOne()
			continue
		}
		if q, ok := rd.popShare(); ok {
			if !rd.runOn(l, q) {
				return // another goroutine reads now
			}
			continue
		}
		if rd.readErr != nil {
			err := rd.readErr
			if errors.Is(err, io.EOF) || err == errStopped {
				err = nil
			}
			rd.done <- err
			return
		}
		rd.readOne() // blocks until a line comes
	}
}

// lineWaiting reports whether a whole line is buffered: reading it does
// not block.
func (rd *streamReader) lineWaiting() bool {
	n := rd.br.Buffered()
	if n == 0 || rd.readErr != nil {
		return false
	}
	b, _ := rd.br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// readOne reads the next line and serves it: answers it now, or starts it
// and queues it.
func (rd *streamReader) readOne() {
	spare := rd.takeSpare()
	var item line
	item, rd.readErr = readLine(rd.br, rd.srv.maxMessageBytes, spare.line)
	if !item.tooLong && len(bytes.TrimSpace(item.data)) == 0 {
		rd.keepSpare(queued{f: spare.f, line: item.data})
		return
	}
	rd.mu.Lock()
	stopped := rd.stopped
	if !stopped {
		rd.inflight.Add(1)
	}
	rd.mu.Unlock()
	if stopped {
		rd.readErr = errStopped
		return
	}
	if !rd.serve(item, spare.f) && spare.f != nil {
		// The request memory was not needed (a notification, a response,
		// an answer given at once); the line may be, by what was read
		// from it (a response's result, a batch), so it is not kept.
		rd.keepSpare(queued{f: spare.f})
	}
}

// serve answers one line, counted in inflight, or starts it and queues
// it; it reports whether it started a request, in spare when that was not
// nil.
func (rd *streamReader) serve(item line, spare *inflight) (started bool) {
	s, sess := rd.srv, rd.sess
	if item.tooLong {
		rd.deliver(replyOf(jsonrpc.EncodeError(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"message exceeds the limit of "+strconv.Itoa(s.maxMessageBytes)+" bytes"))))
		return false
	}
	if jsonrpc.IsBatch(item.data) && sess.AcceptsBatches() {
		// A batch holds one place, and runs on a goroutine of its own so
		// that the reading goes on (a notifications/cancelled for one of
		// its members is read meanwhile); its members take places of
		// their own within it (Session.HandleBatch).
		if !rd.takePlace() {
			rd.deliver(replyOf(jsonrpc.EncodeError(jsonrpc.ID{}, errShuttingDown)))
			return false
		}
		go func() { (*placedSink)(rd).deliver(replyOf(sess.HandleBatch(rd.ctx, item.data))) }()
		return false
	}
	var in Incoming // the params read in the pass that checks the line
	if rpcErr := in.Decode(item.data); rpcErr != nil {
		s.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
		rd.deliver(replyOf(jsonrpc.EncodeError(in.Message.ID, rpcErr))) // gate 1
		return false
	}
	msg := in.Message
	if msg.IsRequest() && !rd.takePlace() {
		rd.deliver(replyOf(jsonrpc.EncodeError(msg.ID, errShuttingDown)))
		return false
	}
	now, f := sess.start(rd.reqBase, msg, spare)
	if f == nil {
		if msg.IsRequest() {
			<-rd.places
		}
		rd.deliver(replyOf(now))
		return false
	}
	f.sink = (*placedSink)(rd)
	f.req.params, f.paramsRead = in.params, true
	if msg.Method == methodInitialize {
		// Served before anything read after it, however long it takes.
		f.do()
		return true
	}
	rd.push(queued{f: f, line: item.data})
	return true
}

// push queues a started request, and wakes a helper to run the queue
// when more lines wait to be read behind it.
func (rd *streamReader) push(q queued) {
	rd.qmu.Lock()
	rd.queue = append(rd.queue, q)
	rd.queued.Add(1)
	wake := rd.helpers < rd.maxHelpers && rd.lineWaiting()
	if wake {
		rd.helpers++
	}
	rd.qmu.Unlock()
	if wake {
		rd.workers.run((*queueRunner)(rd))
	}
}

// popShare takes a request for the reader to run, when no line waits to
// be read: the next one, unless a helper runs the queue and has no more
// than one left, which the reader leaves to it to read on meanwhile (a
// client writing ahead has more to read by then).
func (rd *streamReader) popShare() (queued, bool) {
	rd.qmu.Lock()
	defer rd.qmu.Unlock()
	if rd.helpers > 0 && len(rd.queue)-rd.head < 2 {
		return queued{}, false
	}
	return rd.popLocked()
}

func (rd *streamReader) popLocked() (queued, bool) {
	if rd.head == len(rd.queue) {
		return queued{}, false
	}
	q := rd.queue[rd.head]
	rd.queue[rd.head] = queued{}
	rd.head++
	rd.queued.Add(-1)
	if rd.head == len(rd.queue) {
		rd.queue, rd.head = rd.queue[:0], 0
	}
	return q, true
}

// runOn runs a queued request on the goroutine that watches it with l. It
// reports whether the goroutine is still free for more (false once the
// request ran long enough for l to hand the goroutine's role over).
func (rd *streamReader) runOn(l *lane, q queued) bool {
	l.begin(q.f)
	q.f.do()
	if !l.end() {
		return false
	}
	// Served start to end here, with nothing watching it: nothing refers
	// to the request or its line any more.
	if l.reading {
		rd.keepSpare(q)
	} else {
		rd.putSpare(q)
	}
	return true
}

// ensureHelperLocked makes sure a goroutine other than the reader runs
// the queue when it is not empty, whatever maxHelpers says: the reader is
// about to wait for a place.
func (rd *streamReader) ensureHelperLocked() {
	if rd.head < len(rd.queue) && rd.helpers == 0 {
		rd.helpers++
		rd.workers.run((*queueRunner)(rd))
	}
}

// takeSpare returns a request and a line to reuse; both may be nil. Only
// the goroutine reading calls it: it takes from its stash, which it fills
// with every spare the helpers left, under one lock, when it is empty.
func (rd *streamReader) takeSpare() queued {
	if len(rd.stash) == 0 {
		rd.qmu.Lock()
		rd.stash = append(rd.stash, rd.spares...)
		clear(rd.spares)
		rd.spares = rd.spares[:0]
		rd.qmu.Unlock()
	}
	n := len(rd.stash)
	if n == 0 {
		return queued{}
	}
	q := rd.stash[n-1]
	rd.stash[n-1] = queued{}
	rd.stash = rd.stash[:n-1]
	return q
}

// keepSpare is putSpare for the goroutine reading, into its stash.
func (rd *streamReader) keepSpare(q queued) {
	if len(rd.stash) < cap(rd.places) {
		rd.stash = append(rd.stash, trimSpare(q))
	}
}

// putSpare keeps a request and its line for reuse, unless as many are
// kept as there can be requests in flight (in the stash and here, each),
// or the line is too large to be worth keeping.
func (rd *streamReader) putSpare(q queued) {
	q = trimSpare(q)
	rd.qmu.Lock()
	if len(rd.spares) < cap(rd.places) {
		rd.spares = append(rd.spares, q)
	}
	rd.qmu.Unlock()
}

// trimSpare empties q's line for reuse, or drops it when it is too large
// to be worth keeping.
func trimSpare(q queued) queued {
	if cap(q.line) > maxKeptBuffer {
		q.line = nil
	} else {
		q.line = q.line[:0]
	}
	return q
}

// queueRunner is a helper: it runs the queue until it is empty.
type queueRunner streamReader

func (h *queueRunner) do() {
	rd := (*streamReader)(h)
	l := newLane(rd, h)
	for {
		rd.qmu.Lock()
		q, ok := rd.popLocked()
		if !ok {
			rd.qmu.Unlock()
			if rd.lingered() {
				continue
			}
			rd.qmu.Lock()
			if rd.head < len(rd.queue) { // pushed since: no wake-up was asked for it
				rd.qmu.Unlock()
				continue
			}
			rd.helpers--
			rd.qmu.Unlock()
			return
		}
		rd.qmu.Unlock()
		if !rd.runOn(l, q) {
			return // another helper runs the queue now
		}
	}
}

// helperLinger is how long a helper that emptied the queue waits for more
// before it stops: a client writing ahead sends its next burst soon, and
// waking a stopped helper costs more than a call.
const helperLinger = 20 * time.Microsecond

// lingered waits up to helperLinger for a request to be queued, and
// reports whether one was.
func (rd *streamReader) lingered() bool {
	start := time.Now()
	for time.Since(start) < helperLinger {
		if rd.queued.Load() > 0 {
			return true
		}
		runtime.Gosched()
	}
	return false
}

// deliver writes an answer and counts its line done.
func (rd *streamReader) deliver(r reply) {
	rd.out.writeReply(r, false)
	rd.inflight.Done()
}

// takePlace waits for a place for one more request in flight (see
// ServeStream); it is false when the stream ends first. Before it waits,
// it makes sure the queue is being run: its requests hold places.
func (rd *streamReader) takePlace() bool {
	select {
	case rd.places <- struct{}{}:
		return true
	default:
	}
	rd.qmu.Lock()
	rd.ensureHelperLocked()
	rd.qmu.Unlock()
	select {
	case rd.places <- struct{}{}:
		return true
	case <-rd.ctx.Done():
		return false
	}
}

// placedSink is where the answer of a request holding a place goes: it is
// written, and then the place is given back (by the writer: see
// lineWriter).
type placedSink streamReader

func (p *placedSink) deliver(r reply) {
	rd := (*streamReader)(p)
	rd.out.writeReply(r, true)
	rd.inflight.Done()
}

// errShuttingDown answers a request read while the server stops.
var errShuttingDown = jsonrpc.NewError(jsonrpc.CodeInternalError, "the server is shutting down")

// lane is a goroutine's watch over the request it runs. When the request
// runs for handOverAfter, the lane's timer has another goroutine take
// over the goroutine's role (next: the reading, or running the queue) and
// then watches the request, so that it is answered early if its context
// ends while its handler runs (see inflight.watch).
//
// The timer is not reset for every request: resetting and stopping a
// timer took 400 ns a request in the profile of pipelined calls on one
// core (the runtime's timer heap, locked, on every request). A request notes when it began; the
// timer, once armed, fires at most every handOverAfter while requests
// run, and when it finds the request it fires for began less than
// handOverAfter ago it is armed again for the rest. It is armed by a
// request that begins while it is not, and left unarmed when it fires
// on a lane between requests. A request is thus handed over at
// handOverAfter, as before, and a lane serving requests back to back
// costs one timer a handOverAfter rather than one a request.
type lane struct {
	rd      *streamReader
	next    job  // what another goroutine takes over
	reading bool // next is the reading: the goroutine reads while it has its role
	timer   *time.Timer

	mu         sync.Mutex
	serving    *inflight     // nil between requests
	began      time.Duration // when serving began (sinceEpoch)
	armed      bool          // the timer will fire
	handedOver bool          // the goroutine's role went to another goroutine
}

func newLane(rd *streamReader, next job) *lane {
	_, reading := next.(*streamReader)
	l := &lane{rd: rd, next: next, reading: reading}
	l.timer = time.AfterFunc(time.Hour, l.fire)
	l.timer.Stop()
	return l
}

func (l *lane) begin(f *inflight) {
	began := sinceEpoch()
	l.mu.Lock()
	l.serving, l.began = f, began
	arm := !l.armed
	l.armed = true
	l.mu.Unlock()
	if arm {
		l.timer.Reset(handOverAfter)
	}
}

// end reports whether the goroutine still has its role.
func (l *lane) end() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.serving = nil
	return !l.handedOver
}

func (l *lane) fire() {
	l.mu.Lock()
	f := l.serving
	if f == nil || l.handedOver {
		l.armed = false
		l.mu.Unlock()
		return
	}
	if ran := sinceEpoch() - l.began; ran < handOverAfter {
		// A later request than the one the timer was armed for: watch
		// it for the rest of its time. Reset under l.mu, so that a
		// request beginning meanwhile finds the timer armed.
		l.timer.Reset(handOverAfter - ran)
		l.mu.Unlock()
		return
	}
	l.handedOver, l.armed = true, false
	l.mu.Unlock()
	l.rd.workers.run(l.next)
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

// lineWriter writes whole messages, one per line. Messages answered at
// the same time are written together: the goroutine that finds nobody
// writing writes its message, and then whatever messages the others left
// meanwhile, in one write each round, while they go on without waiting
// (a message is copied, since the buffers it comes from are reused). A
// client writing ahead thus gets its answers a batch at a time, not a
// write(2) each; one request in flight costs one write, as before.
//
// An answer holds its request's place (see ServeStream) until it is
// written, not just left for the goroutine writing: placed says so, and
// the writer gives the place back through released once the answer went
// out (or could not). The bytes left waiting are bounded too (maxPending,
// for notifications, which hold no place): past that a goroutine waits
// for the write in progress. A client that does not read thus holds the
// server to its requests in flight and their answers. A message larger
// than the bound is written by the goroutine that has it, its parts as
// they are, without a copy.
//
// After a write error it writes nothing more and calls failed; after close
// it writes nothing (a notification racing the end of the stream is
// dropped).
type lineWriter struct {
	w        io.Writer
	failed   func()
	released func(places int)

	mu      sync.Mutex
	writing bool       // a goroutine is writing to w, outside mu
	done    *sync.Cond // on mu: broadcast when a round of writing ends
	pending []byte     // whole lines left for the goroutine writing
	placed  int        // how many of them hold a place
	spare   []byte     // a buffer written before, for the next batch
	closed  bool
	werr    error
}

// maxPending bounds the bytes of messages left for the goroutine writing.
const maxPending = 64 << 10

func newLineWriter(w io.Writer, failed func(), released func(places int)) *lineWriter {
	l := &lineWriter{w: w, failed: failed, released: released}
	l.done = sync.NewCond(&l.mu)
	return l
}

func (l *lineWriter) write(msg []byte) { l.writeReply(replyOf(msg), false) }

// writeReply writes r's parts and the newline as one message. placed says
// that r holds a place, given back once r is written.
func (l *lineWriter) writeReply(r reply, placed bool) {
	places := 0
	if placed {
		places = 1
	}
	if r.none() {
		l.released(places)
		return
	}
	n := len(r.head) + len(r.body) + len(r.tail) + 1
	l.mu.Lock()
	for l.writing && len(l.pending)+n > maxPending && l.werr == nil {
		l.done.Wait()
	}
	if l.closed || l.werr != nil {
		l.mu.Unlock()
		l.released(places)
		return
	}
	if l.writing {
		l.pending = appendLine(l.pending, r)
		l.placed += places
		l.mu.Unlock()
		return
	}
	l.writing = true
	var batch []byte
	if n <= maxPending {
		batch = appendLine(l.spare[:0], r)
		l.spare = nil
	}
	l.mu.Unlock()

	var err error
	if batch == nil {
		err = writeParts(l.w, r)
	} else {
		_, err = l.w.Write(batch)
	}
	for {
		l.released(places)
		l.mu.Lock()
		failed := err != nil && l.werr == nil
		if failed {
			l.werr = err
		}
		if err != nil || len(l.pending) == 0 {
			places = l.placed // dropped after an error
			l.placed = 0
			l.writing = false
			if cap(batch) <= maxPending {
				l.spare = batch
			}
			l.done.Broadcast()
			l.mu.Unlock()
			l.released(places)
			if failed {
				l.failed()
			}
			return
		}
		// Others left messages while this one was written: write them
		// all, in one write, and give the waiting room back.
		batch, l.pending = l.pending, batch[:0]
		places, l.placed = l.placed, 0
		l.done.Broadcast()
		l.mu.Unlock()
		_, err = l.w.Write(batch)
	}
}

// appendLine appends r's parts and the newline to b.
func appendLine(b []byte, r reply) []byte {
	return append(append(append(append(b, r.head...), r.body...), r.tail...), '\n')
}

// writeParts writes r's parts and the newline in turn.
func writeParts(w io.Writer, r reply) error {
	for _, p := range [][]byte{r.head, r.body, r.tail, {'\n'}} {
		if len(p) == 0 {
			continue
		}
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// close waits for the write in progress, then stops the writing.
func (l *lineWriter) close() {
	l.mu.Lock()
	for l.writing {
		l.done.Wait()
	}
	l.closed = true
	l.mu.Unlock()
}

func (l *lineWriter) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.werr
}
