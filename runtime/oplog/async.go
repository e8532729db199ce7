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
	// place in the queue (entryBytes, 568 bytes on a 64-bit machine)
	// and the bytes of its strings as Limits counts them (a record that
	// does not fit the limits is clipped before it is queued). Zero
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
	writing int      // records the writer took and has not finished
	bytes   int      // of the records queued or being written
	free    []*entry // entries to reuse
	idle    bool     // the writer waits on wake
	closed  bool
	// args is the chunk the arguments of the next call record queued are
	// copied into, after those of the records before it; filled are the
	// chunks filled since the writer last took the queue. Each record's
	// Arguments are a slice of a chunk (see logCall). The writer takes
	// the chunks with the records, and gives them back to chunks, emptied,
	// once it wrote them.
	args   []byte
	filled [][]byte
	chunks [][]byte

	out   []byte       // the writer's: lines it appended itself, not yet written
	outTo *JSONHandler // the writer's: the handler out is for
	state lineState    // the writer's: what its lines share
}

// entry is a record waiting to be written: r, or access when isAccess, or
// call when isCall, whose arguments are in the queue's args.
// ctx is the caller's, which may be cancelled by the time the record is
// written: the writer hands the next handler context.WithoutCancel of it,
// made there rather than on the caller's path.
//
// Entries are reused: the writer gives the ones it wrote back to the
// queue, so that a call's record, arguments and all, costs its request
// no allocation, and queueing it is a slice append under a lock that is
// held for a copy.
//
// A call's record, what a busy server queues most, is the entry's first
// fields, and an entry is cleared of the record it held only (see
// clear): a call's entry touches its first three cache lines of nine, and
// a queue's entries stay in the core's cache for longer.
type entry struct {
	h        slog.Handler
	ctx      context.Context
	isCall   bool
	isAccess bool
	at       monotonic // when call was logged, if its Time is zero
	bytes    int       // what the record counts against the queue's maxBytes
	call     CallRecord
	access   AccessRecord
	r        slog.Record
}

// clear empties e for reuse: every reference it held is dropped, and
// only the fields its record used are written.
func (e *entry) clear() {
	switch {
	case e.isCall:
		e.call = CallRecord{}
	case e.isAccess:
		e.access = AccessRecord{}
	default:
		e.r = slog.Record{}
	}
	e.h, e.ctx, e.isCall, e.isAccess, e.at, e.bytes = nil, nil, false, false, 0, 0
}

// entryBytes is what an entry counts against AsyncOptions.BufferBytes
// besides its strings.
const entryBytes = int(unsafe.Sizeof(entry{}))

// monotonic is a reading of the monotonic clock: the time since
// clockBase.
type monotonic time.Duration

// clockBase is the origin of monotonic readings.
var clockBase = time.Now()

// monotonicNow reads the monotonic clock only (time.Since of a time
// that has a monotonic reading does not read the wall clock).
func monotonicNow() monotonic { return monotonic(time.Since(clockBase)) }

// wallClock turns monotonic readings into the wall clock's time, from
// one reading of both clocks: the writer takes one for every batch it
// writes, so a record's time is off by no more than the two clocks drift
// apart while it is queued (microseconds of a clock slewed at its
// fastest, against the seconds a record may wait).
type wallClock struct {
	wall time.Time
	mono monotonic
}

func readWallClock() wallClock {
	return wallClock{wall: time.Now(), mono: monotonicNow()}
}

// at is the wall clock's time of the monotonic reading m.
func (w wallClock) at(m monotonic) time.Time {
	return w.wall.Add(time.Duration(m - w.mono)).Round(0)
}

// argsChunk is the size of the chunks call records' arguments are copied
// into (see queue.args): a record's arguments are at most a record's
// string (Limits.MaxString, 4 KiB by default), and arguments larger than
// a chunk get a chunk of their own. A full chunk is followed by another,
// never grown: a burst of records costs its requests a chunk taken or
// made every few dozen records, never a copy of what came before.
const argsChunk = 16 << 10

// maxKeptArgs bounds the chunks of arguments kept for reuse, and maxFree
// the entries: a burst that filled the queue must not leave it holding
// the burst's memory. With both, what is kept is at most 1024 ×
// entryBytes and 256 KiB, under 1 MiB, and as much as a steady stream of
// calls a few hundred microseconds long needs (a 500 µs batch of calls a
// microsecond apart with 200 bytes of arguments each is 100 KiB).
const (
	maxKeptArgs = 256 << 10
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
	if q.closed || len(q.pending)+q.writing >= q.bound || q.bytes+n > q.maxBytes {
		q.mu.Unlock()
		q.dropped.Add(1)
		q.lost.Add(1)
		return nil
	}
	q.bytes += n
	var e *entry
	if k := len(q.free); k > 0 {
		e = q.free[k-1]
		q.free = q.free[:k-1]
	} else {
		e = new(entry)
	}
	e.bytes = n
	return e
}

