package mcp

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

type reqCtxKey struct{}

// mustHaveEnded fails t unless rc has ended with want: its Err, and its
// Done closed already, asked for or not before.
func mustHaveEnded(t *testing.T, rc *requestContext, want error) {
	t.Helper()
	if err := rc.Err(); !errors.Is(err, want) {
		t.Errorf("Err %v, want %v", err, want)
	}
	select {
	case <-rc.Done():
	default:
		t.Errorf("Done open after Err said %v", rc.Err())
	}
}

// A parent that can end ends its requests: seen by Err with nothing
// waiting and nothing registered with the parent, and through Done and a
// derived context once something waits, when the request registers.
func TestRequestContextFollowsItsParent(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	rc := newRequestContext(parent, 0)
	if rc.Err() != nil || rc.unhook != nil {
		t.Fatalf("before the parent's end: Err %v, registered %v", rc.Err(), rc.unhook != nil)
	}
	cancelParent()
	if rc.unhook != nil {
		t.Error("registered with the parent with nothing waiting")
	}
	mustHaveEnded(t, rc, context.Canceled)

	parent, cancelParent = context.WithCancel(context.Background())
	rc = newRequestContext(parent, 0)
	done := rc.Done()
	child, cancelChild := context.WithCancel(rc)
	defer cancelChild()
	if rc.unhook == nil {
		t.Fatal("Done asked for and not registered with the parent")
	}
	cancelParent()
	for _, done := range []<-chan struct{}{done, child.Done()} {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the parent's end did not reach a waiter")
		}
	}
	if !errors.Is(rc.Err(), context.Canceled) || !errors.Is(child.Err(), context.Canceled) {
		t.Errorf("Err %v, the child's %v", rc.Err(), child.Err())
	}

	// A parent ended at its deadline ends the request so.
	parent, cancelParent = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancelParent()
	rc = newRequestContext(parent, 0)
	<-rc.Done()
	if !errors.Is(rc.Err(), context.DeadlineExceeded) {
		t.Errorf("under a parent past its deadline: Err %v", rc.Err())
	}
}

// A request's end takes back its registration with the parent: the
// parent, a connection's or a server's, outlives many requests.
func TestRequestContextUnregistersAtItsEnd(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	rc := newRequestContext(parent, 0)
	rc.Done()
	rc.cancel()
	if rc.unhook() {
		t.Error("still registered with the parent after the request's end")
	}
	if parent.Err() != nil || !errors.Is(rc.Err(), context.Canceled) {
		t.Errorf("parent %v, request %v", parent.Err(), rc.Err())
	}
}

// A call's deadline is the earlier of its timeout's and its parent's.
func TestRequestContextDeadlineIsTheEarlier(t *testing.T) {
	rc := newRequestContext(context.Background(), time.Hour)
	defer rc.cancel()
	if d, ok := rc.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Errorf("a call with a timeout has deadline %v, %v", d, ok)
	}
	soon, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	want, _ := soon.Deadline()
	rc = newRequestContext(soon, time.Hour)
	defer rc.cancel()
	if d, ok := rc.Deadline(); !ok || !d.Equal(want) {
		t.Errorf("under a parent due sooner: deadline %v, %v; want the parent's %v", d, ok, want)
	}
	late, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	rc = newRequestContext(late, time.Minute)
	defer rc.cancel()
	if d, ok := rc.Deadline(); !ok || time.Until(d) > time.Minute {
		t.Errorf("under a parent due later: deadline %v, %v; want the timeout's", d, ok)
	}
}

// A request's context is cancelled as context.WithCancel's is: Done
// closed whether asked for before or after, Err and Cause Canceled, the
// parent's values kept, and a second cancel harmless.
func TestRequestContextCancels(t *testing.T) {
	parent := context.WithValue(context.WithoutCancel(context.Background()), reqCtxKey{}, "v")
	rc := newRequestContext(parent, 0)
	if rc.Err() != nil {
		t.Fatalf("Err before cancel: %v", rc.Err())
	}
	if _, ok := rc.Deadline(); ok {
		t.Error("a deadline the parent does not have")
	}
	if got := rc.Value(reqCtxKey{}); got != "v" {
		t.Errorf("Value = %v, want the parent's", got)
	}
	before := rc.Done()
	select {
	case <-before:
		t.Fatal("Done closed before cancel")
	default:
	}
	rc.cancel()
	rc.cancel()
	for name, done := range map[string]<-chan struct{}{"before": before, "after": rc.Done()} {
		select {
		case <-done:
		default:
			t.Errorf("Done asked for %s cancel is not closed", name)
		}
	}
	if !errors.Is(rc.Err(), context.Canceled) || !errors.Is(context.Cause(rc), context.Canceled) {
		t.Errorf("Err %v, Cause %v, want context.Canceled", rc.Err(), context.Cause(rc))
	}
	// Cancelled before anyone asked for Done.
	quiet := newRequestContext(parent, 0)
	quiet.cancel()
	select {
	case <-quiet.Done():
	default:
		t.Error("Done of a context cancelled before it was asked for is not closed")
	}
}

