package oplog

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
)

const (
	// DefaultBuffer is AsyncOptions.Buffer when zero: at a few
	// microseconds a call, some tens of milliseconds of a busy server's
	// call log, where a writer's thread was seen kept off its core for
	// 5 ms while two cores served calls and a queue of 1,024 records
	// overflowed.
	DefaultBuffer = 8192
	// DefaultBufferBytes is AsyncOptions.BufferBytes when zero.
	DefaultBufferBytes = 16 << 20
)

// AsyncOptions configure NewAsync. The zero value is usable.
type AsyncOptions struct {
	// Limits clip every record as Capped does.
	Limits Limits
	// Buffer bounds the records waiting to be written; zero means
	// DefaultBuffer.
	Buffer int
	// BufferBytes bounds the memory they take: a record counts its
	// place in the queue (entryBytes, 592 bytes on a 64-bit machine)
	// and the bytes of its strings as Limits counts them (a record that
	// does not fit the limits is clipped before it is queued); a line
	// made as its record is queued (see Async) counts the most it may
	// take, and the lines queued one after another share a place. Zero
	// means DefaultBufferBytes.
	BufferBytes int
}

// Async is a handler that never makes its caller wait for the log's
// writer: a record is clipped (see Capped), queued, and handed to the
// next handler by a goroutine of the Async's own. When the queue is full
// the record is dropped and counted; the next record written is preceded
// by a warning, "log records dropped", with how many. A writer that
// blocks (a stderr nobody reads) or fails (a stderr closed) thus costs
// the service log records, never a request.
//
// Over a JSONHandler, the line of a call record (LogCall) or an access
// record (LogAccess) is made as the record is queued, on the caller's
// core, and the writer only writes it: the caller pays for making the
// line (about 100 ns for a server's call, BenchmarkCallLine), where a
// record queued for the writer to format cost the writer some 300 ns
// more, most of it reading what the caller's core had written (see
// queue.queueLine).
//
// Close writes what is queued, for as long as its context allows.
type Async struct {
	next   slog.Handler // with this handler's attributes and groups
	root   slog.Handler // the handler NewAsync was given: drops are reported there
	limits Limits
	q      *queue
}

type queue struct {
	bound    int           // records queued or being written, at most
	maxBytes int           // their bytes (see AsyncOptions.BufferBytes), at most
	dropped  atomic.Int64  // since the last warning about them
	lost     atomic.Int64  // since the start
	done     chan struct{} // closed when the writer goroutine ends
	wake     chan struct{} // a record for a writer that waits (idle)

	mu      sync.Mutex
	pending []*entry // queued, oldest first
	records int      // queued or being written (an entry of lines holds several)
	bytes   int      // of the records queued or being written
	free    []*entry // entries to reuse
	idle    bool     // the writer waits on wake
	closed  bool
	// text is the chunk the next line queued is appended to, after the
	// text queued before it (see queueLine), as are the arguments of a
	// call record queued for a handler other than a JSONHandler (see
	// logCall);
	// filled are the chunks filled since the writer last took the queue.
	// The writer takes the chunks with the records, and gives them back
	// to chunks, emptied, once it wrote them.
	text   []byte
	filled [][]byte
	chunks [][]byte
	// open is the entry of lines the next line is added to: the last
	// one queued, while nothing was queued after it and its lines end
	// where text does.
	open *entry
	// made is what the lines requests make share.
	made lineState

	out   []byte       // the writer's: lines it took from entries, not yet written
	outTo *JSONHandler // the writer's: the handler out is for
}

