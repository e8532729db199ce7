package reliability

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// faults is a set of misbehaving tools bound to one server: fault.panic
// panics, fault.error fails, fault.hang ignores its context until the test
// releases it, fault.wait returns when its context ends and reports why.
type faults struct {
	started  chan string // request id of each hang or wait call, once running
	release  chan struct{}
	ended    chan error // ctx.Err() seen by each wait call
	finished atomic.Int64
}

func bindFaults(t testing.TB, srv *mcp.Server) *faults {
	f := &faults{started: make(chan string, 1024), release: make(chan struct{}), ended: make(chan error, 1024)}
	faultTool(t, srv, "fault.panic", func(context.Context, *mcp.Call) (*mcp.Result, error) {
		panic("ledger index corrupt")
	})
	faultTool(t, srv, "fault.error", func(context.Context, *mcp.Call) (*mcp.Result, error) {
		return nil, errors.New("core banking timeout")
	})
	faultTool(t, srv, "fault.hang", func(_ context.Context, c *mcp.Call) (*mcp.Result, error) {
		f.started <- c.RequestID.String()
		<-f.release
		f.finished.Add(1)
		return mcp.TextResult("finally"), nil
	})
	faultTool(t, srv, "fault.wait", func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		f.started <- c.RequestID.String()
		<-ctx.Done()
		f.ended <- ctx.Err()
		f.finished.Add(1)
		return nil, ctx.Err()
	})
	return f
}

func callTool(id, name, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

func toolResult(id, text string, isError bool) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":` + strconv.Quote(text) + `}],"isError":` + strconv.FormatBool(isError) + `}}`
}

// lookup is a good call and its exact answer.
func lookup(id string, n int) (line, want string) {
	ref := "PMT-" + strconv.Itoa(100+n)
	return callTool(id, "payments.lookup", `{"reference":"`+ref+`","as_of":"2026-03-31"}`), toolResult(id, ref+": HELD as of 2026-03-31", false)
}

