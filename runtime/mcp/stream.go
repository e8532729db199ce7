package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/internal/mono"
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
// read, started and run by one goroutine; when a client writes ahead, a
// goroutine per core takes its turn at reading a batch of lines and runs
// the requests it read (see streamReader). A request other than
// initialize that runs longer than handOverAfter hands the rest of its
// goroutine's batch on to another goroutine, so requests run
// concurrently: a slow handler holds up neither the requests behind it
// nor the notifications/cancelled meant for it. Every answer and
// notification is written whole, followed by "\n"; the answers of the
// requests a goroutine read together are written together once it has
// run them (see lane.out), and answers given while another is being
// written are written together with the next write (see lineWriter).
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
	var rd *streamReader
	// Nothing can be answered once a write fails; a place is given back,
	// and the line it answers counted done, once its answer is written.
	out := newLineWriter(w, cancelRequests, func(h hold) {
		rd.places.give(h.places)
		if h.lines > 0 {
			rd.inflight.Add(-h.lines)
		}
	})
	sess = s.NewSession(p, out.write)
	defer cancelRequests()
	rd = &streamReader{
		srv: s, sess: sess, ctx: reqCtx, reqBase: context.WithoutCancel(reqCtx), out: out,
		workers: newWorkers(),
		places:  newPlaces(s.maxInFlight),
		br:      bufio.NewReaderSize(r, 64<<10),
		done:    make(chan error, 1),

		maxServing: runtime.GOMAXPROCS(0),
		serving:    1, // the goroutine run below
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

// streamReader is the reading and running of one stream's requests.
//
// The goroutines serving a stream take turns at the reading: one at a
// time holds it, reads the whole lines buffered (readBatch at most),
// starts each in reading order (Session.start: the gates that need no
// work, and a notification's effect, which thus reaches every request
// read after it), gives the reading up and runs the requests it started,
// in the order it read them. A request is thus read, started, run and
// answered by one goroutine, on one core: the memory it is read into and
// served from is not written on one core and read on another (with one
// goroutine reading and starting every request and another running half
// of them, pipelined calls on two cores were slower than on one: see
// docs/benchmarks.md). One request in flight is read, started and run by
// one goroutine, with nobody woken. When lines still wait as a goroutine
// gives the reading up (a client writing ahead), another goroutine takes
// it up meanwhile: one waiting for it (a goroutine that finds the reading
// held waits helperLinger for it before it stops) or one woken for it,
// one per core at most: one wake-up per burst of lines, not per request,
// which would cost more than a call. A request meets the handshake's gate
// as the handshake stood when it was started, however late it runs (see
// inflight.seen); initialize itself runs before anything read after it.
type streamReader struct {
	srv  *Server
	sess *Session
	ctx  context.Context // the stream's: done when the stream ends
	// reqBase is what requests' contexts derive from: ctx's values, none
	// of its cancellation (ServeStream cancels requests itself).
	reqBase context.Context
	out     *lineWriter
	done    chan error // receives the reading's end: nil at end of input, or the read error
	// workers are the goroutines that serve the stream.
	workers *workers
	// places bounds the requests in flight: a request takes one before
	// it starts and gives it back once its answer is written.
	places *places
	// maxServing is how many goroutines serve the stream at once, besides
	// those whose request ran long (see lane): one per core.
	maxServing int

	// homes has a bit set for each of the session's shards of requests
	// in flight that a goroutine serving the stream has as its home (see
	// lane.home).
	homes atomic.Uint32

	// reading is held by the goroutine that reads; only it touches br,
	// readErr and the credits. It is given up after each batch of lines,
	// and kept for good once the reading ended.
	reading atomic.Bool
	br      *bufio.Reader
	readErr error // what the last read returned: the reading ends with it
	// placeCredit are places the goroutine reading took for the batch it
	// reads and has not used yet, lineCredit lines counted in inflight
	// ahead of being read: both are taken a batch at a time and what is
	// left is given back as the reading is given up, so that the count
	// both cores write changes twice a batch, not at every line.
	placeCredit int
	lineCredit  int

	// Once stopped is set (under mu), no line is served, so inflight
	// counts every line that can still be answered: a line is counted
	// before it is served (see countLine), and counted done once its
	// answer, or the lack of one, went through the line writer.
	mu       sync.Mutex
	stopped  bool
	inflight sync.WaitGroup

	qmu     sync.Mutex
	serving int // goroutines serving the stream, at most maxServing
	// queue holds the requests a goroutine had still to run when its
	// request ran long (see lane.fire), in reading order, from head; the
	// goroutine started in its place runs them first.
	queue  []queued
	head   int
	queued atomic.Int32 // len(queue)-head, read without qmu by a lingering goroutine
	// spares are requests served start to end and the lines they were
	// read into, which a goroutine left as it stopped (each keeps its own
	// while it serves, see lane.stash): nothing refers to them any more (a
	// handler does not keep its Call, see Handler), so the next requests
	// reuse them, and the memory a request takes (a kilobyte, most of it
	// the Call) stays warm.
	spares []queued
}

// readBatch is how many lines a goroutine reads before it gives the
// reading up and runs the requests it read: small enough that a burst of
// lines is spread over the cores, large enough that the reading changes
// hands once for many requests.
const readBatch = 16

// queued is a started request and the line it was read into (its Call's
// Raw aliases the line, so the line is not reused before the request ends).
type queued struct {
	f    *inflight
	line []byte
	// peeked says the request was started from its id and method alone:
	// the line is read when it runs (see streamReader.serve).
	peeked bool
}

// errStopped ends the reading when the server stops: the line read is
// not served, and the reading ends with nil.
var errStopped = errors.New("stopped")

// do serves the stream on one goroutine: it runs the requests it read,
// then those handed on to it, then takes the reading up when nobody holds
// it. It returns when the reading is held by another goroutine for
// helperLinger with nothing else to run, when the reading ends (the
// goroutine that read last reports the end), or when a request it runs
// runs long enough for another goroutine to take its place.
func (rd *streamReader) do() {
	l := newLane(rd)
	defer rd.leave(l)
	// ended says this goroutine read the end of the reading: nothing is
	// read any more, and it reports the end once it ran what it read.
	ended := false
	defer func() {
		if ended {
			rd.reportEnd()
		}
	}()
	for {
		q, ok := l.take()
		if !ok && !ended {
			if q, ok = rd.popQueued(); ok {
				l.begin(q.f)
			}
		}
		if ok {
			if !rd.runOn(l, q) {
				return
			}
			continue
		}
		if ended {
			return
		}
		if rd.reading.CompareAndSwap(false, true) {
			ended = !rd.readLines(l)
			continue
		}
		if rd.lingered() {
			continue
		}
		rd.qmu.Lock()
		if rd.head < len(rd.queue) || !rd.reading.Load() { // since: run it, or read
			rd.qmu.Unlock()
			continue
		}
		rd.serving--
		rd.qmu.Unlock()
		return
	}
}

// readLines reads a batch of lines into l, the goroutine holding the
// reading: the first line whenever it comes, then those buffered while
// places are free, readBatch at most. It gives the reading up and reports
// true, waking a goroutine to read on when lines still wait; or it keeps
// the reading and reports false when the reading ended.
func (rd *streamReader) readLines(l *lane) bool {
	more := rd.readOne(l)
	for n := 1; n < readBatch && rd.readErr == nil && more && (rd.placeCredit > 0 || rd.places.free()); n++ {
		more = rd.readOne(l)
	}
	rd.giveCredit()
	if rd.readErr != nil {
		return false
	}
	rd.reading.Store(false) // br is another goroutine's from here
	if more {
		rd.qmu.Lock()
		wake := rd.serving < rd.maxServing
		if wake {
			rd.serving++
		}
		rd.qmu.Unlock()
		if wake {
			rd.workers.run(rd)
		}
	}
	return true
}

// reportEnd reports the reading's end to ServeStream, as the goroutine
// that read last: nil at end of input, else the read error.
func (rd *streamReader) reportEnd() {
	err := rd.readErr
	if errors.Is(err, io.EOF) || err == errStopped {
		err = nil
	}
	rd.done <- err
}

// leave gives what l kept back to the stream, as its goroutine stops.
func (rd *streamReader) leave(l *lane) {
	for _, q := range l.stash {
		rd.putSpare(q)
	}
	l.stash = nil
	rd.giveHome(l.slot)
}

// takeHome returns the index of a shard of the session's requests in
// flight that no goroutine serving the stream has as its home, and notes
// it taken; -1 when every shard is taken (by goroutines whose requests
// ran long): the goroutine then has no home, and its requests are kept
// by their ids' hash.
func (rd *streamReader) takeHome() int {
	for {
		taken := rd.homes.Load()
		i := bits.TrailingZeros32(^taken)
		if i >= len(rd.sess.flights.shards) {
			return -1
		}
		if rd.homes.CompareAndSwap(taken, taken|1<<i) {
			return i
		}
	}
}

// giveHome gives back the home takeHome returned.
func (rd *streamReader) giveHome(i int) {
	if i >= 0 {
		rd.homes.And(^uint32(1 << i))
	}
}

// lineWaiting reports whether a whole line is buffered: reading it does
// not block. Only the goroutine holding the reading calls it.
func (rd *streamReader) lineWaiting() bool {
	n := rd.br.Buffered()
	if n == 0 || rd.readErr != nil {
		return false
	}
	b, _ := rd.br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// readOne reads the next line and serves it: answers it now, or starts it
// and adds it to l's batch. more says another whole line was buffered
// behind it (lineWaiting): reading it would not block.
func (rd *streamReader) readOne(l *lane) (more bool) {
	spare := l.takeSpare()
	var item line
	item, rd.readErr = readLine(rd.br, rd.srv.maxMessageBytes, spare.line)
	more = rd.lineWaiting()
	if !item.tooLong && len(bytes.TrimSpace(item.data)) == 0 {
		l.keepSpare(queued{f: spare.f, line: item.data})
		return more
	}
	if !rd.countLine() {
		rd.readErr = errStopped
		return false
	}
	if !rd.serve(l, item, spare.f, more) && spare.f != nil {
		// The request memory was not needed (a notification, a response,
		// an answer given at once); the line may be, by what was read
		// from it (a response's result, a batch), so it is not kept.
		l.keepSpare(queued{f: spare.f})
	}
	return more
}

// countLine counts a line read in inflight, unless the stream stopped
// (false): from the line credit, which it fills for the rest of a batch
// when it is empty.
func (rd *streamReader) countLine() bool {
	if rd.lineCredit == 0 {
		rd.mu.Lock()
		defer rd.mu.Unlock()
		if rd.stopped {
			return false
		}
		rd.inflight.Add(readBatch)
		rd.lineCredit = readBatch
	}
	rd.lineCredit--
	return true
}

// giveCredit gives back the places and the count of lines the goroutine
// reading took for its batch and did not use, as it gives the reading up.
func (rd *streamReader) giveCredit() {
	if rd.lineCredit > 0 {
		rd.inflight.Add(-rd.lineCredit)
		rd.lineCredit = 0
	}
	rd.places.give(rd.placeCredit)
	rd.placeCredit = 0
}

// serve answers one line, counted in inflight, or starts it and adds it
// to l's batch; it reports whether it started a request, in spare when
// that was not nil. more says lines wait behind it.
//
// With lines waiting, on more than one core, a request is started from
// its id and method alone (jsonrpc.PeekRequest) and read whole
// (Incoming.Decode) by the goroutine that runs it (see streamReader.run):
// the reading of lines, one goroutine at a time, was a third of the time
// of pipelined calls on two cores, and the decoding two thirds of that.
func (rd *streamReader) serve(l *lane, item line, spare *inflight, more bool) (started bool) {
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
	peeked := false
	if more && rd.maxServing > 1 {
		id, method, ok := jsonrpc.PeekRequest(item.data)
		peeked = ok && method != methodInitialize && !strings.HasPrefix(method, "notifications/")
		in.Message = jsonrpc.Message{ID: id, Method: method}
	}
	if !peeked {
		if refusal := s.decodeLine(&in, item.data); refusal != nil {
			rd.deliver(replyOf(refusal)) // gate 1
			return false
		}
	}
	msg := in.Message
	if msg.IsRequest() && !rd.takePlace() {
		rd.deliver(replyOf(jsonrpc.EncodeError(msg.ID, errShuttingDown)))
		return false
	}
	now, f := sess.start(rd.reqBase, msg, spare, l.home)
	if f == nil {
		if msg.IsRequest() {
			rd.placeCredit++ // not taken after all
		}
		if peeked {
			// Its id is in flight: unless the line is no request at
			// all, which its reading tells.
			if refusal := s.decodeLine(&in, item.data); refusal != nil {
				now = refusal
			}
		}
		rd.deliver(replyOf(now))
		return false
	}
	f.sink = (*placedSink)(rd)
	if !peeked {
		f.req.params, f.paramsRead = in.params, true
	}
	if msg.Method == methodInitialize {
		// Served before anything read after it, however long it takes.
		f.do()
		return true
	}
	l.add(queued{f: f, line: item.data, peeked: peeked})
	return true
}

// decodeLine decodes a line into in (gate 1); when the line is refused,
// it notes the refusal and returns the answer to give.
func (s *Server) decodeLine(in *Incoming, data []byte) (refusal []byte) {
	if rpcErr := in.Decode(data); rpcErr != nil {
		s.Observe(Event{Kind: Refused, Refusal: RefusedEnvelope})
		return jsonrpc.EncodeError(in.Message.ID, rpcErr)
	}
	return nil
}

// run runs q's request and settles it, returning its answer (none when
// it was cancelled); ok is false when it was answered before (see
// inflight.abandon). A request started from its peek (see serve) has its
// line read first, and is answered with the error the line holds (gate
// 1), as serve would have answered it.
func (rd *streamReader) run(q queued) (_ reply, ok bool) {
	f := q.f
	if q.peeked {
		var in Incoming
		if refusal := rd.srv.decodeLine(&in, q.line); refusal != nil {
			return f.settle(replyOf(refusal))
		}
		if in.Message.ID != f.msg.ID || in.Message.Method != f.msg.Method {
			// PeekRequest promises otherwise.
			return f.settle(replyOf(jsonrpc.EncodeError(in.Message.ID, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error"))))
		}
		f.msg = in.Message
		f.req.params, f.paramsRead = in.params, true
	}
	return f.settle(f.sess.run(f))
}

// popQueued takes the next request handed on (see lane.fire).
func (rd *streamReader) popQueued() (queued, bool) {
	if rd.queued.Load() == 0 {
		return queued{}, false
	}
	rd.qmu.Lock()
	defer rd.qmu.Unlock()
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

// handOn queues the requests a goroutine whose request ran long had still
// to run, ahead of any queued (they were read before), and starts a
// goroutine in its place, which runs them first.
func (rd *streamReader) handOn(rest []queued) {
	if len(rest) > 0 {
		rd.qmu.Lock()
		rd.queue = append(rest, rd.queue[rd.head:]...)
		rd.head = 0
		rd.queued.Store(int32(len(rd.queue)))
		rd.qmu.Unlock()
	}
	rd.workers.run(rd)
}

// runOn runs a request begun on l (see lane.take and lane.begin) on the
// goroutine that watches it with l. It reports whether the goroutine is
// still free for more (false once the request ran long enough for l to
// hand the goroutine's place over).
func (rd *streamReader) runOn(l *lane, q queued) bool {
	if !l.end(rd.run(q)) {
		return false
	}
	// Served start to end here, with nothing watching it: nothing refers
	// to the request or its line any more.
	l.keepSpare(q)
	return true
}

// putSpare keeps a request and its line for reuse, unless as many are
// kept as there can be requests in flight, or the line is too large to be
// worth keeping.
func (rd *streamReader) putSpare(q queued) {
	q = trimSpare(q)
	rd.qmu.Lock()
	if len(rd.spares) < rd.places.max {
		rd.spares = append(rd.spares, q)
	}
	rd.qmu.Unlock()
}

// trimSpare empties q's line for reuse, or drops it when it is too large
// to be worth keeping.
func trimSpare(q queued) queued {
	return queued{f: q.f, line: reusable(q.line)}
}

// helperLinger is how long a goroutine that finds the reading held, with
// nothing else to run, waits for the reading to be given up before it
// stops: the goroutine reading gives it up after a batch of a client
// writing ahead, and waking a stopped goroutine costs more than a call.
const helperLinger = 20 * time.Microsecond

// lingered waits up to helperLinger for a request to be handed on or the
// reading to be given up, and reports whether one was.
func (rd *streamReader) lingered() bool {
	start := mono.Now()
	for mono.Now()-start < helperLinger {
		if rd.queued.Load() > 0 || !rd.reading.Load() {
			return true
		}
		runtime.Gosched()
	}
	return false
}

// deliver writes an answer to a line that holds no place; the writer
// counts the line done.
func (rd *streamReader) deliver(r reply) { rd.out.writeReply(r, hold{lines: 1}) }

// takePlace takes a place for one more request in flight (see
// ServeStream), from the place credit, which it fills with as many places
// as are free, readBatch at most, when it is empty: it waits for one when
// none is. It is false when the stream ends first. The places are given
// back by the line writer as it writes the answers of the requests that
// hold them, so the goroutine reading waits only for writes.
func (rd *streamReader) takePlace() bool {
	if rd.placeCredit == 0 {
		n, ok := rd.places.take(readBatch, rd.ctx.Done())
		if !ok {
			return false
		}
		rd.placeCredit = n
	}
	rd.placeCredit--
	return true
}

// places bounds a stream's requests in flight (Options.MaxInFlight): the
// goroutine reading takes them for a batch of lines, and the line writer
// gives them back once their answers are written, as many at once as it
// wrote. It is a count, an atomic add on each side, rather than a channel
// of tokens, whose lock both cores took for every request: a profile of
// pipelined calls on two cores had 7% of the time in its sends and
// receives.
type places struct {
	held atomic.Int64 // places taken, max at most
	max  int
	// waiting is set while take waits for places to be given back: give
	// then leaves a token in freed.
	waiting atomic.Bool
	freed   chan struct{}
}

func newPlaces(max int) *places {
	return &places{max: max, freed: make(chan struct{}, 1)}
}

// free reports whether a place is free.
func (p *places) free() bool { return p.held.Load() < int64(p.max) }

// take takes as many places as are free, want at most, waiting until
// one is given back when none is; ok is false when done closes first.
// One goroutine takes at a time (the one reading).
func (p *places) take(want int, done <-chan struct{}) (n int, ok bool) {
	for {
		held := p.held.Load()
		if free := int64(p.max) - held; free > 0 {
			n := min(int64(want), free)
			if p.held.CompareAndSwap(held, held+n) {
				return int(n), true
			}
			continue // given back meanwhile
		}
		// waiting is set before held is read again, and give reads it
		// after it changed held: either this reading sees a place given
		// back, or give sees waiting and leaves a token.
		p.waiting.Store(true)
		if p.free() {
			p.waiting.Store(false)
			continue
		}
		select {
		case <-p.freed: // perhaps a token left after an earlier wait: held is read again
		case <-done:
			p.waiting.Store(false)
			return 0, false
		}
		p.waiting.Store(false)
	}
}

// give gives n places back.
func (p *places) give(n int) {
	if n == 0 {
		return
	}
	p.held.Add(int64(-n))
	if p.waiting.Load() {
		select {
		case p.freed <- struct{}{}:
		default: // a token is there already
		}
	}
}

// placedSink is where the answer of a request holding a place goes: it is
// written, and then the place is given back and the line counted done (by
// the writer: see lineWriter).
type placedSink streamReader

func (p *placedSink) deliver(r reply) {
	(*streamReader)(p).out.writeReply(r, hold{places: 1, lines: 1})
}

// errShuttingDown answers a request read while the server stops.
var errShuttingDown = jsonrpc.NewError(jsonrpc.CodeInternalError, "the server is shutting down")

// lane is a goroutine's batch of requests to run, and its watch over the
// request it runs. When the request runs for handOverAfter, the lane's
// timer hands the rest of the batch on, starts another goroutine in the
// goroutine's place (see streamReader.handOn) and then watches the
// request, so that it is answered early if its context ends while its
// handler runs (see inflight.watch).
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
	rd    *streamReader
	timer *time.Timer
	// stash are spares (see streamReader.spares) of the goroutine's own:
	// the requests it served, which the lines it reads next reuse, so that
	// a request's memory stays on its core, and the spares it took from
	// the stream's in one go when it had none.
	stash []queued
	// home is where the requests the goroutine reads are kept in flight
	// (see flights): a shard of the session's that no other goroutine
	// serving the stream has, while there are shards enough, so that the
	// lock and the map a request is added to and removed from are written
	// on one core. slot is its index, given back as the goroutine stops;
	// -1 and home nil when every shard was taken.
	home *flightShard
	slot int

	mu    sync.Mutex
	batch []queued // requests the goroutine read and has to run, from next
	next  int      // batch[next] runs next
	// out holds the answers of the batch's requests run so far, whole
	// lines, and held what they hold: a client writing ahead gets a
	// batch's answers in one round of the line writer, whose lock and
	// counts the cores would otherwise take in turn for every answer (on
	// two cores the writer took nine times the time it takes on one).
	// Written when the batch is run, when the goroutine hands its place
	// over (see fire), or when they reach maxPending.
	out        []byte
	held       hold
	serving    *inflight     // nil between requests
	began      time.Duration // when serving began (mono.Now)
	armed      bool          // the timer will fire
	handedOver bool          // the goroutine's place went to another goroutine
}

func newLane(rd *streamReader) *lane {
	l := &lane{rd: rd, slot: rd.takeHome()}
	if l.slot >= 0 {
		l.home = &rd.sess.flights.shards[l.slot]
	}
	l.timer = time.AfterFunc(time.Hour, l.fire)
	l.timer.Stop()
	return l
}

// add adds a request read to the batch.
func (l *lane) add(q queued) {
	l.mu.Lock()
	l.batch = append(l.batch, q)
	l.mu.Unlock()
}

// take begins the batch's next request; ok is false when the batch is
// run.
func (l *lane) take() (q queued, ok bool) {
	l.mu.Lock()
	if l.next == len(l.batch) { // every entry was cleared as it was taken
		l.batch, l.next = l.batch[:0], 0
		l.mu.Unlock()
		return queued{}, false
	}
	q = l.batch[l.next]
	l.batch[l.next] = queued{}
	l.next++
	arm := l.beginLocked(q.f)
	l.mu.Unlock()
	if arm {
		l.timer.Reset(handOverAfter)
	}
	return q, true
}

// begin begins f, a request handed on.
func (l *lane) begin(f *inflight) {
	l.mu.Lock()
	arm := l.beginLocked(f)
	l.mu.Unlock()
	if arm {
		l.timer.Reset(handOverAfter)
	}
}

// beginLocked notes f as the request served, and reports whether the
// timer is to be armed for it; l.mu is held.
func (l *lane) beginLocked(f *inflight) (arm bool) {
	l.serving, l.began = f, mono.Now()
	f.began = l.began
	arm = !l.armed
	l.armed = true
	return arm
}

// end ends the request served, whose answer is a when ok (see
// streamReader.run), and reports whether the goroutine still has its
// place. The answer is kept with the others of the batch (see lane.out),
// and they are written together once the batch is run; the answer of a
// request run alone is written at once. They are written while the
// request is still the one served: a write that waits for a client that
// does not read is handed over as a request that runs long is (see fire),
// so that the stream reads on, up to its bound. No answer is kept past
// the batch's last request, nor past a request handed over (fire writes
// those kept before it, end the one it answers): a goroutine stops with
// none left (see streamReader.leave).
func (l *lane) end(a reply, ok bool) bool {
	l.mu.Lock()
	last := l.next == len(l.batch)
	if ok {
		if last && l.held == (hold{}) && !l.handedOver {
			l.mu.Unlock()
			l.rd.out.writeReply(a, hold{places: 1, lines: 1})
			l.mu.Lock()
		} else {
			if !a.none() {
				l.out = appendLine(l.out, a) // a's buffers are the request's, reused by the next
			}
			l.held.add(hold{places: 1, lines: 1})
		}
	}
	if last || l.handedOver || len(l.out) >= maxPending {
		l.flushLocked()
	}
	l.serving = nil
	kept := !l.handedOver
	l.mu.Unlock()
	return kept
}

// flushLocked writes the answers kept in l.out, and gives back what they
// hold; l.mu is held, and released meanwhile when there are answers.
func (l *lane) flushLocked() {
	if l.held == (hold{}) {
		return
	}
	out, held := l.takeKept()
	l.mu.Unlock()
	l.rd.out.writeReply(linesOf(out), held)
	l.mu.Lock()
	if l.out == nil {
		l.out = out[:0] // kept for the next batch, unless an answer came meanwhile
	}
}

// takeKept takes the answers kept in l.out and what they hold; l.mu is
// held.
func (l *lane) takeKept() ([]byte, hold) {
	out, held := l.out, l.held
	l.out, l.held = nil, hold{}
	return out, held
}

// linesOf is the reply that writes out, whole lines, as they are:
// writeReply ends the last one.
func linesOf(out []byte) reply {
	if len(out) == 0 {
		return reply{}
	}
	return replyOf(out[:len(out)-1])
}

func (l *lane) fire() {
	l.mu.Lock()
	f := l.serving
	if f == nil || l.handedOver {
		l.armed = false
		l.mu.Unlock()
		return
	}
	if ran := mono.Now() - l.began; ran < handOverAfter {
		// A later request than the one the timer was armed for: watch
		// it for the rest of its time. Reset under l.mu, so that a
		// request beginning meanwhile finds the timer armed.
		l.timer.Reset(handOverAfter - ran)
		l.mu.Unlock()
		return
	}
	l.handedOver, l.armed = true, false
	rest := l.batch[l.next:] // the goroutine no longer runs its batch
	l.batch, l.next = nil, 0
	// The answers kept are written now, not after the request that ran
	// long: a client may be waiting for one of them, and the places they
	// hold, to send what the request waits for.
	out, held := l.takeKept()
	l.mu.Unlock()
	l.rd.handOn(rest)
	if held != (hold{}) {
		l.rd.out.writeReply(linesOf(out), held)
	}
	f.watch()
}

// takeSpare returns a request and a line to reuse; both may be nil. It
// takes from the lane's stash, which it fills with the stream's spares,
// under one lock, when it is empty.
func (l *lane) takeSpare() queued {
	if len(l.stash) == 0 {
		rd := l.rd
		rd.qmu.Lock()
		l.stash = append(l.stash, rd.spares...)
		clear(rd.spares)
		rd.spares = rd.spares[:0]
		rd.qmu.Unlock()
	}
	n := len(l.stash)
	if n == 0 {
		return queued{}
	}
	q := l.stash[n-1]
	l.stash[n-1] = queued{}
	l.stash = l.stash[:n-1]
	return q
}

// keepSpare keeps q for the lines the goroutine reads next: in its stash,
// as many as it reads at once, then in the stream's spares.
func (l *lane) keepSpare(q queued) {
	if len(l.stash) < readBatch {
		l.stash = append(l.stash, trimSpare(q))
		return
	}
	l.rd.putSpare(q)
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
// An answer holds its request's place (see ServeStream) and the count of
// the line it answers until it is written, not just left for the
// goroutine writing: its hold says so, and the writer gives both back
// through released once the answer went out (or could not), those of
// every answer a write took at once. The bytes left waiting are bounded too (maxPending,
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
	released func(hold)

	mu      sync.Mutex
	writing bool       // a goroutine is writing to w, outside mu
	done    *sync.Cond // on mu: broadcast when a round of writing ends
	pending []byte     // whole lines left for the goroutine writing
	held    hold       // what they hold
	spare   []byte     // a buffer written before, for the next batch
	closed  bool
	werr    error
}

// maxPending bounds the bytes of messages left for the goroutine writing.
const maxPending = 64 << 10

// A hold is what messages hold until they are written (see lineWriter):
// places of requests in flight, and lines read that they answer.
type hold struct{ places, lines int }

func (h *hold) add(o hold) { h.places, h.lines = h.places+o.places, h.lines+o.lines }

func newLineWriter(w io.Writer, failed func(), released func(hold)) *lineWriter {
	l := &lineWriter{w: w, failed: failed, released: released}
	l.done = sync.NewCond(&l.mu)
	return l
}

// write writes a message the server sends of its own: it holds nothing.
func (l *lineWriter) write(msg []byte) { l.writeReply(replyOf(msg), hold{}) }

// writeReply writes r's parts and the newline as one message, and gives
// back what r holds once it is written; at once when r is no message.
func (l *lineWriter) writeReply(r reply, held hold) {
	if r.none() {
		l.give(held)
		return
	}
	n := len(r.head) + len(r.body) + len(r.tail) + 1
	l.mu.Lock()
	for l.writing && len(l.pending)+n > maxPending && l.werr == nil {
		l.done.Wait()
	}
	if l.closed || l.werr != nil {
		l.mu.Unlock()
		l.give(held)
		return
	}
	if l.writing {
		l.pending = appendLine(l.pending, r)
		l.held.add(held)
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
		l.give(held)
		l.mu.Lock()
		failed := err != nil && l.werr == nil
		if failed {
			l.werr = err
		}
		if err != nil || len(l.pending) == 0 {
			held, l.held = l.held, hold{} // dropped after an error
			l.writing = false
			if cap(batch) <= maxPending {
				l.spare = batch
			}
			l.done.Broadcast()
			l.mu.Unlock()
			l.give(held)
			if failed {
				l.failed()
			}
			return
		}
		// Others left messages while this one was written: write them
		// all, in one write, and give the waiting room back.
		batch, l.pending = l.pending, batch[:0]
		held, l.held = l.held, hold{}
		l.done.Broadcast()
		l.mu.Unlock()
		_, err = l.w.Write(batch)
	}
}

// give gives back what messages written, or dropped, held.
func (l *lineWriter) give(h hold) {
	if h != (hold{}) {
		l.released(h)
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
