package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPConnAnswers: an answer as JSON, an answer as an event stream
// (with a notification before it), and 202 for a notification; the session
// id from initialize is sent back on every later message.
func TestHTTPConnAnswers(t *testing.T) {
	var sessions []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sessions = append(sessions, r.Header.Get("Mcp-Session-Id"))
		switch {
		case strings.Contains(string(body), `"initialize"`):
			w.Header().Set("Mcp-Session-Id", "s1")
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"x","version":"1"}}}`)
		case strings.Contains(string(body), `"notifications/initialized"`):
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":2,\n")
			io.WriteString(w, "data: \"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]}}\n\n")
		}
	}))
	defer srv.Close()
	conn := NewHTTPConn(srv.URL, nil, nil)
	c := New(conn, Options{})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := c.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetProtocolVersion(info.ProtocolVersion)
	tools, err := c.ListTools(ctx, true)
	if err != nil || len(tools) != 1 || tools[0].Name != "t" {
		t.Fatalf("tools %+v, %v", tools, err)
	}
	if want := []string{"", "s1", "s1"}; strings.Join(sessions, ",") != strings.Join(want, ",") {
		t.Errorf("session ids sent: %q, want %q", sessions, want)
	}
}