// TestHandlerFaultsAreContained runs handlers that panic, fail, and hang
// past their deadline, each alongside good calls on the same session: every
// call gets its right answer, the good calls are unaffected, and once the
// hung handlers return no goroutine is left behind.
func TestHandlerFaultsAreContained(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	f := bindFaults(t, srv)
	sess := srv.NewSession(treasurer, func([]byte) {})
	ctx := context.Background()
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))

	rounds := 200
	if testing.Short() {
		rounds = 40
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		failures = append(failures, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	check := func(ctx context.Context, line, want string) {
		defer wg.Done()
		if got := string(sess.Handle(ctx, []byte(line))); got != want {
			fail("%s:\n got %s\nwant %s", line, got, want)
		}
	}
	calls := 0
	for i := range rounds {
		id := func(kind string) string { return `"` + kind + strconv.Itoa(i) + `"` }
		good, goodWant := lookup(id("good"), i)
		// A deadline that has passed by the time the hung handler is
		// running: the call is answered at once, the handler still runs.
		deadline, cancel := context.WithDeadline(ctx, time.Now().Add(time.Millisecond))
		defer cancel()
		wg.Add(4)
		go check(ctx, callTool(id("panic"), "fault.panic", `{}`), toolResult(id("panic"), "tool failed: internal error", true))
		go check(ctx, callTool(id("error"), "fault.error", `{}`), toolResult(id("error"), "core banking timeout", true))
		go check(deadline, callTool(id("hang"), "fault.hang", `{}`), toolResult(id("hang"), "tool failed: deadline exceeded", true))
		go check(ctx, good, goodWant)
		calls += 4
	}
	wg.Wait()
	for range rounds {
		<-f.started
	}
	if n := f.finished.Load(); n != 0 {
		t.Errorf("%d hung handlers returned before they were released", n)
	}
	close(f.release) // the hung handlers return; their results go nowhere
	for i := 0; i < 500 && f.finished.Load() < int64(rounds); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	for _, msg := range failures {
		t.Error(msg)
	}
	sess.Close()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	if n := f.finished.Load(); n != int64(rounds) {
		t.Errorf("%d of %d hung handlers returned", n, rounds)
	}
	if n := strings.Count(logs.String(), `"msg":"tool handler panicked"`); n != rounds {
		t.Errorf("%d panics logged, want %d", n, rounds)
	}
	record(t, figure{ID: "faults/handlers", Area: "Faults",
		Tried: "Handlers that panic, return an error, or hang past their deadline (ignoring their context), each alongside a good call, concurrently on one session",
		Count: calls, Unit: "calls",
		Held: "panic → isError `tool failed: internal error` (logged with its stack); error → isError with its text; hang → isError `tool failed: deadline exceeded` at the deadline, the handler left to finish; every good call answered exactly; goroutines back to the count before the server started"})
}

// TestCallTimeoutBoundsHandlers: Options.CallTimeout gives every handler a
// deadline, and a stdio session answers a handler that overruns it.
func TestCallTimeoutBoundsHandlers(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, _ := bankServer(t, mcp.Options{CallTimeout: 200 * time.Millisecond})
	f := bindFaults(t, srv)
	c := serveStdio(t, srv, treasurer)
	c.handshake(mcp.Revision20250618)
	n := 8
	var held atomic.Int64 // calls answered as a tool failure at their deadline
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, tool := range []string{"fault.hang", "fault.wait"} {
				id := `"` + tool + strconv.Itoa(i) + `"`
				got, err := c.call(id, callTool(id, tool, `{}`))
				if err != nil {
					t.Error(err)
					return
				}
				// fault.wait may return its own error first; either
				// way the call is a tool failure under its id.
				if got != toolResult(id, "tool failed: deadline exceeded", true) && got != toolResult(id, "context deadline exceeded", true) {
					t.Errorf("%s: %s", tool, got)
					continue
				}
				held.Add(1)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for range n {
		if err := <-f.ended; !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("fault.wait saw %v", err)
		}
	}
	close(f.release)
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/call-timeout", Area: "Faults",
		Tried: "`Options.CallTimeout` over stdio: handlers that ignore their deadline and handlers that honour it",
		Count: int(held.Load()), Unit: "calls",
		Held: "each answered as a tool failure at its deadline; the honouring handlers saw `context.DeadlineExceeded`; nothing left running"})
}

// TestCancellationReachesTheHandler: notifications/cancelled cancels the
// handler's context, and the cancelled request is not answered.
func TestCancellationReachesTheHandler(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, _ := bankServer(t, mcp.Options{})
	f := bindFaults(t, srv)
	c := serveStdio(t, srv, treasurer)
	c.handshake(mcp.Revision20250618)
	n := 50
	cancelled := 0 // handlers that saw their context cancelled
	for i := range n {
		id := `"cancel-me-` + strconv.Itoa(i) + `"`
		if err := c.send(callTool(id, "fault.wait", `{}`)); err != nil {
			t.Fatal(err)
		}
		if got := <-f.started; got != id {
			t.Fatalf("started %s, want %s", got, id)
		}
		if err := c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user aborted"}}`); err != nil {
			t.Fatal(err)
		}
		if err := <-f.ended; !errors.Is(err, context.Canceled) {
			t.Errorf("the handler saw %v", err)
			continue
		}
		cancelled++
	}
	// Nothing was answered for the cancelled requests (an answer would be
	// a stray), and the session still serves.
	good, want := lookup(`"after"`, 1)
	if got := c.mustCall(`"after"`, good); got != want {
		t.Errorf("after the cancellations: %s", got)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/cancelled", Area: "Faults",
		Tried: "`notifications/cancelled` for a request whose handler is running (stdio)",
		Count: cancelled, Unit: "requests",
		Held: "the handler's context was cancelled (`context.Canceled`), no answer was sent for it, the next call was answered"})
}

