package reliability

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// guard only turns a hang into a failure; no test measures time.
const guard = 30 * time.Second

// The principals most tests use. treasurer may see and call the whole
// sample estate; investigator may not release payments.
var (
	treasurer = estate.Principal{AgentID: "agent-treasurer-7f3a", Tenant: "wholesale",
		Scopes: []string{"payments.read", "payments.release", "crm.write"}, MaxClassification: estate.Restricted}
	investigator = estate.Principal{AgentID: "agent-investigator-c41d", Tenant: "wholesale",
		Scopes: []string{"payments.read", "crm.write"}, MaxClassification: estate.Confidential}
)

// ledger implements the bank's generated Handler. Every answer names what
// it was asked about, so a test can tell that an answer belongs to its
// request and not only to its id.
type ledger struct{}

var _ bank.Handler = ledger{}

func (ledger) CrmNotesAppendV1(_ context.Context, _ *mcp.Call, a bank.CrmNotesAppendV1Args) (*mcp.Result, error) {
	return mcp.TextResult("note appended to " + a.CustomerID), nil
}

func (ledger) PaymentsLookupV1(_ context.Context, _ *mcp.Call, a bank.PaymentsLookupV1Args) (*mcp.Result, error) {
	return mcp.TextResult(a.Reference + ": HELD (1.0.0)"), nil
}

func (ledger) PaymentsLookupV2(_ context.Context, _ *mcp.Call, a bank.PaymentsLookupV2Args) (*mcp.Result, error) {
	return mcp.TextResult(a.Reference + ": HELD as of " + a.AsOf), nil
}

func (l ledger) PaymentsLookupV3(ctx context.Context, call *mcp.Call, a bank.PaymentsLookupV3Args) (*mcp.Result, error) {
	return l.PaymentsLookupV2(ctx, call, bank.PaymentsLookupV2Args(a))
}

func (ledger) PaymentsReleaseV1(_ context.Context, _ *mcp.Call, a bank.PaymentsReleaseV1Args) (*mcp.Result, error) {
	return mcp.TextResult(fmt.Sprintf("released %s: %d %s", a.Reference, a.AmountMinor, a.Currency)), nil
}

// logSink captures a server's log, safe to read while handlers write.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// reset drops what was captured (the call log of a load test is not what
// its heap measure is about).
func (l *logSink) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = bytes.Buffer{}
}

// lines returns the captured log lines.
func (l *logSink) lines() []string {
	return strings.FieldsFunc(l.String(), func(r rune) bool { return r == '\n' })
}

// bankServer is a server over the sample estate with the ledger's
// handlers and a log captured at debug level. opts.Logger is replaced.
func bankServer(t testing.TB, opts mcp.Options) (*mcp.Server, *logSink) {
	t.Helper()
	base := bank.Options()
	base.MaxMessageBytes = opts.MaxMessageBytes
	base.MaxInFlight = opts.MaxInFlight
	base.CallTimeout = opts.CallTimeout
	sink := &logSink{}
	base.Logger = slog.New(slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := mcp.NewServer(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := bank.Register(srv, ledger{}); err != nil {
		t.Fatal(err)
	}
	return srv, sink
}

// faultTool publishes a tool anyone may call, with an open object schema,
// bound to h.
func faultTool(t testing.TB, srv *mcp.Server, name string, h mcp.Handler) {
	t.Helper()
	spec := estate.ToolSpec{
		Name: name, Version: estate.MustParseVersion("1.0.0"), Title: name, Description: "A tool that misbehaves on purpose.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read,
		DataClassification: estate.Public, Owner: "reliability",
	}
	if err := srv.Bind(spec, mcp.Tool{Handler: h}); err != nil {
		t.Fatal(err)
	}
}

// peer is the client's end of one ServeStream: it writes lines and routes
// every line the server writes. A response goes to the caller awaiting its
// id; a response nobody awaits, a second response to one id, and a line
// that is not one well-formed JSON-RPC message are strays, which fail the
// test when the peer is closed.
type peer struct {
	t      testing.TB
	in     *io.PipeWriter
	out    *io.PipeReader
	cancel context.CancelFunc
	served chan error
	read   chan struct{} // closed when the server's output ends

	wmu sync.Mutex

	mu      sync.Mutex
	waiting map[string]chan string // by id text ("null" for an id the server could not read)
	strays  []string
	notes   []string
}

// serveStdio runs srv.ServeStream for p with a fresh peer; the stream ends
// when the test does, if it has not before.
func serveStdio(t testing.TB, srv *mcp.Server, p estate.Principal) *peer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &peer{t: t, in: inW, out: outR, cancel: cancel, served: make(chan error, 1), read: make(chan struct{}),
		waiting: map[string]chan string{}}
	go func() {
		err := srv.ServeStream(ctx, inR, outW, p)
		outW.Close()
		c.served <- err
	}()
	go c.readLoop()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
	})
	return c
}

