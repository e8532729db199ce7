package mcphttp_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// gate is a tool whose calls wait until the test lets them go, so that a
// test can hold requests in flight.
type gate struct {
	entered chan struct{}
	release chan struct{}
}

func bindGate(t *testing.T, srv *mcp.Server) *gate {
	t.Helper()
	g := &gate{entered: make(chan struct{}, 64), release: make(chan struct{})}
	err := srv.Bind(estate.ToolSpec{
		Name: "gate.wait", Version: estate.MustParseVersion("1.0.0"), Title: "Wait", Description: "Waits for the test.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(ctx context.Context, _ *mcp.Call) (*mcp.Result, error) {
		g.entered <- struct{}{}
		<-g.release
		return mcp.TextResult("done"), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// deadlockGuard only turns a hang into a failure; no test measures time.
const deadlockGuard = 10 * time.Second

// waitCall calls gate.wait under the id n.
func waitCall(n int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(n) + `,"method":"tools/call","params":{"name":"gate.wait"}}`
}

// TestInFlightBound: with MaxInFlight requests running, the next is
// answered 503 with Retry-After and its handler never runs; once a place
// is free a request is served again. With a queue wait, a request over
// the bound waits for a place instead.
func TestInFlightBound(t *testing.T) {
	for _, wait := range []time.Duration{-1, 10 * time.Second} {
		srv := newMCPServer(t)
		g := bindGate(t, srv)
		_, url := endpoint(t, srv, mcphttp.Options{MaxInFlight: 2, QueueWait: wait})
		sid := map[string]string{mcphttp.HeaderSessionID: open(t, url, nil)}
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { do(t, http.MethodPost, url, sid, waitCall(i)) })
			<-g.entered
		}
		if wait < 0 {
			r := do(t, http.MethodPost, url, sid, waitCall(2))
			if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !strings.Contains(r.raw, "as many requests as it may") {
				t.Errorf("a request over the bound: %d %q %s", r.status, r.header.Get("Retry-After"), r.raw)
			}
			select {
			case <-g.entered:
				t.Error("the refused request's handler ran")
			default:
			}
			close(g.release)
		} else {
			answered := make(chan response, 1)
			go func() { answered <- do(t, http.MethodPost, url, sid, waitCall(2)) }()
			select {
			case r := <-answered:
				t.Fatalf("a request over the bound did not wait: %d %s", r.status, r.raw)
			case <-time.After(50 * time.Millisecond):
			}
			close(g.release)
			if r := <-answered; r.status != http.StatusOK || !strings.Contains(r.raw, "done") {
				t.Errorf("the waiting request: %d %s", r.status, r.raw)
			}
		}
		wg.Wait()
		if r := do(t, http.MethodPost, url, sid, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); r.status != http.StatusOK {
			t.Errorf("after the bound: %d %s", r.status, r.raw)
		}
	}
}

// TestSessionBounds: a caller at MaxSessionsPerCaller that initializes
// again loses its least recently used session, and nobody else's; past
// MaxSessions an initialize is answered 503.
func TestSessionBounds(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, MaxSessions: 3, MaxSessionsPerCaller: 2})
	inv := map[string]string{"Authorization": "Bearer inv"}
	tel := map[string]string{"Authorization": "Bearer teller"}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	with := func(h map[string]string, id string) map[string]string {
		return map[string]string{"Authorization": h["Authorization"], mcphttp.HeaderSessionID: id}
	}
	a := open(t, url, inv)
	b := open(t, url, inv)
	do(t, http.MethodPost, url, with(inv, a), ping) // b is now the least recently used
	c := open(t, url, inv)                          // displaces b
	if r := do(t, http.MethodPost, url, with(inv, b), ping); r.status != http.StatusNotFound {
		t.Errorf("the displaced session: %d %s", r.status, r.raw)
	}
	for _, id := range []string{a, c} {
		if r := do(t, http.MethodPost, url, with(inv, id), ping); r.status != http.StatusOK {
			t.Errorf("a kept session: %d %s", r.status, r.raw)
		}
	}
	d := open(t, url, tel) // the third session
	r := do(t, http.MethodPost, url, tel, initialize)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || r.header.Get(mcphttp.HeaderSessionID) != "" {
		t.Errorf("an initialize past MaxSessions: %d %s", r.status, r.raw)
	}
	for _, s := range []struct {
		h  map[string]string
		id string
	}{{inv, a}, {inv, c}, {tel, d}} {
		if r := do(t, http.MethodPost, url, with(s.h, s.id), ping); r.status != http.StatusOK {
			t.Errorf("a session after the refusal: %d %s", r.status, r.raw)
		}
	}
}

