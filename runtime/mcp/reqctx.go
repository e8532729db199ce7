package mcp

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A requestEnd cancels a request's context once the request is settled,
// cancelled or ended with its session (see Session.track).
type requestEnd interface{ cancel() }

// requestContextOf makes a request's context under parent, ended by its
// requestEnd, with a timeout when that is not zero: a requestContext
// when parent is never done and there is no timeout, else the context
// package's, whose propagation of a parent's end or deadline the request
// then needs.
func requestContextOf(parent context.Context, timeout time.Duration) (context.Context, requestEnd) {
	switch {
	case timeout > 0:
		ctx, cancel := context.WithTimeout(parent, timeout)
		return ctx, cancelFunc(cancel)
	case parent.Done() == nil: // ServeStream's requests', say
		rc := &requestContext{Context: parent}
		return rc, rc
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
// It has the parent's values and deadline (none, since it is never done).
// A context derived from it, or context.AfterFunc on it, registers a
// function through AfterFunc, which the context package looks for, rather
// than starting a goroutine to wait for Done. A new one is made for every
// request, never reused: a handler may keep its context past its end, and
// finds it cancelled.
type requestContext struct {
	context.Context // the parent

	cancelled atomic.Bool // read without mu by Err
	mu        sync.Mutex
	done      chan struct{}   // made by the first Done, closed by cancel
	afters    []*afterRequest // registered by AfterFunc, not yet called
}

// afterRequest is one function registered through AfterFunc: its own
// pointer, so that stop finds it among the others.
type afterRequest struct{ f func() }

// closedDone is the Done of a context cancelled before anyone asked.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

func (c *requestContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.cancelled.Load() {
			return closedDone
		}
		c.done = make(chan struct{})
	}
	return c.done
}

func (c *requestContext) Err() error {
	if c.cancelled.Load() {
		return context.Canceled
	}
	return nil
}

// AfterFunc arranges for f to be called once c is cancelled, and returns
// a stop that keeps it from being called (true when it did). The context
// package calls it for a context derived from c (f cancels that one) and
// for context.AfterFunc(c, g) (f starts g in a goroutine): f itself is
// short, and is called on the goroutine that cancels c, or on a goroutine
// of its own when c was cancelled already.
func (c *requestContext) AfterFunc(f func()) (stop func() bool) {
	a := &afterRequest{f: f}
	c.mu.Lock()
	if c.cancelled.Load() {
		c.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	c.afters = append(c.afters, a)
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

// cancel cancels c: Done is closed, Err is context.Canceled, and the
// functions registered through AfterFunc are called. Only the first call
// does anything.
func (c *requestContext) cancel() {
	c.mu.Lock()
	if c.cancelled.Load() {
		c.mu.Unlock()
		return
	}
	c.cancelled.Store(true)
	if c.done != nil {
		close(c.done)
	}
	afters := c.afters
	c.afters = nil
	c.mu.Unlock()
	for _, a := range afters {
		a.f()
	}
}
