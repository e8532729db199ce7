package mcphttp

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"testing"
	"time"
)

type requestKey struct{}

// A handshake-era request's context keeps the request's values, outlives
// its connection, and ends at the server's drain: contexts derived from
// it, however many and however wrapped, register with the drain rather
// than wait on a goroutine each, and end with it.
func TestRequestContextEndsAtTheDrain(t *testing.T) {
	drain, cancelDrain := context.WithCancel(context.Background())
	defer cancelDrain()
	conn, dropConn := context.WithCancel(context.WithValue(withDrain(drain), requestKey{}, "v"))
	r, err := http.NewRequestWithContext(conn, http.MethodPost, "http://127.0.0.1/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := requestContext(r)
	if got := ctx.Value(requestKey{}); got != "v" {
		t.Errorf("Value = %v, want the request's", got)
	}
	dropConn()
	if ctx.Err() != nil {
		t.Fatalf("a dropped connection ended the request: %v", ctx.Err())
	}

	wrapped := context.WithValue(ctx, requestKey{}, "w")
	before := runtime.NumGoroutine()
	var children []context.Context
	for range 100 {
		c, cancel := context.WithCancel(wrapped)
		defer cancel()
		children = append(children, c)
	}
	// A goroutine each would be 100 more; a few may come and go of the
	// runtime's or other tests' timers meanwhile.
	if n := runtime.NumGoroutine(); n > before+10 {
		t.Errorf("%d goroutines after deriving 100 contexts, %d before", n, before)
	}
	cancelDrain()
	for i, c := range children {
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("child %d not ended at the drain", i)
		}
	}
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(context.Cause(children[0]), context.Canceled) {
		t.Errorf("after the drain: Err %v, a child's Cause %v", ctx.Err(), context.Cause(children[0]))
	}
}