// push queues e, filled, unlocks q.mu, and wakes the writer if it waits.
// The record that fills half the queue yields the caller's core (see
// yieldAt).
func (q *queue) push(e *entry) {
	q.pending = append(q.pending, e)
	wake := q.idle
	q.idle = false
	behind := len(q.pending)+q.writing == q.yieldAt()
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
// (see LogCall), n bytes of strings, as it is, its arguments copied after
// those of the records queued before it (queue.args): the writer writes
// its line (see appendLine). One buffer for a batch's arguments, written
// in order, rather than one an entry: a record's arguments land next to
// the last record's, in memory the writer only read.
func (a *Async) logCall(ctx context.Context, c *CallRecord, n int) {
	var at monotonic
	if c.Time.IsZero() {
		at = monotonicNow()
	}
	e := a.entry(ctx, n)
	if e == nil {
		return
	}
	e.call, e.isCall, e.at = *c, true, at
	q := a.q
	if len(q.args)+len(c.Arguments) > cap(q.args) {
		q.nextChunk(len(c.Arguments))
	}
	start := len(q.args)
	q.args = append(q.args, c.Arguments...)
	e.call.Arguments = q.args[start:len(q.args):len(q.args)]
	if e.call.Arguments == nil {
		e.call.Arguments = []byte{} // empty text, not the absent text nil stands for
	}
	q.push(e)
}

// nextChunk makes q.args a chunk with room for n bytes of arguments, an
// emptied one when one is kept, the one before it kept with the filled;
// q.mu is held.
func (q *queue) nextChunk(n int) {
	if cap(q.args) > 0 {
		q.filled = append(q.filled, q.args)
	}
	if k := len(q.chunks); k > 0 && n <= argsChunk {
		q.args, q.chunks[k-1] = q.chunks[k-1], nil
		q.chunks = q.chunks[:k-1]
		return
	}
	q.args = make([]byte, 0, max(n, argsChunk))
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
	var args [][]byte // the chunks of the batch's arguments (see queue.args)
	for {
		q.mu.Lock()
		batch, q.pending = q.pending, batch[:0]
		args, q.filled = q.filled, args[:0]
		if cap(q.args) > 0 {
			args, q.args = append(args, q.args), nil
		}
		q.writing = len(batch)
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
		clock := readWallClock()
		for _, e := range batch {
			a.handle(e, clock)
		}
		q.flush()
		// The entries are emptied before the lock is taken: a request
		// that queues a record waits on it, and emptying a batch of
		// hundreds is microseconds. Under it they are counted out and
		// handed back in one copy.
		written := 0
		for _, e := range batch {
			written += e.bytes
			e.clear()
		}
		q.mu.Lock()
		q.bytes -= written
		q.free = append(q.free, batch[:min(len(batch), maxFree-len(q.free))]...)
		for _, c := range args {
			if cap(c) == argsChunk && len(q.chunks) < maxKeptArgs/argsChunk {
				q.chunks = append(q.chunks, c[:0])
			}
		}
		q.writing = 0
		closed := q.closed
		q.mu.Unlock()
		clear(batch) // the next batch's slices: they keep no entry, no chunk
		clear(args)
		if !closed {
			time.Sleep(batchPause)
		}
	}
}

// handle writes e; clock gives a call record logged without a time its
// time. Only the writer goroutine calls it. A call or access record for a
// JSONHandler is appended as a line by the writer itself (see
// appendLine); anything else, or a line the writer declines, goes to the
// handler as a slog record.
func (a *Async) handle(e *entry, clock wallClock) {
	a.reportDropped()
	if e.isCall && e.call.Time.IsZero() {
		e.call.Time = clock.at(e.at)
	}
	if j, ok := e.h.(*JSONHandler); ok && (e.isCall || e.isAccess) && a.q.appendLine(j, e) {
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

// appendLine appends the line of e, a call or access record, for j to
// the lines the writer holds, writing first those it held for another
// handler, and those it holds once they pass maxOut. It reports whether
// it did; where the line would say something went wrong (see
// appendCallLine), nothing is kept of it.
func (q *queue) appendLine(j *JSONHandler, e *entry) bool {
	if q.outTo != j {
		q.flush()
		q.outTo = j
	}
	start := len(q.out)
	var ok bool
	if e.isCall {
		q.out, ok = appendCallLine(q.out, &e.call, &q.state)
	} else {
		q.out, ok = appendAccessLine(q.out, &e.access, &q.state.stamp)
	}
	if !ok {
		q.out = q.out[:start]
		return false
	}
	if len(q.out) >= maxOut {
		q.flush()
	}
	return true
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
// line, which holds the queue's lock, on the writer's core.
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