// TestStreamBound: past MaxStreams open event streams, a GET stream and a
// subscriptions/listen are answered 503; once one closes, another opens.
func TestStreamBound(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{MaxStreams: 1})
	first := open(t, url, nil)
	res, _ := stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: first}, "")
	second := open(t, url, nil)
	if r := do(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: second, "Accept": "text/event-stream"}, ""); r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
		t.Errorf("a second GET stream: %d %s", r.status, r.raw)
	}
	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	if r := do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "subscriptions/listen"}, listen); r.status != http.StatusServiceUnavailable {
		t.Errorf("a listen past the bound: %d %s", r.status, r.raw)
	}
	res.Body.Close()
	deadline := time.Now().Add(deadlockGuard)
	for {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set(mcphttp.HeaderSessionID, second)
		got, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		status := got.StatusCode
		got.Body.Close()
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stream opened after the first closed: %d", status)
		}
		time.Sleep(5 * time.Millisecond) // the server notices the first stream's end
	}
}

// TestIdleSessionEndsOnItsTimer: a session that no request uses expires on
// the handler's timer, whether or not another request arrives, and even
// with its GET stream open: the stream ends, and the id is then unknown.
func TestIdleSessionEndsOnItsTimer(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{SessionIdleTimeout: 100 * time.Millisecond})
	id := open(t, url, nil)
	_, br := stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id}, "")
	ended := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(br)
		ended <- err
	}()
	select {
	case <-ended:
	case <-time.After(deadlockGuard):
		t.Fatal("the idle session's stream is still open")
	}
	if r := do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: id}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); r.status != http.StatusNotFound {
		t.Errorf("the expired session: %d %s", r.status, r.raw)
	}
}

// blockingAuth authenticates like tokens once the test lets it, so that a
// request can be held between the handler's first check and its session
// lookup.
type blockingAuth struct {
	tokens
	inside  chan struct{}
	proceed chan struct{}
}

func (b blockingAuth) Authenticate(r *http.Request) (estate.Principal, error) {
	if r.Header.Get("X-Hold") != "" {
		b.inside <- struct{}{}
		<-b.proceed
	}
	return b.tokens.Authenticate(r)
}

// TestShutdownAnswers503NotNotFound: a request on a session that arrives
// as the handler closes is told the server is going away (503), not that
// its session does not exist (404, after which a client initializes
// again, on a server that is going away).
func TestShutdownAnswers503NotNotFound(t *testing.T) {
	auth := blockingAuth{inside: make(chan struct{}), proceed: make(chan struct{})}
	h, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: auth})
	id := open(t, url, map[string]string{"Authorization": "Bearer inv"})
	answered := make(chan response, 1)
	go func() {
		answered <- do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer inv", "X-Hold": "1", mcphttp.HeaderSessionID: id}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	}()
	<-auth.inside
	h.Close()
	close(auth.proceed)
	if r := <-answered; r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
		t.Errorf("a request as the handler closed: %d %s", r.status, r.raw)
	}
}

// TestCallerShare: a caller at its share of the requests in flight waits
// for one of its own places and is then answered 503, one at its share of
// the streams at once, while another caller is served.
func TestCallerShare(t *testing.T) {
	srv := newMCPServer(t)
	g := bindGate(t, srv)
	_, url := endpoint(t, srv, mcphttp.Options{Authenticator: tokens{}, MaxInFlight: 8, MaxInFlightPerCaller: 2, MaxStreamsPerCaller: 1})
	inv := map[string]string{"Authorization": "Bearer inv"}
	tel := map[string]string{"Authorization": "Bearer teller"}
	sid := open(t, url, inv)
	invSession := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderSessionID: sid}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { do(t, http.MethodPost, url, invSession, waitCall(i)) })
		<-g.entered
	}
	if r := do(t, http.MethodPost, url, invSession, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); r.status != http.StatusServiceUnavailable || !strings.Contains(r.raw, "this caller") {
		t.Errorf("the caller over its share: %d %s", r.status, r.raw)
	}
	if id := open(t, url, tel); id == "" {
		t.Error("another caller was not served")
	}
	close(g.release)
	wg.Wait()

	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	h := func(auth map[string]string) map[string]string {
		return map[string]string{"Authorization": auth["Authorization"], mcphttp.HeaderProtocolVersion: "2026-07-28", mcphttp.HeaderMethod: "subscriptions/listen"}
	}
	stream(t, http.MethodPost, url, h(inv), listen)
	if r := do(t, http.MethodPost, url, h(inv), listen); r.status != http.StatusServiceUnavailable || !strings.Contains(r.raw, "this caller") {
		t.Errorf("a second stream of the caller: %d %s", r.status, r.raw)
	}
	stream(t, http.MethodPost, url, h(tel), listen) // another caller's opens
}
