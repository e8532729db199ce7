package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// answersFuzzSeeds are message sequences, one message per line.
var answersFuzzSeeds = []string{
	// A session in the handshake era, and everything it may carry.
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fz.lookup","arguments":{"reference":"PMT-771"}}}
{"jsonrpc":"2.0","id":"4","method":"tools/call","params":{"name":"fz.lookup","arguments":{"reference":771,"x":1},"_meta":{"version":"^1","schemaHash":"fnv1a64:0"}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fz.panic"}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"fz.fail"}}
{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"fz://policy"}}
{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"fz","arguments":{"ref":"x"}}}
{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}
{"jsonrpc":"2.0","id":10,"method":"ping"}`,
	// Before the handshake, and notifications that must stay unanswered.
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"notifications/initialized"}
{"jsonrpc":"2.0","method":"notifications/unknown"}
{"jsonrpc":"2.0","method":"tools/list"}
{"jsonrpc":"2.0","id":3,"result":{}}
{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}`,
	// The stateless era: a stream that opens, one cancelled, one answered
	// when the server shuts down, and a request reusing a live id.
	`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"s","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"t","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":"s","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"t"}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fz.lookup","arguments":{"reference":"PMT-1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	// Malformed messages.
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}\n[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"id\":2}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[]}\n{\"id\":1}\n42\n{",
}

// answersFuzzServer is a server with a tool that validates, one that
// panics, one that fails, a tenant-bound resource and a prompt.
func answersFuzzServer(t *testing.T) *mcp.Server {
	srv, err := mcp.NewServer(mcp.Options{
		Resources: []mcp.Resource{{URI: "fz://policy", Name: "policy", Text: "t", Tenants: []string{"fz-tenant"}}},
		Prompts:   []mcp.Prompt{{Name: "fz", Arguments: []mcp.PromptArgument{{Name: "ref", Required: true}}, Template: "{ref}"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]mcp.Handler{
		"fz.lookup": func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("ok"), nil },
		"fz.panic":  func(context.Context, *mcp.Call) (*mcp.Result, error) { panic("boom") },
		"fz.fail":   func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, errors.New("failed") },
	}
	for name, h := range tools {
		err := srv.Bind(estate.ToolSpec{
			Name: name, Version: estate.MustParseVersion("1.0.0"), Title: name, Description: name,
			InputSchema: schema.MustParseJSON(`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"}},"additionalProperties":false}`),
			SideEffect:  estate.Read, DataClassification: estate.Internal, Owner: "fz", RequiredScopes: []string{"fz.read"},
		}, mcp.Tool{Handler: h})
		if err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// FuzzSessionAnswers feeds a session a sequence of messages, one per line
// of the input, and holds it to JSON-RPC's answering rule: every request
// gets exactly one well-formed response under its own id, a message that
// cannot be read gets exactly one error (under its id when that can be
// read, null otherwise), and notifications, responses and requests without
// an id get none. A subscriptions/listen stream that opens is answered when
// the server shuts down, unless the client cancelled it; whatever the
// server sends on its own is a well-formed notification.
func FuzzSessionAnswers(f *testing.F) {
	for _, s := range answersFuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		srv := answersFuzzServer(t)
		acks := make(chan struct{}, 64)
		var sentMu sync.Mutex
		var badSent []string
		send := func(msg []byte) {
			m, err := jsonrpc.Decode(msg)
			if err != nil || !m.IsNotification() || bytes.IndexByte(msg, '\n') >= 0 {
				sentMu.Lock()
				badSent = append(badSent, string(msg))
				sentMu.Unlock()
				return
			}
			if m.Method == "notifications/subscriptions/acknowledged" {
				acks <- struct{}{}
			}
		}
		sess := srv.NewSession(estate.Principal{AgentID: "fz", Tenant: "fz-tenant", Scopes: []string{"fz.read"}, MaxClassification: estate.Internal}, send)

		type open struct {
			line   string
			id     jsonrpc.ID
			answer chan []byte
		}
		var streams []open
		cancelled := map[string]bool{}
		for _, line := range bytes.Split(data, []byte("\n")) {
			msg, decodeErr := jsonrpc.Decode(line)
			if decodeErr == nil && msg.Method == "notifications/cancelled" {
				var p struct {
					RequestID jsonrpc.ID `json:"requestId"`
				}
				if json.Unmarshal(msg.Params, &p) == nil {
					cancelled[p.RequestID.String()] = true
				}
			}
			answer := make(chan []byte, 1)
			go func() { answer <- sess.Handle(context.Background(), line) }()
			var out []byte
			select {
			case out = <-answer:
			case <-acks: // a stream opened; it is answered, or not, later
				streams = append(streams, open{string(line), msg.ID, answer})
				continue
			}
			wantAnswer := decodeErr != nil || (msg.IsRequest() && !strings.HasPrefix(msg.Method, "notifications/"))
			wantID := msg.ID
			checkAnswer(t, line, out, wantAnswer, wantID)
		}
		srv.Close() // ends the open streams gracefully: each is answered
		for _, s := range streams {
			out := <-s.answer
			if cancelled[s.id.String()] && out == nil {
				continue
			}
			checkAnswer(t, []byte(s.line), out, true, s.id)
		}
		sess.Close()
		for _, m := range badSent {
			t.Errorf("the server sent %q, not a well-formed notification", m)
		}
	})
}

// checkAnswer holds out, the answer to line, to the rule: none when
// wantAnswer is false; otherwise one JSON-RPC response on one line, under
// wantID.
func checkAnswer(t *testing.T, line, out []byte, wantAnswer bool, wantID jsonrpc.ID) {
	t.Helper()
	if !wantAnswer {
		if out != nil {
			t.Fatalf("%q must not be answered, got %s", line, out)
		}
		return
	}
	if out == nil {
		t.Fatalf("%q was not answered", line)
	}
	m, err := jsonrpc.Decode(out)
	if err != nil || !m.IsResponse() || bytes.IndexByte(out, '\n') >= 0 {
		t.Fatalf("the answer to %q is not one well-formed response: %s (%v)", line, out, err)
	}
	if m.ID != wantID {
		t.Fatalf("the answer to %q has id %s, want %s", line, m.ID, wantID)
	}
}