// entry is a record waiting to be written: r, or access when isAccess, or
// call when isCall, whose arguments are in the queue's text; or, when
// lines is not zero, that many lines made for h, a JSONHandler, one after
// the other in text (see queueLine).
// ctx is the caller's, which may be cancelled by the time the record is
// written: the writer hands the next handler context.WithoutCancel of it,
// made there rather than on the caller's path.
//
// Entries are reused: the writer gives the ones it wrote back to the
// queue, so that a record costs its request no allocation, and queueing
// it is a slice append under a lock that is held for a copy.
//
// Lines, what a busy server queues most, are the entry's first
// fields, and an entry is cleared of the record it held only (see
// clear): an entry of lines touches its first two cache lines of ten.
type entry struct {
	h        slog.Handler
	ctx      context.Context
	isCall   bool
	isAccess bool
	bytes    int    // what the record counts against the queue's maxBytes
	lines    int    // the lines in text, for an entry of lines
	text     []byte // the lines, a slice of a chunk of the queue's text
	call     CallRecord
	access   AccessRecord
	r        slog.Record
}

// clear empties e for reuse: every reference it held is dropped, and
// only the fields its record used are written.
func (e *entry) clear() {
	switch {
	case e.lines > 0:
		e.text = nil
	case e.isCall:
		e.call = CallRecord{}
	case e.isAccess:
		e.access = AccessRecord{}
	default:
		e.r = slog.Record{}
	}
	e.h, e.ctx, e.isCall, e.isAccess, e.bytes, e.lines = nil, nil, false, false, 0, 0
}

// entryBytes is what an entry counts against AsyncOptions.BufferBytes
// besides its strings.
const entryBytes = int(unsafe.Sizeof(entry{}))

// textChunk is the size of the chunks calls' lines, or their arguments,
// are appended to (see queue.text): a call's arguments are at most a
// record's string (Limits.MaxString, 4 KiB by default), its line at most
// maxCallLine, and text larger than a chunk gets a chunk of its own. A
// full chunk is followed by another, never grown: a burst of records
// costs its requests a chunk taken or made every few dozen records, never
// a copy of what came before.
const textChunk = 16 << 10

// maxKeptText bounds the chunks of text kept for reuse, and maxFree the
// entries: a burst that filled the queue must not leave it holding the
// burst's memory. With both, what is kept is at most 1024 × entryBytes
// and 256 KiB, under 1 MiB, and as much as a steady stream of calls a few
// hundred microseconds long needs (a 500 µs batch of calls a microsecond
// apart with lines of 400 bytes is 200 KiB).
const (
	maxKeptText = 256 << 10
	maxFree     = 1024
)

// NewAsync starts the goroutine that writes to next.
func NewAsync(next slog.Handler, opts AsyncOptions) *Async {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.BufferBytes <= 0 {
		opts.BufferBytes = DefaultBufferBytes
	}
	a := &Async{next: next, root: next, limits: opts.Limits.withDefaults(),
		q: &queue{bound: opts.Buffer, maxBytes: opts.BufferBytes,
			done: make(chan struct{}), wake: make(chan struct{}, 1)}}
	go a.write()
	return a
}

func (a *Async) Enabled(ctx context.Context, l slog.Level) bool { return a.next.Enabled(ctx, l) }

// Handle queues r, clipped; it never waits.
func (a *Async) Handle(ctx context.Context, r slog.Record) error {
	n, ok := fits(r, a.limits)
	if ok {
		r = r.Clone() // its attributes may share an array the caller reuses
	} else {
		r, n = clipRecord(r, a.limits), a.limits.MaxRecord
	}
	if e := a.entry(ctx, n); e != nil {
		e.r = r
		a.q.push(e)
	}
	return nil
}

// entry returns, with a.q.mu held, an entry for a record to queue for
// ctx whose strings take n bytes, its handler and context set, or nil,
// counting the record dropped, when the queue is closed or full (a.q.mu
// is then unlocked). The caller fills the record in and calls a.q.push.
func (a *Async) entry(ctx context.Context, n int) *entry {
	q := a.q
	q.mu.Lock()
	e := q.take(entryBytes + n)
	if e != nil {
		e.h, e.ctx = a.next, ctx
	}
	return e
}

// take is entry's, with q.mu held, for a record that counts n bytes.
func (q *queue) take(n int) *entry {
	if !q.admit(n) {
		return nil
	}
	e := q.reuse()
	e.bytes = n
	return e
}