func (c *peer) readLoop() {
	defer close(c.read)
	br := bufio.NewReaderSize(c.out, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.route(string(bytes.TrimSuffix(line, []byte{'\n'})))
		}
		if err != nil {
			return
		}
	}
}

func (c *peer) route(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := jsonrpc.Decode([]byte(line))
	switch {
	case err != nil:
		c.strays = append(c.strays, "malformed: "+line)
	case m.IsResponse():
		ch, ok := c.waiting[m.ID.String()]
		if !ok {
			c.strays = append(c.strays, "unexpected: "+line)
			return
		}
		delete(c.waiting, m.ID.String())
		ch <- line
	case m.IsNotification():
		c.notes = append(c.notes, line)
	default:
		c.strays = append(c.strays, "a request from the server: "+line)
	}
}

// expect registers interest in the answer to id (its JSON text); the
// returned channel receives it.
func (c *peer) expect(id string) (<-chan string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.waiting[id]; dup {
		return nil, fmt.Errorf("id %s is already awaited", id)
	}
	ch := make(chan string, 1)
	c.waiting[id] = ch
	return ch, nil
}

// send writes one line (a newline is added).
func (c *peer) send(line string) error {
	return c.sendBytes([]byte(line))
}

// sendBytes is send for a line the caller has as bytes: it copies nothing,
// so that a test measuring what the server allocates does not count the
// line again.
func (c *peer) sendBytes(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.in.Write(line); err != nil {
		return err
	}
	_, err := c.in.Write([]byte{'\n'})
	return err
}

// call sends line and returns the answer to id; for tests, which may run
// it from several goroutines at once.
func (c *peer) call(id, line string) (string, error) {
	return c.callBytes(id, []byte(line))
}

// callBytes is call for a line the caller has as bytes (see sendBytes).
func (c *peer) callBytes(id string, line []byte) (string, error) {
	ch, err := c.expect(id)
	if err != nil {
		return "", err
	}
	if err := c.sendBytes(line); err != nil {
		return "", err
	}
	select {
	case got := <-ch:
		return got, nil
	case <-time.After(guard):
		return "", fmt.Errorf("no answer to %s", line)
	}
}

// mustCall is call for the test's own goroutine.
func (c *peer) mustCall(id, line string) string {
	c.t.Helper()
	got, err := c.call(id, line)
	if err != nil {
		c.t.Fatal(err)
	}
	return got
}

// handshake opens the session in rev.
func (c *peer) handshake(rev mcp.Revision) {
	c.t.Helper()
	got := c.mustCall(`"init"`, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"`+string(rev)+`","capabilities":{},"clientInfo":{"name":"reliability","version":"1"}}}`)
	if !strings.Contains(got, `"result":{"protocolVersion":"`+string(rev)+`"`) {
		c.t.Fatalf("initialize: %s", got)
	}
	if err := c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		c.t.Fatal(err)
	}
}

// close ends the input, waits for the server to finish, and fails the test
// on any stray line or on answers still awaited. It returns ServeStream's
// error.
func (c *peer) close() error {
	c.t.Helper()
	c.in.Close()
	var err error
	select {
	case err = <-c.served:
	case <-time.After(guard):
		c.t.Fatal("ServeStream did not return after the end of its input")
	}
	<-c.read
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.strays {
		c.t.Errorf("stray output: %s", s)
	}
	for id := range c.waiting {
		c.t.Errorf("no answer to id %s", id)
	}
	return err
}

// goroutinesSettle waits, boundedly, for the number of goroutines to come
// back to at most want, and returns the last count seen.
func goroutinesSettle(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 500 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// heapInUse is the live heap after two collections.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// errorOf returns the code and message of an error answer, ok false for
// a result.
func errorOf(answer string) (code int, message string, ok bool) {
	m, err := jsonrpc.Decode([]byte(answer))
	if err != nil || m.Error == nil {
		return 0, "", false
	}
	return m.Error.Code, m.Error.Message, true
}

// errAnswerMismatch formats a wrong answer.
func errAnswerMismatch(what, got, want string) error {
	return errors.New(what + ":\n got " + got + "\nwant " + want)
}
