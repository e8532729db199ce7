package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func TestServeStreamAnswersInFlightRequestsBeforeReturning(t *testing.T) {
	b := newBank(t, mcp.Options{})
	started, release := make(chan struct{}), make(chan struct{})
	b.bind(t, freeTool("slow", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		close(started)
		<-release
		return mcp.TextResult("finally"), nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	<-started
	w.in.Close() // end of input while the call runs
	close(release)
	rest, err := w.finish()
	if err != nil || len(rest) != 1 || jget(t, rest[0], "result", "content", 0, "text") != "finally" {
		t.Fatalf("got %v, %v", rest, err)
	}
}

func TestServeStreamRunsRequestsConcurrently(t *testing.T) {
	b := newBank(t, mcp.Options{})
	second := make(chan struct{})
	b.bind(t, freeTool("first", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		<-second // answers only once the later request has run
		return mcp.TextResult("first"), nil
	})
	b.bind(t, freeTool("second", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		close(second)
		return mcp.TextResult("second"), nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"first"}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"second"}}`)
	// "first" can only finish because "second" ran meanwhile; which answer
	// is written first after that is up to the scheduler.
	got := []string{w.response(), w.response()}
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result":`) }) ||
		!slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, `{"jsonrpc":"2.0","id":2,"result":`) }) {
		t.Errorf("answers: %v", got)
	}
}

// A request that blocks is handed over even when it begins on a goroutine
// that has just served others: the hand-over timer, armed for an earlier
// request, is armed again for the rest of the later one's time rather
// than reset for each. Were a later request not watched, "first" would
// block the reading and "second" would never run.
func TestServeStreamHandsOverABlockedRequestAfterShortOnes(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, freeTool("quick", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult("quick"), nil
	})
	var second atomic.Pointer[chan struct{}] // this round's
	b.bind(t, freeTool("first", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		<-*second.Load()
		return mcp.TextResult("first"), nil
	})
	b.bind(t, freeTool("second", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		close(*second.Load())
		return mcp.TextResult("second"), nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	id := 0
	for round := range 20 {
		ch := make(chan struct{})
		second.Store(&ch)
		var batch strings.Builder
		quick := round * 3 // from none to many short requests before the blocked one
		for range quick {
			id++
			fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"quick"}}`+"\n", id)
		}
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"first"}}`+"\n", id+1)
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"second"}}`, id+2)
		id += 2
		w.send(batch.String())
		for range quick + 2 {
			if got := w.response(); !strings.Contains(got, `"result":`) {
				t.Fatalf("round %d: answer %s", round, got)
			}
		}
	}
}

func TestServeStreamPipelinedHandshake(t *testing.T) {
	// A client that does not wait: initialize, initialized and a request
	// written at once, then the input closed.
	b := newBank(t, mcp.Options{})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\r",
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`,
	}, "\n") // no final newline
	var out bytes.Buffer
	if err := b.srv.ServeStream(context.Background(), strings.NewReader(in), &out, investigator); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %q", out.String())
	}
	answered := map[string]bool{}
	for _, l := range lines {
		if code(t, l) != "" {
			t.Errorf("error: %s", l)
		}
		answered[jget(t, l, "id").(json.Number).String()] = true
	}
	if !answered["1"] || !answered["2"] || !answered["3"] {
		t.Errorf("answered %v", answered)
	}
}

