package mcp

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
)

// newRequestContext makes a request's context under parent, with a
// timeout when that is not zero; its cancel is the request's end, once
// the request is settled, cancelled or ended with its session (see
// Session.track).
func newRequestContext(parent context.Context, timeout time.Duration) *requestContext {
	rc := &requestContext{Context: parent}
	if timeout > 0 {
		rc.expires = mono.Now() + timeout
	}
	return rc
}

// requestContext is a request's context: what context.WithCancel makes,
// or context.WithTimeout with a timeout, less the work most requests never
// ask for. context.WithCancel and its cancel took a twentieth of a
// pipelined call's time on a stream's goroutines (two allocations, and an
// atomic store of the closed channel); this is one allocation, a Done
// channel only when one is asked for, and cancel, most often, a lock and
// a flag.
//
// Two ends come from outside, and each is watched only once something
// waits for the end (Done, AfterFunc: a handler waiting, a context derived
// from it, the hand-over's watch); until then Err looks for them itself.
//
//   - A timeout (Options.CallTimeout, which a service sets for every
//     call): the deadline is a reading of the monotonic clock, which Err
//     compares, and the timer is armed once something waits.
//     context.WithTimeout armed and stopped a timer for every call, three
//     allocations and some 2,600 instructions of a 28,600-instruction
//     call.
//   - The parent's end, when it can end (an HTTP request's connection or
//     its server's drain; a stream's parent never ends, the stream
//     cancels its requests itself, see Session.endRequests): Err reads
//     the parent's, and the request registers with the parent once
//     something waits. Registering every request with the parent
//     (context.WithCancel's way) locked the parent, and a service's HTTP
//     request in the handshake era paid a second registration, with the
//     server's drain, some 1.7 µs and 11 allocations a call all told.
//
// It has the parent's values, and the earlier of its deadline and the
// parent's. A context derived from it, or context.AfterFunc on it,
// registers a function through AfterFunc, which the context package looks
// for, rather than starting a goroutine to wait for Done. A new one is
// made for every request, never reused: a handler may keep its context
// past its end, and finds it ended.
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
	// unhook stops the function that ends c with its parent, registered
	// with a parent that can end once something waits for c's end.
	unhook func() bool
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

// Deadline is the earlier of the parent's deadline and the wall clock's
// time of c's own, told from the monotonic one's at each call (the two
// move together: readings apart differ by what the wall clock was set or
// slewed meanwhile), so that the context holds 88 bytes, a 96-byte
// allocation, not the 112 a cached time.Time would make it.
func (c *requestContext) Deadline() (time.Time, bool) {
	parent, ok := c.Context.Deadline()
	if c.expires == 0 {
		return parent, ok
	}
	own := time.Now().Add(c.expires - mono.Now())
	if ok && parent.Before(own) {
		return parent, true
	}
	return own, true
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
	if err := c.Context.Err(); err != nil {
		c.endWith(err)
		return c.Err()
	}
	return nil
}

// endWith ends c as its parent ended, with err.
func (c *requestContext) endWith(err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		c.end(endedDeadline)
	} else {
		c.end(endedCancelled)
	}
}

// armLocked watches for the ends that come from outside, once something
// waits for c's end: it arms the timer that ends c at its deadline, when
// c has one, and registers with the parent to end c with it, when the
// parent can end; c.mu is held. A deadline past already, or a parent
// ended already, ends c on a goroutine of its own at once.
func (c *requestContext) armLocked() {
	if c.expires != 0 && c.timer == nil {
		c.timer = time.AfterFunc(c.expires-mono.Now(), func() { c.end(endedDeadline) })
	}
	if c.unhook == nil && c.Context.Done() != nil {
		c.unhook = context.AfterFunc(c.Context, func() { c.endWith(c.Context.Err()) })
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
// does anything, and stops watching the ends from outside (the timer, the
// parent's registration).
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
	afters, timer, unhook := c.afters, c.timer, c.unhook
	c.afters = nil
	c.mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	if unhook != nil {
		unhook()
	}
	for _, a := range afters {
		a.f()
	}
}
