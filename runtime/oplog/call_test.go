package oplog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// A call record is the same line whichever handler writes it: queued as
// it is by an Async (its slog record built by the writer), or handed to a
// plain handler as its slog record. A record too long for the limits is
// clipped either way.
func TestCallRecordIsOneLineWhateverTheHandler(t *testing.T) {
	at := time.Date(2026, 3, 12, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		rec  oplog.CallRecord
	}{
		{"text", oplog.CallRecord{Time: at, Tool: "payments.lookup", Version: "3.0.0", SchemaHash: "sha-1", RequestID: `"7"`,
			Arguments: json.RawMessage(`{"reference":"PMT-771"}`)}},
		{"preview", oplog.CallRecord{Time: at, Tool: "transfer", Version: "1.0.0", SchemaHash: "sha-2", RequestID: "8",
			Preview: map[string]any{"pin": "[REDACTED]"}}},
		{"too long", oplog.CallRecord{Time: at, Tool: "t", Version: "1.0.0", SchemaHash: "h", RequestID: "9",
			Arguments: json.RawMessage(`"` + strings.Repeat("x", 300) + `"`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limits := oplog.Limits{MaxString: 200, MaxRecord: 1000}
			var plain, queued bytes.Buffer
			oplog.LogCall(context.Background(), oplog.Capped(slog.NewJSONHandler(&plain, nil), limits), &tc.rec)
			async := oplog.NewAsync(slog.NewJSONHandler(&queued, nil), oplog.AsyncOptions{Limits: limits})
			ctx, cancel := context.WithCancel(context.Background())
			oplog.LogCall(ctx, async, &tc.rec)
			cancel() // the request ends before its record is written
			if err := async.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if plain.String() != queued.String() {
				t.Errorf("the lines differ:\nplain  %s\nqueued %s", plain.String(), queued.String())
			}
			var rec map[string]any
			if err := json.Unmarshal(queued.Bytes(), &rec); err != nil {
				t.Fatalf("not one JSON line: %v: %s", err, queued.String())
			}
			if rec["msg"] != oplog.CallMessage || rec["tool"] != tc.rec.Tool || rec["version"] != tc.rec.Version ||
				rec["schema_hash"] != tc.rec.SchemaHash || rec["request_id"] != tc.rec.RequestID || rec["time"] != "2026-03-12T09:30:00Z" {
				t.Errorf("record: %v", rec)
			}
			if tc.name == "too long" && !strings.Contains(queued.String(), "(302 bytes)") {
				t.Errorf("the long arguments were not clipped: %s", queued.String())
			}
		})
	}
}

// BenchmarkLogCall is what logging a call costs the request: LogCall of
// the benchmarks' call record (bench/) into a service's sink, an Async
// over a JSONHandler, whose writer runs meanwhile on its own goroutine.
// time=read is a record without a time, whose time LogCall takes (one
// clock read); time=began one whose time the server told from the reading
// its request began with, as it does for a request its transport or its
// deadline timed (mono.Wall: no clock read).
func BenchmarkLogCall(b *testing.B) {
	for _, when := range []string{"read", "began"} {
		b.Run("time="+when, func(b *testing.B) {
			sink := oplog.NewAsync(oplog.NewJSONHandler(io.Discard, nil), oplog.AsyncOptions{})
			defer sink.Close(context.Background())
			c := oplog.CallRecord{
				Tool: "payments.lookup", Version: "2.1.0",
				SchemaHash: "sha256:" + strings.Repeat("0f1e2d3c", 8), RequestID: "1",
				Arguments: json.RawMessage(`{"reference": "PMT-771", "include_legs": true, "as_of": "2026-03-12"}`),
				Checked:   true,
			}
			began := mono.Now()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if when == "began" {
					c.Time = mono.Wall(began)
				}
				oplog.LogCall(ctx, sink, &c)
			}
			if n := sink.Dropped(); n > int64(b.N)/100 {
				b.Logf("%d of %d records dropped: the writer fell behind", n, b.N)
			}
		})
	}
}

