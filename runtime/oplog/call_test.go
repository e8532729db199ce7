package oplog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

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
func BenchmarkLogCall(b *testing.B) {
	sink := oplog.NewAsync(oplog.NewJSONHandler(io.Discard), oplog.AsyncOptions{})
	defer sink.Close(context.Background())
	c := oplog.CallRecord{
		Tool: "payments.lookup", Version: "2.1.0",
		SchemaHash: "sha256:" + strings.Repeat("0f1e2d3c", 8), RequestID: "1",
		Arguments: json.RawMessage(`{"reference": "PMT-771", "include_legs": true, "as_of": "2026-03-12"}`),
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c.Time = time.Now()
		oplog.LogCall(ctx, sink, &c)
	}
	if n := sink.Dropped(); n > int64(b.N)/100 {
		b.Logf("%d of %d records dropped: the writer fell behind", n, b.N)
	}
}
