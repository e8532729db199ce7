package mcp

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
)

// A requestEnd cancels a request's context once the request is settled,
// cancelled or ended with its session (see Session.track).
type requestEnd interface{ cancel() }

// requestContextOf makes a request's context under parent, ended by its
// requestEnd, with a timeout when that is not zero: a requestContext
// when parent is never done, else the context package's, whose
// propagation of a parent's end the request then needs.
func requestContextOf(parent context.Context, timeout time.Duration) (context.Context, requestEnd) {
	switch {
	case parent.Done() == nil: // ServeStream's requests', say
		rc := &requestContext{Context: parent}
		if timeout > 0 {
			rc.expires = mono.Now() + timeout
		}
		return rc, rc
	case timeout > 0:
		ctx, cancel := context.WithTimeout(parent, timeout)
		return ctx, cancelFunc(cancel)
	default:
		ctx, cancel := context.WithCancel(parent)
		return ctx, cancelFunc(cancel)
	}
}

// cancelFunc is a context.CancelFunc as a requestEnd: a func value is
// stored in an interface without an allocation.
type cancelFunc context.CancelFunc

func (f cancelFunc) cancel() { f() }

// requestContext is a request's context when its parent is never done,
// as ServeStream's requests' is (the stream cancels them itself, see
// Session.endRequests): what context.WithCancel makes, less the work such
// a parent does not need. context.WithCancel and its cancel took a twentieth
// of a pipelined call's time on the stream's goroutines (two allocations,
// and an atomic store of the closed channel that most requests never ask
// for); this is one allocation, a Done channel only when one is asked for,
// and cancel, most often, a lock and a flag.
//
// With a timeout (Options.CallTimeout, which a service sets for every
// call) it is what context.WithTimeout makes, less its timer: the
// deadline is a reading of the monotonic clock, which Err compares, and a
// timer is armed only once something waits for the end (Done, AfterFunc:
// a handler waiting, a context derived from it, the hand-over's watch).
// context.WithTimeout armed and stopped a timer for every call, three
// allocations and some 2,600 instructions of a 28,600-instruction call.
//
// It has the parent's values, and its deadline when it has a timeout
// (none otherwise, the parent being never done). A context derived from
// it, or context.AfterFunc on it, registers a function through AfterFunc,
// which the context package looks for, rather than starting a goroutine
// to wait for Done. A new one is made for every request, never reused: a
// handler may keep its context past its end, and finds it ended.
type requestContext struct {
	context.Context // the parent

	// expires, when not zero, is the monotonic clock's reading (mono.Now)
	// at which the context ends with DeadlineExceeded.
	expires time.Duration

	mu     sync.Mutex
	ended  atomic.Uint32   // live, or why it ended (see ended*); read without mu by Err
	done   chan struct{}   // made by the first Done, closed as c ends
	afters []*afterRequest // registered by AfterFunc, not yet called
	timer  *time.Timer     // ends c at its deadline, once something waits for the end
}

// Why a requestContext ended.
const (
	live uint32 = iota
	endedCancelled
	endedDeadline
)

// afterRequest is one function registered through AfterFunc: its own
// pointer, so that stop finds it among the others.
type afterRequest struct{ f func() }

// closedDone is the Done of a context cancelled before anyone asked.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Deadline is the wall clock's time of the deadline, told from the
// monotonic one's at each call (the two move together: readings apart
// differ by what the wall clock was set or slewed meanwhile), so that
// the context holds 80 bytes, not the 112 a cached time.Time took.
func (c *requestContext) Deadline() (time.Time, bool) {
	if c.expires == 0 {
		return c.Context.Deadline()
	}
	return time.Now().Add(c.expires - mono.Now()), true
}

func (c *requestContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.ended.Load() != live {
			return closedDone
		}
		c.done = make(chan struct{})
		c.armLocked()
	}
	return c.done
}

func (c *requestContext) Err() error {
	switch c.ended.Load() {
	case endedCancelled:
		return context.Canceled
	case endedDeadline:
		return context.DeadlineExceeded
	}
	if c.expires != 0 && mono.Now() >= c.expires {
		c.end(endedDeadline)
		return c.Err() // or Canceled, had it ended so meanwhile
	}
	return nil
}

// armLocked arms the timer that ends c at its deadline, when c has one
// and it is not armed yet; c.mu is held. A deadline past already ends c
// on the timer's goroutine at once.
func (c *requestContext) armLocked() {
	if c.expires != 0 && c.timer == nil {
		c.timer = time.AfterFunc(c.expires-mono.Now(), func() { c.end(endedDeadline) })
	}
}

// AfterFunc arranges for f to be called once c ends, and returns a stop
// that keeps it from being called (true when it did). The context package
// calls it for a context derived from c (f cancels that one) and for
// context.AfterFunc(c, g) (f starts g in a goroutine): f itself is short,
// and is called on the goroutine that ends c, or on a goroutine of its
// own when c had ended already.
func (c *requestContext) AfterFunc(f func()) (stop func() bool) {
	a := &afterRequest{f: f}
	c.mu.Lock()
	if c.ended.Load() != live {
		c.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	c.afters = append(c.afters, a)
	c.armLocked()
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.afters, a)
		if i < 0 {
			return false // called, or stopped before
		}
		c.afters = slices.Delete(c.afters, i, i+1)
		return true
	}
}

// cancel cancels c, the request's end: Done is closed, Err is
// context.Canceled, and the functions registered through AfterFunc are
// called, unless c ended at its deadline before.
func (c *requestContext) cancel() { c.end(endedCancelled) }

// end ends c for why (endedCancelled, endedDeadline): only the first call
// does anything, and stops the timer.
func (c *requestContext) end(why uint32) {
	c.mu.Lock()
	if c.ended.Load() != live {
		c.mu.Unlock()
		return
	}
	c.ended.Store(why)
	if c.done != nil {
		close(c.done)
	}
	afters, timer := c.afters, c.timer
	c.afters = nil
	c.mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	for _, a := range afters {
		a.f()
	}
}
