package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// batchAnswers decodes a batch's answer: one answer per id text.
func batchAnswers(t *testing.T, line string) map[string]json.RawMessage {
	t.Helper()
	var answers []json.RawMessage
	if err := json.Unmarshal([]byte(line), &answers); err != nil {
		t.Fatalf("not an array of answers: %s", line)
	}
	byID := map[string]json.RawMessage{}
	for _, a := range answers {
		var head struct{ ID json.RawMessage }
		if err := json.Unmarshal(a, &head); err != nil {
			t.Fatalf("answer %s: %v", a, err)
		}
		if _, repeated := byID[string(head.ID)]; repeated {
			t.Fatalf("two answers under id %s: %s", head.ID, line)
		}
		byID[string(head.ID)] = a
	}
	return byID
}

// On a 2025-03-26 session a batch is served member by member over stdio:
// each member passes every gate alone and gets its own answer (or none,
// for a notification), a malformed member is answered with its error
// without spoiling the others, and initialize is refused inside a batch.
func TestBatchOn20250326(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250326)
	got := w.call(`[` +
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"},` +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"bad"}}},` +
		`{"jsonrpc":"2.0","id":4,"method":"no/such/method"},` +
		`{"jsonrpc":"1.0","id":5,"method":"ping"},` +
		`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}},` +
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"nope"}},` +
		`42]`)
	answers := batchAnswers(t, got)
	if len(answers) != 8 {
		t.Fatalf("%d answers, want 8 (none for the notification): %s", len(answers), got)
	}
	if jget(t, string(answers["1"]), "result", "tools", 0, "name") == nil {
		t.Errorf("tools/list: %s", answers["1"])
	}
	if text, _ := jget(t, string(answers["2"]), "result", "content", 0, "text").(string); !strings.HasPrefix(text, "PMT-771: HELD") || b.called("payments.lookup@1.0.0") != 1 {
		t.Errorf("tools/call: %s", answers["2"])
	}
	for id, want := range map[string]string{"3": "-32602", "4": "-32601", "5": "-32600", "6": "-32600", "7": "-32602", "null": "-32600"} {
		if c := code(t, string(answers[id])); c != want {
			t.Errorf("member %s: %s, want %s", id, answers[id], want)
		}
	}
	if msg, _ := jget(t, string(answers["6"]), "error", "message").(string); !strings.Contains(msg, "initialize must not be part of a batch") {
		t.Errorf("initialize in a batch: %s", answers["6"])
	}
	// The session's handshake stands: initialize was not run again.
	if got := w.call(`{"jsonrpc":"2.0","id":8,"method":"ping"}`); code(t, got) != "" {
		t.Errorf("ping after the batch: %s", got)
	}

	// An empty array is one invalid-request error, not an array; text
	// that is not well formed is one parse error.
	for line, want := range map[string]string{`[]`: "-32600", ` [ ] `: "-32600", `[{"jsonrpc":"2.0","id":1,"method":"ping"}`: "-32700"} {
		got := w.call(line)
		if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":`) || code(t, got) != want {
			t.Errorf("%s: %s, want one %s error", line, got, want)
		}
	}
	// A batch of notifications only is not answered at all.
	w.send(`[{"jsonrpc":"2.0","method":"notifications/progress","params":{}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`)
	w.quiet()
	if rest, err := w.finish(); err != nil || len(rest) != 0 {
		t.Errorf("after the batches: %v %v", rest, err)
	}
}

// Members are taken in order: notifications/initialized in a batch opens
// the session for the requests after it in the same batch.
func TestBatchMembersInOrder(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	got := w.call(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}`)
	if jget(t, got, "result", "protocolVersion") != "2025-03-26" {
		t.Fatalf("initialize: %s", got)
	}
	got = w.call(`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"l","method":"tools/list"}]`)
	if a := batchAnswers(t, got)[`"l"`]; len(a) == 0 || code(t, string(a)) != "" {
		t.Errorf("tools/list after notifications/initialized in one batch: %s", got)
	}
}

// Every other revision refuses a batch as before: one -32600 under id
// null, no member served. So does a session that has not negotiated.
func TestBatchRefusedElsewhere(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}]`
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch requests are not supported"}}`
	for _, rev := range []mcp.Revision{"", mcp.Revision20241105, mcp.Revision20250618, mcp.Revision20251125} {
		b := newBank(t, mcp.Options{})
		w := serve(t, b.srv, investigator)
		if rev != "" {
			w.handshake(rev)
		}
		if got := w.call(batch); got != want {
			t.Errorf("%q: %s", rev, got)
		}
		if b.called("payments.lookup@1.0.0") != 0 {
			t.Errorf("%q: a member of a refused batch ran", rev)
		}
	}
	// A stateless-era request is never part of a batch either.
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	if got := w.call(`[{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + statelessMeta + `}}]`); got != want {
		t.Errorf("stateless: %s", got)
	}
}