// gatedWriter holds its first Write until open is closed.
type gatedWriter struct {
	open  chan struct{}
	mu    sync.Mutex
	first bool
	buf   bytes.Buffer
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	first := !w.first
	w.first = true
	w.mu.Unlock()
	if first {
		<-w.open
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// A record logged without a time is logged at the time LogCall is called,
// not when its line is written: a writer held up for 50 ms writes the
// record queued behind the one it is writing with the time it was queued
// at, whichever handler the queue hands it to (the JSONHandler's own line,
// or a slog record). A plain handler gets the time of the call as well.
func TestCallRecordWithoutATimeHasTheTimeItWasLogged(t *testing.T) {
	rec := func() *oplog.CallRecord {
		return &oplog.CallRecord{Tool: "payments.lookup", Version: "3.0.0", SchemaHash: "sha-1", RequestID: "7",
			Arguments: json.RawMessage(`{"reference":"PMT-771"}`), Checked: true}
	}
	timeOf := func(t *testing.T, line string) time.Time {
		t.Helper()
		var got struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil || got.Msg != oplog.CallMessage {
			t.Fatalf("not a call record: %v: %s", err, line)
		}
		return got.Time
	}
	const slack = 5 * time.Millisecond // the readings on both sides of LogCall, and the conversion
	for _, tc := range []struct {
		name string
		next func(io.Writer) slog.Handler
	}{
		{"JSONHandler", func(w io.Writer) slog.Handler { return oplog.NewJSONHandler(w, nil) }},
		{"slog", func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &gatedWriter{open: make(chan struct{})}
			async := oplog.NewAsync(tc.next(w), oplog.AsyncOptions{})
			oplog.LogCall(context.Background(), async, rec()) // the writer is held up writing it
			time.Sleep(10 * time.Millisecond)                 // the writer has it by now
			before := time.Now()
			oplog.LogCall(context.Background(), async, rec())
			after := time.Now()
			time.Sleep(50 * time.Millisecond)
			close(w.open)
			if err := async.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(w.buf.String()), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d lines: %s", len(lines), w.buf.String())
			}
			if got := timeOf(t, lines[1]); got.Before(before.Add(-slack)) || got.After(after.Add(slack)) {
				t.Errorf("logged between %s and %s, written with %s", before.Format(time.RFC3339Nano), after.Format(time.RFC3339Nano), got.Format(time.RFC3339Nano))
			}
		})
	}
	t.Run("plain handler", func(t *testing.T) {
		var buf bytes.Buffer
		before := time.Now()
		oplog.LogCall(context.Background(), slog.NewJSONHandler(&buf, nil), rec())
		after := time.Now()
		if got := timeOf(t, strings.TrimSpace(buf.String())); got.Before(before.Add(-slack)) || got.After(after.Add(slack)) {
			t.Errorf("logged between %s and %s, written with %s", before, after, got)
		}
	})
}

// TestJSONHandlerLevel: a JSONHandler writes the records at its level and
// above, and a *slog.LevelVar moves that level while records are written:
// at Warn a call record (Info) is not written, through the Async's own
// line or through slog; back at Info it is, the same line as before.
func TestJSONHandlerLevel(t *testing.T) {
	var out bytes.Buffer // read once Close returned: the writer is done
	var level slog.LevelVar
	level.Set(slog.LevelWarn)
	async := oplog.NewAsync(oplog.NewJSONHandler(&out, &oplog.JSONOptions{Level: &level}), oplog.AsyncOptions{})
	log := slog.New(async)
	ctx := context.Background()
	rec := oplog.CallRecord{Tool: "payments.lookup", Version: "3.0.0", SchemaHash: "h", RequestID: "1",
		Arguments: json.RawMessage(`{"reference":"PMT-771"}`), Checked: true}
	logCall := func() {
		if async.Enabled(ctx, slog.LevelInfo) { // as the server asks before it logs a call
			oplog.LogCall(ctx, async, &rec)
		}
	}
	logCall()
	log.Info("an info line")
	log.Warn("a warning")
	level.Set(slog.LevelInfo)
	logCall()
	if err := async.Close(ctx); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"msg":"a warning"`) ||
		!strings.Contains(lines[1], `"msg":"tool call"`) || !strings.Contains(lines[1], `"arguments":{"reference":"PMT-771"}`) {
		t.Errorf("at Warn, then Info, the log wrote:\n%s", out.String())
	}
	if oplog.NewJSONHandler(io.Discard, nil).Enabled(ctx, slog.LevelDebug) {
		t.Error("with no options a JSONHandler writes Debug records")
	}
}
