package mcphttp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/fleet"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// failing is a session store that cannot be reached, as a Redis that is
// down is.
type failing struct{ fleet.Store }

func (failing) LoadSession(context.Context, string, time.Duration) ([]byte, error) {
	return nil, context.DeadlineExceeded
}

// TestSessionsSharedByReplicas: two handlers of two servers share one
// store, as replicas behind a load balancer do. A session opened on one
// is served on the other, bound to its principal, in the state the other
// left it (its log level); DELETE on either ends it on both; a store that
// cannot be read is 503, never 404.
func TestSessionsSharedByReplicas(t *testing.T) {
	store := fleet.NewMemory(eventstore.MemoryOptions{})
	opts := mcphttp.Options{Authenticator: tokens{}, Sessions: store, Events: store.Events()}
	_, a := endpoint(t, newMCPServer(t), opts)
	_, b := endpoint(t, newMCPServer(t), opts)
	bearer := map[string]string{"Authorization": "Bearer inv"}
	id := open(t, a, bearer)
	with := map[string]string{"Authorization": "Bearer inv", mcphttp.HeaderSessionID: id}

	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if r := do(t, http.MethodPost, b, with, list); r.status != http.StatusOK || len(toolNames(r)) != 2 {
		t.Fatalf("tools/list on the other replica: %d %s", r.status, r.raw)
	}
	other := map[string]string{"Authorization": "Bearer teller", mcphttp.HeaderSessionID: id}
	if r := do(t, http.MethodPost, b, other, list); r.status != http.StatusNotFound {
		t.Fatalf("another principal on the session: %d %s", r.status, r.raw)
	}

	setLevel := `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}}`
	if r := do(t, http.MethodPost, b, with, setLevel); r.status != http.StatusOK || r.result() == nil {
		t.Fatalf("logging/setLevel on b: %d %s", r.status, r.raw)
	}
	// a held the session before b changed it: it serves the new state.
	rec, err := store.LoadSession(context.Background(), id, time.Minute)
	if err != nil || !strings.Contains(string(rec), `"logLevel":"error"`) {
		t.Fatalf("the shared record: %s, %v", rec, err)
	}
	if r := do(t, http.MethodPost, a, with, list); r.status != http.StatusOK {
		t.Fatalf("tools/list on a again: %d %s", r.status, r.raw)
	}

	_, down := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, Sessions: failing{store}, Events: store.Events()})
	if r := do(t, http.MethodPost, down, with, list); r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 {
		t.Fatalf("a replica whose store is down: %d %s", r.status, r.raw)
	}

	if r := do(t, http.MethodDelete, b, with, ""); r.status != http.StatusNoContent {
		t.Fatalf("DELETE on b: %d %s", r.status, r.raw)
	}
	if r := do(t, http.MethodPost, a, with, list); r.status != http.StatusNotFound {
		t.Fatalf("a session ended on b, on a: %d %s", r.status, r.raw)
	}
}

// TestSharedSessionsOverflowALocalTable: a replica whose table is full
// lets its least recently used session go to serve a session of the
// fleet, which it reads again from the store when its client comes back.
func TestSharedSessionsOverflowALocalTable(t *testing.T) {
	store := fleet.NewMemory(eventstore.MemoryOptions{})
	_, a := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, Sessions: store, Events: store.Events()})
	_, small := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, Sessions: store, Events: store.Events(), MaxSessions: 1})
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	first, second := open(t, a, map[string]string{"Authorization": "Bearer inv"}), open(t, a, map[string]string{"Authorization": "Bearer teller"})
	for _, round := range []string{"first", "again"} {
		for who, id := range map[string]string{"inv": first, "teller": second} {
			r := do(t, http.MethodPost, small, map[string]string{"Authorization": "Bearer " + who, mcphttp.HeaderSessionID: id}, list)
			if r.status != http.StatusOK {
				t.Fatalf("%s, %s's session on the replica of one place: %d %s", round, who, r.status, r.raw)
			}
		}
	}
}