// admit counts a record that counts n bytes as queued and reports true
// when the queue has room for it; otherwise it counts the record dropped,
// unlocks q.mu and reports false. q.mu is held.
func (q *queue) admit(n int) bool {
	if q.closed || q.records >= q.bound || q.bytes+n > q.maxBytes {
		q.drop()
		return false
	}
	q.bytes += n
	q.records++
	return true
}

// reuse returns an empty entry: a free one, else a new one. q.mu is held.
func (q *queue) reuse() *entry {
	k := len(q.free)
	if k == 0 {
		return new(entry)
	}
	e := q.free[k-1]
	q.free = q.free[:k-1]
	return e
}

// drop counts a record dropped, and unlocks q.mu.
func (q *queue) drop() {
	q.mu.Unlock()
	q.dropped.Add(1)
	q.lost.Add(1)
}

// push queues e, filled, and ends as pushed does.
func (q *queue) push(e *entry) {
	q.pending = append(q.pending, e)
	q.open = nil
	q.pushed()
}

// pushed is push's end, once a record is queued: it unlocks q.mu and
// wakes the writer if it waits; the record that fills half the queue
// yields the caller's core (see yieldAt).
func (q *queue) pushed() {
	wake := q.idle
	q.idle = false
	behind := q.records == q.yieldAt()
	q.mu.Unlock()
	if wake {
		q.wake <- struct{}{} // never blocks: one wake-up per wait
	}
	if behind {
		runtime.Gosched()
	}
}

// yieldAt is how many records queued or being written make the caller
// that queues the last of them yield its core once (runtime.Gosched): the
// writer, runnable since its pause ended, then gets it. Without that, on
// one core (GOMAXPROCS=1), requests that hand the core to each other
// directly (a request and its handler's goroutine) run before a goroutine
// merely runnable until the scheduler preempts them, every 10 ms; the
// queue fills long before, and the log lost up to all of a busy server's
// records. A writer blocked on its output is not runnable, and the caller
// does not wait for it: the yield gives the core to whoever is runnable,
// and the caller carries on.
//
// On one core the yield sets the size of the writer's batches: it comes
// at half the queue or at yieldBatch records, the fewer.
func (q *queue) yieldAt() int { return max(min(q.bound/2, yieldBatch), 1) }

// yieldBatch is the most records a caller lets wait before it yields:
// the batch of the queue of 1,024 records the yield was measured with.
// Half the default queue, 4,096 records, is some 3 MiB of entries and
// lines, more than a core's cache keeps while the requests run.
const yieldBatch = 512

// logCall queues a call record with text arguments that fits the limits
// (see LogCall), n bytes of strings. For a JSONHandler its line is made
// there and then (see queueLine); for any other handler, or a line the
// JSONHandler's slog handler would write otherwise, the record is queued
// as it is, its arguments copied after the text of the calls queued
// before it (queue.text).
func (a *Async) logCall(ctx context.Context, c *CallRecord, n int) {
	var at time.Duration
	if c.Time.IsZero() {
		at = mono.Now()
	}
	q := a.q
	if a.queueLine(maxCallLine(c), func(dst []byte, s *lineState) ([]byte, bool) {
		rec := *c
		rec.Time = callTime(c, at)
		return appendCallLine(dst, &rec, s)
	}) {
		return
	}
	e := a.entry(ctx, n)
	if e == nil {
		return
	}
	e.call, e.isCall = *c, true
	e.call.Time = callTime(c, at)
	if len(q.text)+len(c.Arguments) > cap(q.text) {
		q.nextChunk(len(c.Arguments))
	}
	start := len(q.text)
	q.text = append(q.text, c.Arguments...)
	e.call.Arguments = q.text[start:len(q.text):len(q.text)]
	if e.call.Arguments == nil {
		e.call.Arguments = []byte{} // empty text, not the absent text nil stands for
	}
	q.push(e)
}