// TestGracefulShutdownAnswersEveryRequestInFlight: when the stream's
// context ends, every request in flight — whether its handler honours the
// cancellation or ignores it — is answered before ServeStream returns.
func TestGracefulShutdownAnswersEveryRequestInFlight(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, _ := bankServer(t, mcp.Options{})
	f := bindFaults(t, srv)
	c := serveStdio(t, srv, treasurer)
	c.handshake(mcp.Revision20250618)
	n := 32
	answers := make([]<-chan string, 0, n)
	ids := make([]string, 0, n)
	for i := range n {
		tool := []string{"fault.hang", "fault.wait"}[i%2]
		id := `"inflight-` + strconv.Itoa(i) + `"`
		ch, err := c.expect(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.send(callTool(id, tool, `{}`)); err != nil {
			t.Fatal(err)
		}
		answers, ids = append(answers, ch), append(ids, id)
	}
	for range n {
		<-f.started
	}
	c.cancel() // shut down
	if err := <-c.served; !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStream returned %v", err)
	}
	c.served <- nil // for close
	<-c.read        // everything written before ServeStream returned is routed
	answered := 0   // requests answered as a tool failure before ServeStream returned
	for i, ch := range answers {
		select {
		case got := <-ch:
			if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+ids[i]+`,"result":{"content":[{"type":"text","text":`) || !strings.HasSuffix(got, `"isError":true}}`) {
				t.Errorf("%s: %s", ids[i], got)
				continue
			}
			answered++
		default:
			t.Errorf("%s was not answered before ServeStream returned", ids[i])
		}
	}
	close(f.release)
	c.close()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/shutdown", Area: "Faults",
		Tried: "Graceful shutdown of a stdio session (its context cancelled) with requests in flight, half of their handlers ignoring the cancellation",
		Count: answered, Unit: "requests in flight",
		Held: "every one answered (as a tool failure) before `ServeStream` returned `context.Canceled`; no goroutine left once the hung handlers returned"})
}

// TestClientClosingStdinLosesNoAnswer: a client that closes its end of
// stdin half way through a message still gets the answer to everything it
// sent before, including answers computed after the input ended.
func TestClientClosingStdinLosesNoAnswer(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, _ := bankServer(t, mcp.Options{})
	f := bindFaults(t, srv)
	c := serveStdio(t, srv, treasurer)
	c.handshake(mcp.Revision20250618)
	n := 16
	var answers []<-chan string
	var wants []string
	for i := range n {
		id := `"pending-` + strconv.Itoa(i) + `"`
		line, want := callTool(id, "fault.hang", `{}`), toolResult(id, "finally", false)
		if i%2 == 1 {
			line, want = lookup(id, i)
		}
		ch, err := c.expect(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.send(line); err != nil {
			t.Fatal(err)
		}
		answers, wants = append(answers, ch), append(wants, want)
	}
	for range n / 2 {
		<-f.started
	}
	half, err := c.expect("null")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.in.Write([]byte(`{"jsonrpc":"2.0","id":"cut","method":"tools/ca`)); err != nil {
		t.Fatal(err)
	}
	c.in.Close()     // mid-message
	close(f.release) // the hung handlers compute their answers now
	if err := c.close(); err != nil {
		t.Fatalf("ServeStream: %v", err)
	}
	exact := 0 // requests answered exactly
	for i, ch := range answers {
		select {
		case got := <-ch:
			if got != wants[i] {
				t.Errorf("answer %d: %s, want %s", i, got, wants[i])
				continue
			}
			exact++
		default:
			t.Errorf("answer %d was lost", i)
		}
	}
	if got, want := <-half, rpcError("null", parseError, "parse error: unexpected end of input"); got != want {
		t.Errorf("the cut message: %s", got)
	}
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/stdin-closed", Area: "Faults",
		Tried: "A stdio client closing stdin half way through a message, with requests in flight (half of them computed only after the input ended)",
		Count: exact, Unit: "requests in flight",
		Held: "every request answered exactly; the cut message answered as a parse error (id null); `ServeStream` returned nil"})
}

