package mcphttp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// openRevision initializes a handshake-era session of rev and returns the
// headers of a request on it.
func openRevision(t *testing.T, url, token, rev string) map[string]string {
	t.Helper()
	r := do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer " + token},
		strings.Replace(initialize, "2025-11-25", rev, 1))
	id := r.header.Get(mcphttp.HeaderSessionID)
	if r.status != http.StatusOK || id == "" || r.result()["protocolVersion"] != rev {
		t.Fatalf("initialize %s: %d %s", rev, r.status, r.raw)
	}
	h := map[string]string{"Authorization": "Bearer " + token, mcphttp.HeaderSessionID: id}
	if r := do(t, http.MethodPost, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", r.status, r.raw)
	}
	return h
}

// Over HTTP a 2025-03-26 session takes a batch in one POST: the answer is
// the array of the members' answers, each member through every gate of its
// own (the principal's discovery included); a batch of notifications only
// is 202 with no body; an empty array is one error. Other revisions, and
// a batch without a session, are refused as before.
func TestBatchOverHTTP(t *testing.T) {
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}})
	on := openRevision(t, url, "teller", "2025-03-26")
	r := do(t, http.MethodPost, url, on, `[`+
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"},`+
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}},`+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"status.ping"}},`+
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}},`+
		`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}},`+
		`{"id":5}]`)
	var answers []map[string]any
	if err := json.Unmarshal([]byte(r.raw), &answers); r.status != http.StatusOK || err != nil || len(answers) != 5 {
		t.Fatalf("batch: %d %s", r.status, r.raw)
	}
	byID := map[string]map[string]any{}
	for _, a := range answers {
		byID[string(must(json.Marshal(a["id"])))] = a
	}
	code := func(id string) float64 {
		e, _ := byID[id]["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	tools, _ := byID["1"]["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "status.ping" {
		t.Errorf("tools/list in a batch, as the teller: %v", byID["1"])
	}
	if !strings.Contains(string(must(json.Marshal(byID["2"]["result"]))), "pong") {
		t.Errorf("tools/call: %v", byID["2"])
	}
	// The teller may not see the lookup; initialize is refused in a
	// batch; a member that is not a message is an invalid request.
	if code("3") != -32601 || code("4") != -32600 || code("5") != -32600 {
		t.Errorf("refused members: %s", r.raw)
	}

	if r := do(t, http.MethodPost, url, on, `[{"jsonrpc":"2.0","method":"notifications/progress","params":{}}]`); r.status != http.StatusAccepted || r.raw != "" {
		t.Errorf("notifications only: %d %q", r.status, r.raw)
	}
	if r := do(t, http.MethodPost, url, on, `[]`); r.errorCode() != -32600 || r.body["id"] != nil || !strings.HasPrefix(r.raw, "{") {
		t.Errorf("empty batch: %d %s", r.status, r.raw)
	}

	batch := `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`
	later := openRevision(t, url, "teller", "2025-06-18")
	for name, headers := range map[string]map[string]string{
		"2025-06-18 session": later,
		"no session":         {"Authorization": "Bearer teller"},
		"another's session":  {"Authorization": "Bearer inv", mcphttp.HeaderSessionID: on[mcphttp.HeaderSessionID]},
	} {
		r := do(t, http.MethodPost, url, headers, batch)
		if r.status != http.StatusBadRequest || r.errorCode() != -32600 || !strings.Contains(r.raw, "batch requests are not supported") {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