// queueLine queues the line appendLine makes, of at most need bytes,
// when a's handler is a JSONHandler (see queue.queueLine), and reports
// whether it did, or dropped it; for any other handler it reports false,
// and the caller queues the record.
func (a *Async) queueLine(need int, appendLine func(dst []byte, s *lineState) ([]byte, bool)) bool {
	j, ok := a.next.(*JSONHandler)
	return ok && a.q.queueLine(j, need, appendLine)
}

// queueLine queues a line for j that appendLine makes, of at most need
// bytes, with q.mu held: the line is made on the caller's core, appended
// to queue.text, and the writer only writes it. It reports false, having
// queued nothing, for a line appendLine declines (the slog handler's line
// would say something went wrong): the caller queues the record. A line
// the queue has no room for is dropped and counted, and reported queued.
//
// A line counts need against the queue's bytes, not its length: a chunk
// is left for the next when the next line's need does not fit it, so the
// chunks' unused tails are each less than a need counted, and the text
// queued takes under twice what its lines count, whatever a caller makes
// the lines' needs (a request id of escapes, counted six bytes a byte).
//
// Why on the caller's core: a record queued for the writer to format was
// written by the request's core and read by the writer's, a record's
// three cache lines and its arguments every call, and the entries the
// writer emptied were written again by the request; a line made where
// the call ran crosses once, as the text the writer writes. The time's
// text and a call's tool head are kept from line to line (lineState).
func (q *queue) queueLine(j *JSONHandler, need int, appendLine func(dst []byte, s *lineState) ([]byte, bool)) bool {
	q.mu.Lock()
	if len(q.text)+need > cap(q.text) {
		q.nextChunk(need)
	}
	e := q.open // the entry the line joins, if any
	if e != nil && e.h != j {
		e = nil
	}
	cost := need
	if e == nil {
		cost += entryBytes
	}
	if !q.admit(cost) {
		return true
	}
	start := len(q.text)
	text, ok := appendLine(q.text, &q.made)
	if !ok {
		q.bytes -= cost
		q.records--
		q.mu.Unlock()
		return false
	}
	q.text = text
	if e != nil { // its lines end at start: it takes in this one too
		e.text = q.text[start-len(e.text) : len(q.text) : len(q.text)]
		e.lines++
		e.bytes += need
		q.pushed()
		return true
	}
	e = q.reuse()
	e.h, e.lines, e.bytes = j, 1, cost
	e.text = q.text[start:len(q.text):len(q.text)]
	q.pending = append(q.pending, e)
	q.open = e
	q.pushed()
	return true
}

// maxCallLine bounds the bytes of c's line: its strings quoted (at most
// six bytes a byte, \u00XX), its arguments (compacted, never longer) and
// the rest, a time and the keys, in 256 bytes.
func maxCallLine(c *CallRecord) int {
	return 256 + 6*(len(c.Tool)+len(c.Version)+len(c.SchemaHash)+len(c.RequestID)) + len(c.Arguments)
}

// callTime is the time c is logged at: its own, or, when that is zero,
// the wall clock's time of at, the monotonic reading LogCall took for it.
func callTime(c *CallRecord, at time.Duration) time.Time {
	if c.Time.IsZero() {
		return mono.Wall(at)
	}
	return c.Time
}

// nextChunk makes q.text a chunk with room for n bytes, an emptied one
// when one is kept, the one before it kept with the filled; no entry of
// lines is added to after it. q.mu is held.
func (q *queue) nextChunk(n int) {
	q.open = nil
	if cap(q.text) > 0 {
		q.filled = append(q.filled, q.text)
	}
	if k := len(q.chunks); k > 0 && n <= textChunk {
		q.text, q.chunks[k-1] = q.chunks[k-1], nil
		q.chunks = q.chunks[:k-1]
		return
	}
	q.text = make([]byte, 0, max(n, textChunk))
}

