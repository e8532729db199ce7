package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// pipelinedFuzzSeed is a client writing ahead: the handshake, then calls,
// lists and pings, with cancellations and a repeated id among them.
func pipelinedFuzzSeed() string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 1; i <= 40; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`+"\n", i-1)
		case 1:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i)
		case 2:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i-1) // the id before it, perhaps still in flight
		default:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fz.lookup","arguments":{"reference":"PMT-%d"}}}`+"\n", i, 100+i)
		}
	}
	return b.String()
}

// FuzzServeStreamAnswers writes the input to ServeStream at once, as a
// client writing ahead does, so that requests run concurrently and answers
// are written in batches, and holds the stream to what that must not
// break: every line written is one whole, well-formed JSON-RPC response or
// notification (or, on a session of 2025-03-26, a batch's array of
// responses); a response carries the id of a request the input sent, no
// more often than the input sent it; and the stream ends with nil at the
// end of the input.
func FuzzServeStreamAnswers(f *testing.F) {
	for _, s := range answersFuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(pipelinedFuzzSeed()))
	f.Fuzz(func(t *testing.T, data []byte) {
		srv := answersFuzzServer(t)
		defer srv.Close()
		// The ids the input's lines may be answered under, by text: a
		// request's, and that of a line refused at the envelope whose id
		// could be read.
		sent := map[string]int{}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if m, err := jsonrpc.Decode(line); err != nil && !m.ID.IsZero() {
				sent[m.ID.String()]++
			}
			for _, m := range messagesOf(line) {
				if m.IsRequest() {
					sent[m.ID.String()]++
				}
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard, not a measure
		defer cancel()
		var out bytes.Buffer
		p := estate.Principal{AgentID: "fz", Tenant: "fz-tenant", Scopes: []string{"fz.read"}, MaxClassification: estate.Internal}
		if err := srv.ServeStream(ctx, bytes.NewReader(data), &out, p); err != nil {
			t.Fatalf("ServeStream: %v", err)
		}
		answered := map[string]int{}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			msgs := messagesOf(line)
			if msgs == nil {
				t.Fatalf("the server wrote %q, not a well-formed message", line)
			}
			for _, m := range msgs {
				if !m.IsResponse() && !m.IsNotification() {
					t.Fatalf("the server wrote %q, neither a response nor a notification", line)
				}
				if m.IsResponse() && !m.ID.IsZero() {
					id := m.ID.String()
					if answered[id]++; answered[id] > sent[id] {
						t.Fatalf("id %s answered %d times, sent %d times", id, answered[id], sent[id])
					}
				}
			}
		}
	})
}

// messagesOf reads line as one JSON-RPC message or a batch of them; nil
// when it is neither.
func messagesOf(line []byte) []jsonrpc.Message {
	if m, err := jsonrpc.Decode(line); err == nil {
		return []jsonrpc.Message{m}
	}
	var members []json.RawMessage
	if json.Unmarshal(line, &members) != nil || len(members) == 0 {
		return nil
	}
	var msgs []jsonrpc.Message
	for _, raw := range members {
		m, err := jsonrpc.Decode(raw)
		if err != nil {
			return nil
		}
		msgs = append(msgs, m)
	}
	return msgs
}