// Contexts derived from a request's context, however many, are cancelled
// with it and wait on no goroutine of their own (the context package
// starts one per child for a parent it does not know, unless the parent
// has AfterFunc); one stopped by its own cancel is left out.
func TestRequestContextChildren(t *testing.T) {
	rc := newRequestContext(context.Background(), 0)
	before := runtime.NumGoroutine()
	var children []context.Context
	for range 100 {
		c, cancel := context.WithCancel(rc)
		defer cancel()
		children = append(children, c)
	}
	timed, cancelTimed := context.WithTimeout(rc, time.Hour)
	defer cancelTimed()
	early, cancelEarly := context.WithCancel(rc)
	cancelEarly()
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after deriving 102 contexts, %d before", n, before)
	}
	if len(rc.afters) != 101 {
		t.Errorf("%d functions registered, want the 101 children not cancelled", len(rc.afters))
	}
	rc.cancel()
	for i, c := range append(children, timed, early) {
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("child %d not cancelled", i)
		}
		if !errors.Is(c.Err(), context.Canceled) {
			t.Errorf("child %d: Err %v", i, c.Err())
		}
	}
}

// context.AfterFunc on a request's context runs its function once the
// context is cancelled, unless stopped first; on one cancelled already,
// at once.
func TestRequestContextAfterFunc(t *testing.T) {
	rc := newRequestContext(context.Background(), 0)
	ran := make(chan string, 3)
	context.AfterFunc(rc, func() { ran <- "kept" })
	stop := context.AfterFunc(rc, func() { ran <- "stopped" })
	if !stop() {
		t.Error("stop before cancel reports false")
	}
	rc.cancel()
	if got := <-ran; got != "kept" {
		t.Errorf("ran %q", got)
	}
	context.AfterFunc(rc, func() { ran <- "late" })
	if got := <-ran; got != "late" {
		t.Errorf("ran %q", got)
	}
	select {
	case got := <-ran:
		t.Errorf("%q ran too", got)
	case <-time.After(50 * time.Millisecond):
	}
}

// A call's context with a timeout ends at its deadline as
// context.WithTimeout's does: Done closed, Err and Cause
// DeadlineExceeded, its children ended, its AfterFunc functions run; the
// deadline is there to read before.
func TestRequestContextDeadline(t *testing.T) {
	rc := newRequestContext(context.Background(), 30*time.Millisecond)
	if d, ok := rc.Deadline(); !ok || time.Until(d) > 30*time.Millisecond || time.Until(d) < 0 {
		t.Errorf("deadline %v, %v: not within the timeout", d, ok)
	}
	if rc.Err() != nil {
		t.Fatalf("ended at once: %v", rc.Err())
	}
	child, cancelChild := context.WithCancel(rc)
	defer cancelChild()
	ran := make(chan struct{})
	context.AfterFunc(rc, func() { close(ran) })
	for _, done := range []<-chan struct{}{rc.Done(), child.Done(), ran} {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("not ended at the deadline")
		}
	}
	for _, ctx := range []context.Context{rc, child} {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Errorf("Err %v, Cause %v", ctx.Err(), context.Cause(ctx))
		}
	}
	rc.cancel() // the request's end, after its deadline
	if !errors.Is(rc.Err(), context.DeadlineExceeded) {
		t.Errorf("the end after the deadline made Err %v", rc.Err())
	}

	// A handler that waits on Done alone is woken at the deadline too.
	select {
	case <-newRequestContext(context.Background(), 10*time.Millisecond).Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done alone not closed at the deadline")
	}
}

// Nothing waiting for a call's end arms no timer: Err reads the clock,
// and finds the deadline passed.
func TestRequestContextDeadlineUnwatched(t *testing.T) {
	rc := newRequestContext(context.Background(), time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	if rc.timer != nil {
		t.Fatal("a timer armed with nothing waiting")
	}
	mustHaveEnded(t, rc, context.DeadlineExceeded)
}

// A call that ends before its deadline is cancelled, and stays so: its
// timer is stopped, and the deadline passing changes nothing.
func TestRequestContextEndsBeforeDeadline(t *testing.T) {
	rc := newRequestContext(context.Background(), 20*time.Millisecond)
	done := rc.Done() // arms the timer
	if rc.timer == nil {
		t.Fatal("Done asked for and no timer armed")
	}
	rc.cancel()
	<-done
	time.Sleep(40 * time.Millisecond)
	if !errors.Is(rc.Err(), context.Canceled) {
		t.Errorf("Err %v after the deadline passed, want Canceled", rc.Err())
	}
}
