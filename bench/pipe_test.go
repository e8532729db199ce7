package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// pipeConn is the client end of a server served in process with
// newline-delimited JSON-RPC: raw bytes in, raw bytes out, no client library
// in the way. Requests go through an io.Pipe; responses go into a sink that
// only counts the lines the server writes (it keeps them when a check needs
// to read one), so that a large answer is not copied once more by the
// harness. Every server in this package is driven through one, so the
// transport costs the same for all of them.
type pipeConn struct {
	w      *io.PipeWriter
	out    *sink
	stop   func()
	server func() error // waits for the server to return

	// The wait for an answer is bounded by a watchdog (see watch), not by
	// a timer for every line: making and arming one in next took 0.75 s
	// of 10.8 in the profile of a million stdio calls (a timer and a
	// channel allocated, the runtime's timer heap locked twice), for every
	// server alike.
	waiting atomic.Bool   // next is waiting for a line
	lines   atomic.Int64  // lines next has had
	stuck   chan struct{} // closed when a wait saw no line for answerTimeout
}

// answerTimeout is how long next waits for a line before the benchmark
// fails rather than hangs.
const answerTimeout = time.Minute

// serveFunc serves one connection reading from in and writing to out until
// ctx is done or in ends.
type serveFunc func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error

// dial starts serve on a fresh connection and returns the client end.
func dial(serve serveFunc) *pipeConn {
	inR, inW := io.Pipe()
	out := &sink{lines: make(chan []byte, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, inR, out)
	}()
	c := &pipeConn{w: inW, out: out, stuck: make(chan struct{})}
	c.stop = func() {
		cancel()
		inW.Close()
	}
	c.server = func() error { return <-done }
	go c.watch(ctx)
	return c
}

// watch closes c.stuck once next has waited answerTimeout without a line,
// looking every tenth of it; it ends with ctx.
func (c *pipeConn) watch(ctx context.Context) {
	tick := time.NewTicker(answerTimeout / 10)
	defer tick.Stop()
	seen, still := c.lines.Load(), 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		n := c.lines.Load()
		if n != seen || !c.waiting.Load() {
			seen, still = n, 0
			continue
		}
		if still++; still == 10 {
			close(c.stuck)
			return
		}
	}
}

// sink is the server's output: it counts the lines written and, while
// keep is set, keeps them. While a count is awaited (see await), it only
// counts, so that a client expecting many answers costs the server's
// writes no hand-over per line.
type sink struct {
	lines chan []byte // one per line: the line when kept, else nil
	keep  atomic.Bool
	mu    sync.Mutex
	part  []byte // a kept line not yet ended

	counting atomic.Bool
	counted  atomic.Int64
	target   int64
	reached  chan struct{} // closed once counted reaches target
}

// await counts the next n lines instead of passing them on, and returns a
// channel closed when all n have been written.
func (s *sink) await(n int) <-chan struct{} {
	s.counted.Store(0)
	s.target = int64(n)
	s.reached = make(chan struct{})
	s.counting.Store(true)
	return s.reached
}

func (s *sink) Write(p []byte) (int, error) {
	if s.counting.Load() {
		n := int64(bytes.Count(p, []byte{'\n'}))
		if total := s.counted.Add(n); total >= s.target && total-n < s.target {
			s.counting.Store(false)
			close(s.reached)
		}
		return len(p), nil
	}
	if !s.keep.Load() {
		for n := bytes.Count(p, []byte{'\n'}); n > 0; n-- {
			s.lines <- nil
		}
		return len(p), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.part = append(s.part, p...)
			break
		}
		line := append(s.part, p[:i]...)
		s.part = nil
		s.lines <- line
		p = p[i+1:]
	}
	return n, nil
}

// Close ends nothing: the harness owns the sink.
func (s *sink) Close() error { return nil }

// send writes one message (a newline is added).
func (c *pipeConn) send(msg []byte) error {
	buf := make([]byte, 0, len(msg)+1)
	_, err := c.w.Write(append(append(buf, msg...), '\n'))
	return err
}

