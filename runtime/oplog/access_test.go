package oplog

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// oddAccessRecord is an access record as any request may make one: odd
// methods and paths (a path is the client's), statuses and durations at
// the edges, times slog writes and some it refuses.
func oddAccessRecord(rng *rand.Rand) AccessRecord {
	durations := []time.Duration{0, time.Nanosecond, 999, time.Microsecond, 1234567, -5 * time.Microsecond,
		time.Duration(rng.Int64N(int64(10 * time.Second))), 1<<63 - 1, -1 << 63}
	a := AccessRecord{
		Time: oddTime(rng), Method: oddString(rng, 3), Path: "/" + oddString(rng, 20),
		Status: []int{200, 202, 204, 400, 503, 0, -1, 1 << 40}[rng.IntN(8)], MCPMethod: oddString(rng, 4),
		Duration: durations[rng.IntN(len(durations))],
	}
	if rng.IntN(20) == 0 {
		a.Path = strings.Repeat("p", 300) // clipped
	}
	return a
}

// An access record is written as slog's JSON handler writes its slog
// record: the line made as it is queued to an Async over a JSONHandler
// is, byte for byte, the one an Async over slog's own handler writes,
// clipped ones included, in order, with other records between them; and
// every line says the request's method, path, status and duration.
func TestAsyncAccessLinesAreSlogsLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	limits := Limits{MaxString: 200, MaxRecord: 600}.withDefaults()
	appended := 0
	var a AccessRecord
	var s stamp
	sameLinesThroughBothSinks(t, 5000, func(i int) {
		a = oddAccessRecord(rng)
		if _, fit := a.fits(limits); fit {
			if _, ok := appendAccessLine(nil, &a, &s); ok {
				appended++
			}
		}
	}, func(as *Async) time.Time {
		LogAccess(context.Background(), as, &a)
		return a.Time
	})
	if appended < 3000 { // a quarter of the times are years slog refuses, a twentieth of the paths too long
		t.Errorf("%d lines of 5000 made without a slog record: the records do not exercise that line", appended)
	}
}

// LogAccess hands a plain handler the record: its time, message and
// attributes, the duration in milliseconds.
func TestLogAccessToAPlainHandler(t *testing.T) {
	var buf bytes.Buffer
	at := time.Date(2026, 12, 2, 8, 30, 0, 5000, time.UTC)
	LogAccess(context.Background(), slog.NewJSONHandler(&buf, nil), &AccessRecord{Time: at, Method: "POST", Path: "/mcp", Status: 200, MCPMethod: "tools/call", Duration: 1500 * time.Microsecond})
	want := `{"time":"2026-12-02T08:30:00.000005Z","level":"INFO","msg":"http request","method":"POST","path":"/mcp","status":200,"mcp_method":"tools/call","duration_ms":1.5}` + "\n"
	if buf.String() != want {
		t.Errorf("line:\n%s\nwant\n%s", buf.String(), want)
	}
}

// BenchmarkLogAccess is what logging a request costs it: the access
// record LogAccess queues, and the slog record the HTTP handler made
// before (with the time.Now and Async.Handle that took), each into a
// service's sink whose writer runs meanwhile on its own goroutine.
func BenchmarkLogAccess(b *testing.B) {
	start := time.Now()
	b.Run("record=access", func(b *testing.B) {
		sink := NewAsync(NewJSONHandler(io.Discard, nil), AsyncOptions{})
		defer sink.Close(context.Background())
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			took := time.Since(start)
			LogAccess(ctx, sink, &AccessRecord{Time: start.Add(took).Round(0), Method: "POST", Path: "/mcp", Status: 200, MCPMethod: "tools/call", Duration: took})
		}
	})
	b.Run("record=slog", func(b *testing.B) {
		sink := NewAsync(NewJSONHandler(io.Discard, nil), AsyncOptions{})
		defer sink.Close(context.Background())
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			r := slog.NewRecord(time.Now(), slog.LevelInfo, AccessMessage, 0)
			r.AddAttrs(slog.String("method", "POST"), slog.String("path", "/mcp"), slog.Int("status", 200),
				slog.String("mcp_method", "tools/call"), slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000))
			_ = sink.Handle(ctx, r)
		}
	})
}

// BenchmarkAccessLine is the writer's work for one access record: its
// line, as the asynchronous sink's goroutine appends it, and the same
// line through slog's JSON handler.
func BenchmarkAccessLine(b *testing.B) {
	a := AccessRecord{Time: time.Date(2026, 12, 2, 8, 30, 0, 123456789, time.UTC), Method: "POST", Path: "/mcp", Status: 200, MCPMethod: "tools/call", Duration: 1234567}
	var s stamp
	benchLine(b, "appendAccessLine", func(dst []byte) ([]byte, bool) { return appendAccessLine(dst, &a, &s) })
	benchSlogLine(b, a.Record)
}

// FuzzAccessLine holds the writer's own access line to slog's JSON
// handler's line for the same record, whatever its strings and numbers.
func FuzzAccessLine(f *testing.F) {
	f.Add("POST", "/mcp", 200, int64(1234567), int64(1764664200))
	f.Add("G\u2028T", "/\x00<\xff", -1, int64(-1<<63), int64(-62135596800))
	var s stamp // one stamp for every input, as a writer has
	f.Fuzz(func(t *testing.T, method, path string, status int, duration, unix int64) {
		a := AccessRecord{Time: time.Unix(unix, unix%1e9).UTC(), Method: method, Path: path, Status: status, MCPMethod: method + path, Duration: time.Duration(duration)}
		line, ok := appendAccessLine(nil, &a, &s)
		if !ok {
			return // the writer hands slog the record
		}
		if want := slogLine(t, a.Record()); string(line) != want {
			t.Fatalf("\nslog   %q\nwriter %q", want, line)
		}
	})
}