func TestServeStreamReturnsOnCancel(t *testing.T) {
	b := newBank(t, mcp.Options{})
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.srv.ServeStream(ctx, r, io.Discard, investigator) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

// TestServeStreamShutdownAnswersListenThenCancels: when its context ends,
// ServeStream answers an open subscriptions/listen (as Server.Close
// does) and a running call whose handler waits on its context, before it
// returns.
func TestServeStreamShutdownAnswersListenThenCancels(t *testing.T) {
	for range 20 { // the listen's answer once raced its cancellation
		b := newBank(t, mcp.Options{})
		started := make(chan struct{})
		err := b.srv.Bind(freeTool("wait", estate.Read), mcp.Tool{Handler: func(ctx context.Context, _ *mcp.Call) (*mcp.Result, error) {
			close(started)
			<-ctx.Done()
			return nil, errors.New("stopped")
		}})
		if err != nil {
			t.Fatal(err)
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.srv.ServeStream(ctx, inR, outW, investigator); outW.Close() }()
		lines := make(chan string, 16)
		go func() {
			sc := bufio.NewScanner(outR)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		io.WriteString(inW, `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{`+statelessMeta+`}}`+"\n")
		if ack := <-lines; !strings.Contains(ack, "subscriptions/acknowledged") {
			t.Fatalf("listen: %s", ack)
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"wait",`+statelessMeta+`}}`+"\n")
		<-started
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStream: %v", err)
		}
		var got []string
		for l := range lines {
			got = append(got, l)
		}
		slices.Sort(got)
		if len(got) != 2 || !strings.HasPrefix(got[0], `{"jsonrpc":"2.0","id":"L","result":`) || !strings.HasPrefix(got[1], `{"jsonrpc":"2.0","id":"c","result":`) {
			t.Fatalf("after the shutdown: %q", got)
		}
		inW.Close()
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeStreamReportsWriteErrors(t *testing.T) {
	b := newBank(t, mcp.Options{})
	r, w := io.Pipe()
	defer w.Close()
	done := make(chan error, 1)
	go func() { done <- b.srv.ServeStream(context.Background(), r, failingWriter{}, investigator) }()
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	if err := <-done; err == nil || err.Error() != "broken pipe" {
		t.Errorf("got %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("stdin gone") }

func TestServeStreamReportsReadErrors(t *testing.T) {
	b := newBank(t, mcp.Options{})
	if err := b.srv.ServeStream(context.Background(), failingReader{}, io.Discard, investigator); err == nil || err.Error() != "stdin gone" {
		t.Errorf("got %v", err)
	}
}

// TestServeStreamKeepsAnAbandonedCallIntact: a stream reuses the memory of
// a call it has answered, but never that of a call whose handler is still
// running after its answer went out (here, past its deadline) while later
// calls are served.
func TestServeStreamKeepsAnAbandonedCallIntact(t *testing.T) {
	// The deadline is the slow call's, and also each quick call's: long
	// enough that a loaded machine does not run a quick call past it.
	b := newBank(t, mcp.Options{CallTimeout: 250 * time.Millisecond})
	started, release := make(chan struct{}), make(chan struct{})
	intact := make(chan string, 1)
	b.bind(t, freeTool("linger", estate.Read), func(c *mcp.Call) (*mcp.Result, error) {
		id, name, raw := c.RequestID.String(), c.Spec.Name, string(c.Raw)
		close(started)
		<-release // ignores its deadline
		if got := c.RequestID.String() + " " + c.Spec.Name + " " + string(c.Raw); got != id+" "+name+" "+raw {
			intact <- "changed under the handler: " + got
		} else {
			intact <- ""
		}
		return mcp.TextResult("late"), nil
	})
	b.bind(t, freeTool("quick", estate.Read), func(c *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult("quick " + c.RequestID.String()), nil
	})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"linger","arguments":{"n":1}}}`)
	<-started
	if got := w.response(); jget(t, got, "result", "content", 0, "text") != "tool failed: deadline exceeded" {
		t.Fatalf("the overrunning call: %s", got)
	}
	for i := range 50 {
		id := strconv.Itoa(i)
		got := w.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"quick","arguments":{"i":` + id + `}}}`)
		if jget(t, got, "result", "content", 0, "text") != "quick "+id {
			t.Fatalf("call %s: %s", id, got)
		}
	}
	close(release)
	if msg := <-intact; msg != "" {
		t.Error(msg)
	}
	if _, err := w.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestServeStreamHandshakeWaitsForWhatWasReadBefore: requests a client
// wrote ahead of notifications/initialized meet the handshake's gate as
// it stood when they were read (refused), and those after it are served,
// however the requests of the burst are spread over goroutines.
func TestServeStreamHandshakeWaitsForWhatWasReadBefore(t *testing.T) {
	b := newBank(t, mcp.Options{})
	const n = 300
	call := `{"jsonrpc":"2.0","id":"%s-%d","method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}` + "\n"
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18"}}` + "\n")
	for i := range n {
		fmt.Fprintf(&in, call, "before", i)
	}
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := range n {
		fmt.Fprintf(&in, call, "after", i)
	}
	var out bytes.Buffer
	if err := b.srv.ServeStream(context.Background(), strings.NewReader(in.String()), &out, investigator); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1+2*n {
		t.Fatalf("%d answers to %d requests", len(lines), 1+2*n)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		id := jget(t, l, "id").(string)
		if seen[id] {
			t.Fatalf("%s answered twice", id)
		}
		seen[id] = true
		switch {
		case strings.HasPrefix(id, "before-"):
			if code(t, l) != "-32600" || !strings.Contains(l, "server not initialized") {
				t.Errorf("read before notifications/initialized, yet: %s", l)
			}
		case strings.HasPrefix(id, "after-"):
			if code(t, l) != "" || jget(t, l, "result", "isError") == true {
				t.Errorf("read after notifications/initialized, yet: %s", l)
			}
		}
	}
}

// TestServeStreamRefusesWhatDecodeRefuses: a line that looks like a
// request (it has an id and a method, which the stream reads to start it
// in order) but that Decode refuses is answered with Decode's error, as
// Session.Handle answers it, whether the error is found on reading or by
// the goroutine that runs the request; and the id it seemed to have is
// free again afterwards.
func TestServeStreamRefusesWhatDecodeRefuses(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[}`,                      // not JSON
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"a":"` + "\xff" + `"}}`, // invalid UTF-8
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"a":1,"a":2}}`,          // a repeated name
		`{"jsonrpc":"1.0","id":4,"method":"tools/list"}`,                                 // the wrong version
		`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}`,                    // params not an object
		`{"jsonrpc":"2.0","id":6,"method":"tools/list","result":{}}`,                     // a request and a response
		`{"jsonrpc":"2.0","id":01,"method":"tools/list"}`,                                // a number JSON does not have
		`{"id":7,"method":"tools/list","jsonrpc":"2.0"} x`,                               // trailing text
	}
	b := newBank(t, mcp.Options{})
	sess := b.srv.NewSession(investigator, nil)
	defer sess.Close()
	for _, l := range []string{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`} {
		sess.Handle(context.Background(), []byte(l))
	}
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	for _, l := range lines {
		want := string(sess.Handle(context.Background(), []byte(l)))
		if code(t, want) == "" {
			t.Fatalf("Handle served %s: %s", l, want)
		}
		w.send(l)
		if got := w.response(); got != want {
			t.Errorf("%s\n stream %s\n Handle %s", l, got, want)
		}
	}
	// The ids the refused lines seemed to have are not in flight.
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if l := w.response(); code(t, l) != "" {
		t.Errorf("id 1 after its refused line: %s", l)
	}

	// The same lines written at once, a request after them: with lines
	// waiting behind it, a request is started from its id and method and
	// read by the goroutine that runs it (on two cores or more), which
	// answers Decode's error in its place.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	w = serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	var want, got []string
	for _, l := range lines {
		want = append(want, string(sess.Handle(context.Background(), []byte(l))))
	}
	last := `{"jsonrpc":"2.0","id":100,"method":"tools/list"}`
	w.send(strings.Join(append(slices.Clone(lines), last), "\n"))
	for range len(lines) + 1 {
		if l := w.response(); jget(t, l, "id") == json.Number("100") {
			if code(t, l) != "" {
				t.Errorf("the request after the refused lines: %s", l)
			}
		} else {
			got = append(got, l)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("lines written at once answered\n%s\nwhere Handle answers\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