// fits reports whether r needs no clipping: a short message and short
// string and text values (json.RawMessage, as the call log writes a
// call's arguments), within the record's bytes in all. Anything else, a
// map or a group, is clipped by clipRecord. When r fits, n is the bytes
// of its strings, as the limits count them.
func fits(r slog.Record, limits Limits) (n int, ok bool) {
	f := startFitting(r.Message, limits)
	r.Attrs(func(at slog.Attr) bool {
		n := len(at.Key)
		switch at.Value.Kind() {
		case slog.KindString:
			n += len(at.Value.String())
		case slog.KindAny:
			raw, isRaw := at.Value.Any().(json.RawMessage)
			if !isRaw {
				f.ok = false
				return false
			}
			n += len(raw)
		case slog.KindGroup, slog.KindLogValuer:
			f.ok = false
			return false
		}
		return f.attr(n)
	})
	return f.counted()
}

// fitting is fits's count, one attribute at a time: what a record that
// is not a slog record yet (a CallRecord) is checked with, by the same
// rule.
type fitting struct {
	Limits
	left int  // bytes of strings the record has left
	ok   bool // no clipping needed so far
}

// startFitting starts counting a record whose message is msg.
func startFitting(msg string, limits Limits) fitting {
	return fitting{Limits: limits, left: limits.MaxRecord - len(msg), ok: len(msg) <= limits.MaxString}
}

// attr counts an attribute whose key and value take n bytes, and reports
// whether the record still needs no clipping.
func (f *fitting) attr(n int) bool {
	f.left -= n
	f.ok = f.ok && n <= f.MaxString && f.left >= 0
	return f.ok
}

// counted is the bytes of strings counted, and whether the record needs
// no clipping.
func (f *fitting) counted() (int, bool) { return f.MaxRecord - f.left, f.ok }

func (a *Async) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *a
	c.next = a.next.WithAttrs(clipAttrs(attrs, a.limits))
	return &c
}

func (a *Async) WithGroup(name string) slog.Handler {
	c := *a
	c.next = a.next.WithGroup(Clip(name, a.limits.MaxString))
	return &c
}

// Dropped is how many records were dropped since the last warning about
// them.
func (a *Async) Dropped() int64 { return a.q.dropped.Load() }

// Lost is how many records were dropped since the Async started: a
// counter for a service's metrics.
func (a *Async) Lost() int64 { return a.q.lost.Load() }

// batchPause is how long the writer lets records gather once they come:
// a writer that waits on the queue is woken by the first record, and
// waking it is a cost (another thread scheduled) on the path of the
// request that logged. While records keep coming it sleeps this long
// between batches, and nobody wakes it; when a pause brought none, it
// waits to be woken again.
const batchPause = 500 * time.Microsecond

func (a *Async) write() {
	q := a.q
	defer close(q.done)
	var batch []*entry
	var texts [][]byte // the chunks of the batch's text (see queue.text)
	for {
		q.mu.Lock()
		batch, q.pending = q.pending, batch[:0]
		texts, q.filled = q.filled, texts[:0]
		if cap(q.text) > 0 {
			texts, q.text = append(texts, q.text), nil
		}
		q.open = nil
		if len(batch) == 0 {
			closed := q.closed
			q.idle = !closed
			q.mu.Unlock()
			a.reportDropped()
			if closed {
				return
			}
			<-q.wake
			continue
		}
		q.mu.Unlock()
		for _, e := range batch {
			a.handle(e)
		}
		q.flush()
		// The entries are emptied before the lock is taken: a request
		// that queues a record waits on it, and emptying a batch of
		// hundreds is microseconds. Under it they are counted out and
		// handed back in one copy.
		written, records := 0, 0
		for _, e := range batch {
			written += e.bytes
			records += max(e.lines, 1)
			e.clear()
		}
		q.mu.Lock()
		q.bytes -= written
		q.records -= records
		q.free = append(q.free, batch[:min(len(batch), maxFree-len(q.free))]...)
		for _, c := range texts {
			if cap(c) == textChunk && len(q.chunks) < maxKeptText/textChunk {
				q.chunks = append(q.chunks, c[:0])
			}
		}
		closed := q.closed
		q.mu.Unlock()
		clear(batch) // the next batch's slices: they keep no entry, no chunk
		clear(texts)
		if !closed {
			time.Sleep(batchPause)
		}
	}
}