// sendLine writes a message that already ends in a newline.
func (c *pipeConn) sendLine(line []byte) error {
	_, err := c.w.Write(line)
	return err
}

// next waits for the next line; it is nil unless lines are kept.
func (c *pipeConn) next() ([]byte, error) {
	c.waiting.Store(true)
	defer c.waiting.Store(false)
	select {
	case line := <-c.out.lines:
		c.lines.Add(1)
		return line, nil
	case <-c.stuck:
		return nil, errors.New("no answer within a minute")
	}
}

// response keeps lines until one is a response (it has a result or an
// error), skipping notifications the server sends on its own: the checked
// round trip that precedes timing.
func (c *pipeConn) response() ([]byte, error) {
	defer c.out.keep.Store(false)
	for {
		line, err := c.next()
		if err != nil {
			return nil, err
		}
		if bytes.Contains(line, []byte(`"result"`)) || bytes.Contains(line, []byte(`"error"`)) {
			return line, nil
		}
	}
}

// roundTrip sends one request line (ending in a newline) and reads its
// response, keeping it.
func (c *pipeConn) roundTrip(line []byte) ([]byte, error) {
	c.out.keep.Store(true)
	if err := c.sendLine(line); err != nil {
		return nil, err
	}
	return c.response()
}

// timedTrip sends one request line and waits for one line back without
// keeping it: the round trip that is timed. No server sends anything of
// its own during one.
func (c *pipeConn) timedTrip(line []byte) error {
	if err := c.sendLine(line); err != nil {
		return err
	}
	_, err := c.next()
	return err
}

// close ends the connection and waits for the server.
func (c *pipeConn) close() {
	c.stop()
	c.server()
}

// protocolVersion is the handshake-era revision every server here speaks.
const protocolVersion = "2025-06-18"

// initializeRequest is the handshake's initialize (id 0) for revision,
// without a newline: every client of this package opens its session with it.
func initializeRequest(revision string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"bench","version":"1.0.0"}}}`, revision)
}

// initializedNotification ends the handshake (no newline).
const initializedNotification = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// handshake runs initialize and notifications/initialized.
func (c *pipeConn) handshake() error {
	c.out.keep.Store(true)
	if err := c.send(initializeRequest(protocolVersion)); err != nil {
		return err
	}
	resp, err := c.response()
	if err != nil {
		return err
	}
	if !bytes.Contains(resp, []byte(`"protocolVersion"`)) {
		return fmt.Errorf("initialize: %s", resp)
	}
	return c.send([]byte(initializedNotification))
}

// request renders a JSON-RPC request line (with its newline).
func request(id int, method string, params any) []byte {
	p, err := json.Marshal(params)
	if err != nil {
		panic(err)
	}
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, p))
}

// callRequest is the tools/call every server answers in the call table.
func callRequest(id int, name string, args []byte) []byte {
	return request(id, "tools/call", map[string]any{"name": name, "arguments": json.RawMessage(args)})
}

// echo is the bare pipe: it answers every line with itself.
func echo(_ context.Context, in io.ReadCloser, out io.WriteCloser) error {
	br := bufio.NewReader(in)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
}

// mustContain fails the benchmark when a response lacks a fragment: each
// server must do the work its row claims before it is timed.
func mustContain(tb testing.TB, what string, resp []byte, fragments ...string) {
	tb.Helper()
	for _, f := range fragments {
		if !strings.Contains(string(resp), f) {
			tb.Fatalf("%s: response lacks %s:\n%.600s", what, f, resp)
		}
	}
}

// mustLack fails the benchmark when a response holds a fragment.
func mustLack(tb testing.TB, what string, resp []byte, fragment string) {
	tb.Helper()
	if strings.Contains(string(resp), fragment) {
		tb.Fatalf("%s: response holds %s:\n%.600s", what, fragment, resp)
	}
}
