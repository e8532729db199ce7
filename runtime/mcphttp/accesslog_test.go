package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// lockedBuffer is a log's output, read while the handler writes to it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Every request gets one access log record: its method, path, status and
// MCP method, how long it took, and the time it ended, which lies between
// the client's sending it and the record's being written; whether the
// log is a plain slog handler or a service's asynchronous sink, whose
// writer writes the line itself.
func TestAccessLogRecordsEachRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  func(io.Writer) slog.Handler
	}{
		{"slog", func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }},
		{"sink", func(w io.Writer) slog.Handler {
			sink := oplog.NewAsync(oplog.NewJSONHandler(w, nil), oplog.AsyncOptions{})
			t.Cleanup(func() { sink.Close(context.Background()) })
			return sink
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { testAccessLog(t, tc.log) })
	}
}

func testAccessLog(t *testing.T, log func(io.Writer) slog.Handler) {
	var out lockedBuffer
	_, url := endpoint(t, newMCPServer(t), mcphttp.Options{Authenticator: tokens{}, Logger: slog.New(log(&out))})
	before := time.Now()
	r := do(t, http.MethodPost, url, map[string]string{"Authorization": "Bearer inv"}, initialize)
	if r.status != http.StatusOK {
		t.Fatalf("initialize: %d %s", r.status, r.raw)
	}
	var rec struct {
		Time       time.Time `json:"time"`
		Msg        string    `json:"msg"`
		Method     string    `json:"method"`
		Path       string    `json:"path"`
		Status     int       `json:"status"`
		MCPMethod  string    `json:"mcp_method"`
		DurationMS *float64  `json:"duration_ms"`
	}
	deadline := time.Now().Add(5 * time.Second)
	for rec.Msg == "" {
		for line := range strings.SplitSeq(out.String(), "\n") {
			if strings.Contains(line, `"msg":"http request"`) {
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("%v: %s", err, line)
				}
			}
		}
		if rec.Msg == "" {
			if time.Now().After(deadline) {
				t.Fatalf("no access log record:\n%s", out.String())
			}
			time.Sleep(time.Millisecond)
		}
	}
	after := time.Now()
	if rec.Method != http.MethodPost || rec.Path != "/mcp" || rec.Status != http.StatusOK || rec.MCPMethod != "initialize" {
		t.Errorf("record: %+v", rec)
	}
	if rec.Time.Before(before) || rec.Time.After(after) {
		t.Errorf("the record's time %s is not between the request's sending (%s) and its record's reading (%s)",
			rec.Time.Format(time.RFC3339Nano), before.Format(time.RFC3339Nano), after.Format(time.RFC3339Nano))
	}
	if rec.DurationMS == nil || *rec.DurationMS < 0 || *rec.DurationMS > float64(after.Sub(before).Microseconds())/1000 {
		t.Errorf("duration_ms %v, the round trip took %s", rec.DurationMS, after.Sub(before))
	}
}