// TestClientThatNeverReads: a stdio client that writes requests but does
// not read its answers holds the server to Options.MaxInFlight requests:
// their handlers run, their answers wait to be written, and the server
// reads no further, so the client's own writes stop; when it reads at
// last, it loses nothing. When it goes away instead, the stream ends with
// the write error and leaves nothing running.
func TestClientThatNeverReads(t *testing.T) {
	before := runtime.NumGoroutine()
	const maxInFlight = 8
	srv, _ := bankServer(t, mcp.Options{MaxInFlight: maxInFlight})
	n := 2000
	if testing.Short() {
		n = 200
	}
	var handled atomic.Int64
	faultTool(t, srv, "count", func(_ context.Context, c *mcp.Call) (*mcp.Result, error) {
		handled.Add(1)
		return mcp.TextResult(c.RequestID.String()), nil
	})
	handshake := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	var calls strings.Builder
	for i := range n {
		id := strconv.Itoa(i + 1)
		calls.WriteString(callTool(id, "count", `{}`) + "\n")
	}

	// Its output is a pipe without a buffer, so nothing the server writes
	// goes anywhere until the client reads: the server stops at its bound.
	outR, outW := io.Pipe()
	inW, served := servePipes(t, srv, outW)
	t.Cleanup(func() { outR.Close() })
	out := bufio.NewScanner(outR)
	if _, err := io.WriteString(inW, handshake); err != nil || !out.Scan() || !strings.Contains(out.Text(), `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("handshake: %s %v", out.Text(), err)
	}
	wrote := make(chan error, 1)
	go func() { _, err := io.WriteString(inW, calls.String()); wrote <- err }()
	deadline := time.Now().Add(guard)
	for handled.Load() < maxInFlight && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // time to run more, were they read
	if got := handled.Load(); got != maxInFlight {
		t.Errorf("%d handlers ran while the client did not read, with a bound of %d requests in flight", got, maxInFlight)
	}
	select {
	case <-wrote:
		t.Error("the server read every request while their answers waited")
	default:
	}
	if g := runtime.NumGoroutine(); g > before+maxInFlight+20 {
		t.Errorf("%d goroutines while the client did not read (%d before)", g, before)
	}

	// Reads at last: every request is answered, exactly once.
	seen := map[string]bool{}
	exact := 0 // requests answered once, exactly, under their id
	sc := out
	for len(seen) < n && sc.Scan() {
		m, rpcErr := jsonrpc.Decode(sc.Bytes())
		if rpcErr != nil || !m.IsResponse() {
			t.Fatalf("not a response: %s", sc.Text())
		}
		id := m.ID.String()
		if seen[id] {
			t.Errorf("two answers to %s", id)
		}
		seen[id] = true
		if sc.Text() != toolResult(id, id, false) {
			t.Errorf("answer to %s: %s", id, sc.Text())
			continue
		}
		exact++
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Errorf("ServeStream: %v", err)
	}
	if len(seen) != n {
		t.Errorf("%d answers, want %d", len(seen), n)
	}
	outR.Close()

	// Goes away.
	goneW, goneR, goneServed := serveOSPipe(t, srv)
	goneR.Close() // it will never read
	go func() {
		io.WriteString(goneW, handshake+calls.String())
	}()
	if err := <-goneServed; err == nil {
		t.Error("ServeStream returned nil after its output went away")
	}
	goneW.Close()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/never-reads", Area: "Faults",
		Tried: "A stdio client that sends requests without reading any answer (`Options.MaxInFlight` 8), then reads them all; another that sends the same and closes its end without reading",
		Count: exact, Unit: "requests per client",
		Held: "while nothing was read, the handlers of as many calls as `MaxInFlight` allows ran and the server read no further, so the client's own writes waited; the first client then got exactly one answer per request, each under its id; for the second `ServeStream` ended with the write error; no goroutine left"})
}

// serveOSPipe serves treasurer's stream with an io.Pipe as input and an OS
// pipe as output, as a process's stdin and stdout are.
func serveOSPipe(t *testing.T, srv *mcp.Server) (*io.PipeWriter, *os.File, <-chan error) {
	t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inW, served := servePipes(t, srv, outW)
	t.Cleanup(func() { outR.Close() })
	return inW, outR, served
}

// servePipes serves treasurer's stream reading an io.Pipe, whose writing
// end it returns, and writing to out, which it closes when ServeStream
// returns its error (sent on served).
func servePipes(t *testing.T, srv *mcp.Server, out io.WriteCloser) (in *io.PipeWriter, served <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStream(context.Background(), inR, out, treasurer)
		out.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return inW, done
}
