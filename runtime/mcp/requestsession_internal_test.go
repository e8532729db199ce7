package mcp

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// known reports whether srv holds sess among the sessions that list
// changes, resource updates and Close reach.
func known(srv *Server, sess *Session) bool {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	_, ok := srv.sessions[sess]
	return ok
}

// A stateless request's session (NewRequestSession) is made known to the
// server only when it opens what the server reaches it for: a plain
// request takes no server-wide lock and leaves nothing behind, while a
// subscriptions/listen stream on such a session gets the list changes and
// is answered by Close, as one on a NewSession session is. A session of
// the handshake era is known from the start.
func TestRequestSessionKnownOnlyWhenListening(t *testing.T) {
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

	plain := srv.NewRequestSession(estate.Principal{}, func([]byte) {})
	if out := plain.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`)); !bytes.Contains(out, []byte(`"supportedVersions"`)) {
		t.Fatalf("server/discover: %s", out)
	}
	if known(srv, plain) {
		t.Error("a plain stateless request's session was registered with the server")
	}
	plain.Close()

	sent := make(chan []byte, 8)
	listening := srv.NewRequestSession(estate.Principal{}, func(msg []byte) { sent <- bytes.Clone(msg) })
	answered := make(chan []byte, 1)
	go func() {
		answered <- listening.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},`+meta+`}}`))
	}()
	next := func(what string) []byte {
		t.Helper()
		select {
		case msg := <-sent:
			return msg
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s within 10 s", what)
			return nil
		}
	}
	if ack := next("acknowledgement"); !bytes.Contains(ack, []byte("notifications/subscriptions/acknowledged")) {
		t.Fatalf("first message: %s", ack)
	}
	if !known(srv, listening) {
		t.Fatal("a session holding a subscriptions/listen stream is not known to the server")
	}
	srv.listChanged(listTools)
	if change := next("list change"); !bytes.Contains(change, []byte("notifications/tools/list_changed")) {
		t.Fatalf("after a change: %s", change)
	}
	srv.Close()
	select {
	case out := <-answered:
		if !bytes.Contains(out, []byte(`"id":"L"`)) || !bytes.Contains(out, []byte(`"result"`)) {
			t.Fatalf("Close answered the stream with %s", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not answer the stream within 10 s")
	}
	listening.Close()
	if known(srv, listening) {
		t.Error("a closed session is still known to the server")
	}

	handshake := srv.NewSession(estate.Principal{}, func([]byte) {})
	if !known(srv, handshake) {
		t.Error("NewSession's session is not known to the server")
	}
	handshake.Close()
	if known(srv, handshake) {
		t.Error("a closed NewSession session is still known to the server")
	}
}
