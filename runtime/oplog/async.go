package oplog

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultBuffer is AsyncOptions.Buffer when zero.
const DefaultBuffer = 1024

// AsyncOptions configure NewAsync. The zero value is usable.
type AsyncOptions struct {
	// Limits clip every record as Capped does.
	Limits Limits
	// Buffer bounds the records waiting to be written; zero means
	// DefaultBuffer. With the default limits the records waiting take at
	// most 16 MiB.
	Buffer int
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
	items   chan item
	dropped atomic.Int64
	done    chan struct{} // closed when the writer goroutine ends

	mu     sync.RWMutex // held for reading while queueing, for writing by Close
	closed bool
}

// item is a record waiting to be written: r, or call when isCall. ctx is
// the caller's, which may be cancelled by the time the record is written:
// the writer hands the next handler context.WithoutCancel of it, made
// there rather than on the caller's path.
type item struct {
	h      slog.Handler
	ctx    context.Context
	r      slog.Record
	call   CallRecord
	isCall bool
}

// NewAsync starts the goroutine that writes to next.
func NewAsync(next slog.Handler, opts AsyncOptions) *Async {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	a := &Async{next: next, root: next, limits: opts.Limits.withDefaults(),
		q: &queue{items: make(chan item, opts.Buffer), done: make(chan struct{})}}
	go a.write()
	return a
}

func (a *Async) Enabled(ctx context.Context, l slog.Level) bool { return a.next.Enabled(ctx, l) }

// Handle queues r, clipped; it never waits.
func (a *Async) Handle(ctx context.Context, r slog.Record) error {
	q := a.q
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		q.dropped.Add(1)
		return nil
	}
	if fits(r, a.limits) {
		r = r.Clone() // its attributes may share an array the caller reuses
	} else {
		r = clipRecord(r, a.limits)
	}
	a.queue(item{h: a.next, ctx: ctx, r: r})
	return nil
}

// queue queues it, or drops and counts it when the queue is full. The
// caller holds q.mu for reading.
func (a *Async) queue(it item) {
	select {
	case a.q.items <- it:
	default:
		a.q.dropped.Add(1)
	}
}

// logCall queues a call record (see LogCall) as it is, its arguments as
// text: the writer makes its slog record and clips it as Handle would
// (see handle). A record whose arguments are a preview value goes through
// Handle, clipped now: the value is the caller's.
func (a *Async) logCall(ctx context.Context, c *CallRecord) {
	if c.Arguments == nil {
		_ = a.Handle(ctx, c.Record())
		return
	}
	q := a.q
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		q.dropped.Add(1)
		return
	}
	a.queue(item{h: a.next, ctx: ctx, call: *c, isCall: true})
}

// fits reports whether r needs no clipping: a short message and short
// string and text values (json.RawMessage, as the call log writes a
// call's arguments), within the record's bytes in all. Anything else, a
// map or a group, is clipped by clipRecord.
func fits(r slog.Record, limits Limits) bool {
	left := limits.MaxRecord - len(r.Message)
	ok := len(r.Message) <= limits.MaxString
	r.Attrs(func(at slog.Attr) bool {
		n := len(at.Key)
		switch at.Value.Kind() {
		case slog.KindString:
			n += len(at.Value.String())
		case slog.KindAny:
			raw, isRaw := at.Value.Any().(json.RawMessage)
			if !isRaw {
				ok = false
				return false
			}
			n += len(raw)
		case slog.KindGroup, slog.KindLogValuer:
			ok = false
			return false
		}
		left -= n
		ok = ok && n <= limits.MaxString && left >= 0
		return ok
	})
	return ok
}

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

// batchPause is how long the writer lets records gather once they come:
// a writer that waits on the queue is woken by every record, and waking
// it is a cost (another thread scheduled) on the path of the request that
// logged. While records keep coming it sleeps this long between batches,
// and nobody wakes it; when a pause brought none, it waits on the queue
// again.
const batchPause = 500 * time.Microsecond

func (a *Async) write() {
	defer close(a.q.done)
	for it := range a.q.items {
		a.handle(it)
		for {
			time.Sleep(batchPause)
			n, open := a.drain()
			if !open {
				a.reportDropped()
				return
			}
			if n == 0 {
				break
			}
		}
	}
	a.reportDropped()
}

// drain writes the records queued now, without waiting for more; open is
// false once the queue is closed and empty.
func (a *Async) drain() (n int, open bool) {
	for {
		select {
		case it, ok := <-a.q.items:
			if !ok {
				return n, false
			}
			a.handle(it)
			n++
		default:
			return n, true
		}
	}
}

func (a *Async) handle(it item) {
	a.reportDropped()
	r := it.r
	if it.isCall {
		if r = it.call.Record(); !fits(r, a.limits) {
			r = clipRecord(r, a.limits)
		}
	}
	_ = it.h.Handle(context.WithoutCancel(it.ctx), r) // a log that cannot be written is not the request's failure
}

// reportDropped writes the warning for the records dropped since the last.
func (a *Async) reportDropped() {
	n := a.q.dropped.Swap(0)
	if n == 0 {
		return
	}
	r := slog.NewRecord(time.Now(), slog.LevelWarn, "log records dropped", 0)
	r.AddAttrs(slog.Int64("dropped", n))
	_ = a.root.Handle(context.Background(), r)
}

// Close stops queueing (later records are dropped and counted) and waits
// until what is queued is written, or ctx is done: a writer that blocks
// must not hold up a shutdown.
func (a *Async) Close(ctx context.Context) error {
	q := a.q
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.items)
	}
	q.mu.Unlock()
	select {
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
