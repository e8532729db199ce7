package mcphttp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// sseEvent is one event as read off the wire.
type sseEvent struct {
	id, retry, data string
}

// next reads the next event (comments skipped); ok is false at the end of
// the stream.
func next(t *testing.T, br *bufio.Reader) (e sseEvent, ok bool) {
	t.Helper()
	fields := false
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if err != io.EOF && !strings.Contains(err.Error(), "closed") {
				t.Fatalf("stream: %v", err)
			}
			return e, false
		}
		line = strings.TrimRight(line, "\r\n")
		name, value, _ := strings.Cut(line, ": ")
		switch {
		case line == "" && fields:
			return e, true
		case name == "id":
			e.id, fields = value, true
		case name == "retry":
			e.retry, fields = value, true
		case name == "data":
			e.data, fields = e.data+value, true
		}
	}
}

// message decodes an event's data.
func (e sseEvent) message(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(e.data), &m); err != nil {
		t.Fatalf("event %q: %v", e.data, err)
	}
	return m
}

// steps binds steps.run: it sends progress 1, 2, ... as the test releases
// each step (a value on the channel, which holds 16), and answers when the
// channel is closed. Bound after the endpoint is served, it gives up when
// the test ends, so that a failed test does not hang on its endpoint.
func steps(t *testing.T, srv *mcp.Server) chan struct{} {
	t.Helper()
	release := make(chan struct{}, 16)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	err := srv.Bind(estate.ToolSpec{
		Name: "steps.run", Version: estate.MustParseVersion("1.0.0"), Title: "Steps", Description: "Reports progress step by step.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(ctx context.Context, call *mcp.Call) (*mcp.Result, error) {
		for n := 1; ; n++ {
			select {
			case _, ok := <-release:
				if !ok {
					return mcp.TextResult(fmt.Sprint(n-1, " steps")), nil
				}
			case <-stop:
				return nil, errors.New("the test ended")
			}
			if err := call.Progress(ctx, float64(n), 0, ""); err != nil {
				return nil, err
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return release
}

const stepsCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"steps.run","_meta":{"progressToken":"p"}}}`

// progressOf is the progress a notification reports, 0 for the answer.
func progressOf(t *testing.T, e sseEvent) int {
	m := e.message(t)
	if m["method"] != "notifications/progress" {
		return 0
	}
	return int(m["params"].(map[string]any)["progress"].(float64))
}

// A call's stream dropped mid-call and resumed with Last-Event-ID gets
// every event once, in order, the answer last; the stream's first event
// primes it with an id and no message (2025-11-25).
func TestResumeRequestStreamAfterDroppedConnection(t *testing.T) {
	srv := newMCPServer(t)
	_, url := endpoint(t, srv, mcphttp.Options{})
	release := steps(t, srv)
	sid := map[string]string{mcphttp.HeaderSessionID: open(t, url, nil)}

	release <- struct{}{}
	res, br := stream(t, http.MethodPost, url, sid, stepsCall)
	prime, _ := next(t, br)
	if prime.id == "" || prime.data != "" || prime.retry != "" {
		t.Fatalf("first event %+v, want a priming event: an id, no data, no retry (the server does not poll)", prime)
	}
	first, _ := next(t, br)
	if progressOf(t, first) != 1 || first.id == "" || first.id == prime.id {
		t.Fatalf("event %+v, want progress 1 under an id of its own", first)
	}
	res.Body.Close() // the connection drops

	release <- struct{}{} // sent while no connection is open, or on the dropped one
	_, br = stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: sid[mcphttp.HeaderSessionID], mcphttp.HeaderLastEventID: first.id}, "")
	if e, _ := next(t, br); e.id != first.id || e.data != "" {
		t.Fatalf("first event of the resumed stream %+v, want the priming event at %s", e, first.id)
	}
	ids := map[string]bool{prime.id: true, first.id: true}
	var got []int
	for want := 2; want <= 4; want++ {
		if want == 4 {
			close(release) // the answer
		} else if want == 3 {
			release <- struct{}{} // sent live on the resumed stream
		}
		e, ok := next(t, br)
		if !ok {
			t.Fatalf("the resumed stream ended after %v", got)
		}
		if ids[e.id] || e.id == "" {
			t.Errorf("event %+v: its id is missing or given before", e)
		}
		ids[e.id] = true
		got = append(got, progressOf(t, e))
	}
	if fmt.Sprint(got) != "[2 3 0]" {
		t.Fatalf("resumed events %v, want progress 2, 3, then the answer", got)
	}
	if e, ok := next(t, br); ok {
		t.Errorf("the stream goes on after the answer: %+v", e)
	}

	// The answered stream can still be replayed whole from its priming
	// event: a client that lost the answer gets it.
	_, br = stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: sid[mcphttp.HeaderSessionID], mcphttp.HeaderLastEventID: prime.id}, "")
	got = nil
	for e, ok := next(t, br); ok; e, ok = next(t, br) {
		if e.data != "" {
			got = append(got, progressOf(t, e))
		}
	}
	if fmt.Sprint(got) != "[1 2 3 0]" {
		t.Errorf("replay of the answered stream %v, want every event", got)
	}
}

// The GET stream's events carry ids too: one missed while the client was
// away is replayed to the GET that names the last it got.
func TestResumeGetStream(t *testing.T) {
	srv := newMCPServer(t)
	_, url := endpoint(t, srv, mcphttp.Options{})
	id := open(t, url, nil)
	res, br := stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id}, "")
	prime, _ := next(t, br)
	retire(t, srv)
	seen, _ := next(t, br)
	if seen.message(t)["method"] != "notifications/tools/list_changed" || seen.id == "" || seen.id == prime.id {
		t.Fatalf("event %+v", seen)
	}
	res.Body.Close()
	if err := srv.Registry().Deprecate("payments.lookup", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	_, br = stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id, mcphttp.HeaderLastEventID: seen.id}, "")
	if e, _ := next(t, br); e.id != seen.id || e.data != "" {
		t.Errorf("first event of the resumed stream %+v, want the priming event at %s", e, seen.id)
	}
	missed, _ := next(t, br)
	if missed.message(t)["method"] != "notifications/tools/list_changed" || missed.id == seen.id {
		t.Errorf("event %+v, want the list change missed", missed)
	}
}

// Only the session that owns a stream resumes it: another session's
// event id, an id of no stream and one that is no id are refused 400, and
// replay from an event the store no longer keeps is refused 410, rather
// than given with a gap the client cannot see.
func TestResumeRefused(t *testing.T) {
	srv := newMCPServer(t)
	_, url := endpoint(t, srv, mcphttp.Options{Events: eventstore.NewMemory(eventstore.MemoryOptions{MaxStreamBytes: 1024})})
	release := steps(t, srv)
	owner := open(t, url, nil)
	other := open(t, url, nil)

	for range 16 { // more than the stream's bound keeps
		release <- struct{}{}
	}
	_, br := stream(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: owner}, stepsCall)
	prime, _ := next(t, br)
	first, _ := next(t, br)
	close(release)
	for _, ok := next(t, br); ok; _, ok = next(t, br) { // to the answer
	}

	get := func(session, lastID string) response {
		return do(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: session, "Accept": "text/event-stream", mcphttp.HeaderLastEventID: lastID}, "")
	}
	for name, c := range map[string]struct {
		session, lastID string
		status          int
	}{
		"another session's":   {other, first.id, http.StatusBadRequest},
		"no stream's":         {owner, "0123456789abcdef-1", http.StatusBadRequest},
		"not an id":           {owner, "last", http.StatusBadRequest},
		"past the stream":     {owner, strings.Split(first.id, "-")[0] + "-99", http.StatusBadRequest},
		"no longer kept":      {owner, first.id, http.StatusGone},
		"no longer kept, too": {owner, prime.id, http.StatusGone},
	} {
		if r := get(c.session, c.lastID); r.status != c.status || r.errorCode() != -32600 {
			t.Errorf("%s id: %d %s, want %d", name, r.status, r.raw, c.status)
		}
	}
}

// With PollAfter, a 2025-11-25 call still running has its response closed
// after a priming event carrying the retry; the connection the client
// reconnects on with Last-Event-ID carries the answer. A client that does not accept
// streams, and an earlier revision's session, get the answer on the
// connection they asked on.
func TestPolling(t *testing.T) {
	srv := newMCPServer(t)
	g := bindGate(t, srv)
	_, url := endpoint(t, srv, mcphttp.Options{PollAfter: 1, PollRetry: 250e6})
	sid := map[string]string{mcphttp.HeaderSessionID: open(t, url, nil)}

	_, br := stream(t, http.MethodPost, url, sid, waitCall(3))
	prime, ok := next(t, br)
	if !ok || prime.id == "" || prime.data != "" || prime.retry != "250" {
		t.Fatalf("first event %+v, want a priming event with retry 250", prime)
	}
	if e, ok := next(t, br); ok {
		t.Fatalf("the stream goes on while the call runs: %+v", e)
	}
	<-g.entered
	_, br = stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: sid[mcphttp.HeaderSessionID], mcphttp.HeaderLastEventID: prime.id}, "")
	close(g.release) // answered on the connection the client came back on
	var answer map[string]any
	for e, ok := next(t, br); ok; e, ok = next(t, br) {
		if e.data != "" {
			answer = e.message(t)
		}
	}
	if answer["id"] != float64(3) || answer["result"] == nil {
		t.Errorf("resumed stream's last message %v, want the answer to id 3", answer)
	}

	// No polling for a client that takes JSON only, nor on 2025-06-18.
	if r := do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: sid[mcphttp.HeaderSessionID], "Accept": "application/json"}, waitCall(4)); r.status != http.StatusOK || r.result() == nil {
		t.Errorf("JSON-only client: %d %s", r.status, r.raw)
	}
	old := do(t, http.MethodPost, url, nil, strings.Replace(initialize, "2025-11-25", "2025-06-18", 1))
	oldSID := map[string]string{mcphttp.HeaderSessionID: old.header.Get(mcphttp.HeaderSessionID)}
	do(t, http.MethodPost, url, oldSID, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if r := do(t, http.MethodPost, url, oldSID, waitCall(5)); r.status != http.StatusOK || r.result() == nil {
		t.Errorf("2025-06-18 session: %d %s", r.status, r.raw)
	}
}