// handle writes e. Only the writer goroutine calls it. Lines made as
// they were queued (see queueLine) are appended to those the writer
// holds; a record goes to its handler as a slog record.
func (a *Async) handle(e *entry) {
	a.reportDropped()
	if e.lines > 0 {
		a.q.appendLines(e.h.(*JSONHandler), e.text)
		return
	}
	a.q.flush()
	_ = e.h.Handle(context.WithoutCancel(e.ctx), e.record()) // a log that cannot be written is not the request's failure
}

// record is e's record as the slog record a handler takes.
func (e *entry) record() slog.Record {
	switch {
	case e.isCall:
		// A handler may keep the record: its arguments are copied out of
		// the queue's, which the next batch reuses. The record fits the
		// limits: logCall queues no other.
		c := e.call
		c.Arguments = bytes.Clone(c.Arguments)
		return c.Record()
	case e.isAccess:
		return e.access.Record()
	}
	return e.r
}

// maxOut is how many bytes of lines the writer appends before it writes
// them: a batch's lines go out in one Write, or a few of at most this
// size (and a line), where a Write a line was a system call a line on a
// service's stderr.
const maxOut = 64 << 10

// appendLines appends lines made for j to those the writer holds,
// writing first those it held for another handler, and the first maxOut
// bytes' whole lines once it holds maxOut: a batch's lines go out in
// writes of maxOut less a line (or of one line, when one is longer),
// whatever chunks they were made in.
func (q *queue) appendLines(j *JSONHandler, lines []byte) {
	if q.outTo != j {
		q.flush()
		q.outTo = j
	}
	q.out = append(q.out, lines...)
	for len(q.out) >= maxOut {
		cut := bytes.LastIndexByte(q.out[:maxOut], '\n') + 1
		if cut == 0 { // a line longer than maxOut, written alone
			if cut = bytes.IndexByte(q.out, '\n') + 1; cut == 0 {
				cut = len(q.out)
			}
		}
		q.outTo.writeLines(q.out[:cut])
		q.out = q.out[:copy(q.out, q.out[cut:])]
	}
}

// flush writes the lines the writer appended: before anything is handed
// to a handler (which writes on its own), and at the end of a batch.
func (q *queue) flush() {
	if len(q.out) > 0 {
		q.outTo.writeLines(q.out)
	}
	q.out = q.out[:0]
	if cap(q.out) > 2*maxOut {
		q.out = nil // a line of some megabytes must not stay
	}
}

// reportDropped writes the warning for the records dropped since the last.
// The writer calls it for every record it writes: it reads the count
// before it swaps it, since a swap writes the count's cache line even when
// nothing was dropped, and a request queueing a record then finds the
// line on the writer's core.
func (a *Async) reportDropped() {
	if a.q.dropped.Load() == 0 {
		return
	}
	n := a.q.dropped.Swap(0)
	if n == 0 {
		return
	}
	r := slog.NewRecord(time.Now(), slog.LevelWarn, "log records dropped", 0)
	r.AddAttrs(slog.Int64("dropped", n))
	a.q.flush()
	_ = a.root.Handle(context.Background(), r)
}

// Close stops queueing (later records are dropped and counted) and waits
// until what is queued is written, or ctx is done: a writer that blocks
// must not hold up a shutdown.
func (a *Async) Close(ctx context.Context) error {
	q := a.q
	q.mu.Lock()
	q.closed = true
	wake := q.idle
	q.idle = false
	q.mu.Unlock()
	if wake {
		q.wake <- struct{}{}
	}
	select {
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
