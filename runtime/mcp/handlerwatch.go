package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
)

// handlerWatch watches the tool calls ServeIncoming runs in place while
// their handlers run, so that a call whose context ends is answered then
// (inflight.abandon) even if its handler has not returned: what a lane
// does for a stream's request, for calls that each run on a goroutine of
// their own (an HTTP request's).
//
// The watch begins once a handler has run for watchAfter: a call that
// returns sooner, most of them, costs a map entry and a reading of the
// monotonic clock rather than a context.AfterFunc on its context (six
// allocations, the context's channel, its map of children, the watch and
// its stop function, and 1.5 µs of an HTTP call's 19.6 in process in the
// profile of BenchmarkHTTPHandler). One timer, armed while handlers run
// unwatched, fires when the earliest of them reaches watchAfter and
// starts their watches. A call whose context ends sooner is answered
// when its watch begins, as a stream's is.
//
// The zero handlerWatch is ready to use.
type handlerWatch struct {
	mu sync.Mutex
	// running are the handlers running unwatched, by when they began
	// (mono.Now). A handler whose watch begins leaves it, so that
	// the timer's scan covers only handlers younger than watchAfter,
	// however many long ones run.
	running map[*inflight]time.Duration
	timer   *time.Timer
	armed   bool // timer will fire
}

// watchAfter is how long a handler runs unwatched. It is longer than a
// stream's handOverAfter, which also frees the stream's reading for the
// requests behind: a watch only answers early a call whose context has
// ended, for which a millisecond is soon enough. The timer is armed when
// a handler begins with none armed, and fires watchAfter later; each
// arming of a timer due before the runtime's next wake-up wakes the
// thread waiting on the network (a write to its eventfd), and each
// firing runs the timer's function on a goroutine of its own. At 50 µs,
// a client making one call after another (an HTTP call is some 50 µs
// here) armed it and had it fire once a call: 0.76 writes, one futex
// wake and 0.84 spinning thread's sleeps a call more than a bare
// net/http handler's (strace -f of BenchmarkHTTP, one client).
const watchAfter = time.Millisecond

// begin notes that f's handler begins to run.
func (w *handlerWatch) begin(f *inflight) {
	began := f.began // its request's reading (see flight.began), microseconds before
	if began == 0 {
		began = mono.Now()
	}
	w.mu.Lock()
	if w.running == nil {
		w.running = map[*inflight]time.Duration{}
		w.timer = time.AfterFunc(time.Hour, w.fire)
		w.timer.Stop()
	}
	w.running[f] = began
	arm := !w.armed
	w.armed = true
	w.mu.Unlock()
	if arm {
		w.timer.Reset(watchAfter)
	}
}

// end notes that f's handler has returned: its watch, if it began, ends,
// and an answer being given early is waited for.
func (w *handlerWatch) end(f *inflight) {
	w.mu.Lock()
	delete(w.running, f)
	stop := f.stopWatch
	f.stopWatch = nil
	w.mu.Unlock()
	if stop == nil {
		return
	}
	if stop() {
		f.early.Done() // abandonEarly is never to run
	}
	f.early.Wait()
}

// fire starts the watch of every handler that has run for watchAfter,
// and is armed again for the next of them.
func (w *handlerWatch) fire() {
	now := mono.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	next := time.Duration(-1)
	for f, began := range w.running {
		if ran := now - began; ran >= watchAfter {
			f.early.Add(1)
			f.stopWatch = context.AfterFunc(f.req.ctx, f.abandonEarly)
			delete(w.running, f)
		} else if left := watchAfter - ran; next < 0 || left < next {
			next = left
		}
	}
	if next < 0 {
		w.armed = false
		return
	}
	w.timer.Reset(next)
}
