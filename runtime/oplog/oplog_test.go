package oplog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// TestCappedClipsEveryRecord: whatever a record's strings hold (its
// message, attributes, an error, the maps and slices of a call's
// arguments, attributes added with With), the line written is bounded by
// MaxRecord and says what it left out.
func TestCappedClipsEveryRecord(t *testing.T) {
	var out bytes.Buffer
	limits := oplog.Limits{MaxString: 100, MaxRecord: 1000}
	log := slog.New(oplog.Capped(slog.NewJSONHandler(&out, nil), limits))
	huge := strings.Repeat("é", 1<<20)
	args := map[string]any{"note": huge}
	for i := range 10000 {
		args["k"+strconv.Itoa(i)] = []any{huge, json.Number("1")}
	}
	log.With("with", huge).Info(huge, "method", huge, "error", errors.New(huge), "arguments", args,
		"errors", []string{huge, huge}, slog.Group("g", "inner", huge))
	line := out.String()
	if len(line) > 2*limits.MaxRecord {
		t.Errorf("a record of megabytes logged as %d bytes", len(line))
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		t.Fatalf("not one JSON line: %v\n%.300s", err, line)
	}
	if !strings.Contains(line, "… (2097152 bytes)") || !strings.Contains(line, "more members") {
		t.Errorf("the line does not say what was clipped: %.500s", line)
	}
	if oplog.Capped(oplog.Capped(slog.DiscardHandler, limits), limits) != oplog.Capped(slog.DiscardHandler, limits) {
		// Comparing two fresh wrappers is false; what matters is that a
		// capped handler is not wrapped twice.
		h := oplog.Capped(slog.DiscardHandler, limits)
		if oplog.Capped(h, limits) != h {
			t.Error("a capped handler was wrapped again")
		}
	}
}

// blocked is a handler whose writes wait until the test releases them, as
// a stderr nobody reads does.
type blocked struct {
	release chan struct{}
	mu      sync.Mutex
	records []slog.Record
}

func (b *blocked) Enabled(context.Context, slog.Level) bool { return true }
func (b *blocked) Handle(_ context.Context, r slog.Record) error {
	<-b.release
	b.mu.Lock()
	b.records = append(b.records, r)
	b.mu.Unlock()
	return nil
}
func (b *blocked) WithAttrs([]slog.Attr) slog.Handler { return b }
func (b *blocked) WithGroup(string) slog.Handler      { return b }

// TestAsyncNeverWaits: with its writer blocked, logging does not wait; the
// records that did not fit are dropped, counted, and reported in a warning
// once the writer moves again; Close writes what is queued.
func TestAsyncNeverWaits(t *testing.T) {
	next := &blocked{release: make(chan struct{})}
	a := oplog.NewAsync(next, oplog.AsyncOptions{Buffer: 8})
	log := slog.New(a)
	done := make(chan struct{})
	go func() {
		for i := range 1000 {
			log.Info("r", "i", i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("logging waited for a blocked writer")
	}
	close(next.release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var written, reported int64
	for _, r := range next.records {
		switch r.Message {
		case "r":
			written++
		case "log records dropped":
			r.Attrs(func(a slog.Attr) bool {
				reported += a.Value.Int64()
				return true
			})
		}
	}
	// The writer holds one record, the queue 8; what came meanwhile was
	// dropped, and said to be.
	if written+reported != 1000 || written > 8+1 {
		t.Errorf("%d written and %d reported dropped of 1000 with 8 queued", written, reported)
	}
	log.Info("after Close")
	if a.Dropped() != 1 {
		t.Errorf("a record after Close: %d dropped", a.Dropped())
	}
	if a.Lost() != reported+1 {
		t.Errorf("Lost = %d, want the %d reported and the one after Close", a.Lost(), reported)
	}
	// Close does not wait for a writer that never moves.
	stuck := oplog.NewAsync(&blocked{release: make(chan struct{})}, oplog.AsyncOptions{})
	slog.New(stuck).Info("never written")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := stuck.Close(ctx); err == nil {
		t.Error("Close returned nil with its writer stuck")
	}
}

// TestAsyncKeepsUpOnOneCore logs from two goroutines that hand one core
// to each other for every record, as a request and its handler's
// goroutine do: the writer, runnable but never handed the core, must
// still get it before the queue fills (see the queue's yieldAt). Two
// thousand records take a few milliseconds, less than the scheduler's
// 10 ms between preemptions: without the yield the writer ran only at
// the end and the log lost half of them.
//
// The local time zone is loaded first: the writer's first line loads it
// otherwise, a system call of some milliseconds in which, on one core,
// the callers log every record and the queue fills whatever the yield
// does (an execution trace of a failing run showed it).
func TestAsyncKeepsUpOnOneCore(t *testing.T) {
	slog.New(slog.NewJSONHandler(io.Discard, nil)).Info("the local zone loaded") // as a service's first line loads it
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var out countingWriter
	a := oplog.NewAsync(oplog.NewJSONHandler(&out, nil), oplog.AsyncOptions{Buffer: 1024})
	log := slog.New(a)
	ping, pong := make(chan int), make(chan int)
	go func() {
		for i := range ping {
			log.Info("r", "i", i)
			pong <- i
		}
	}()
	const n = 2000
	for i := range n {
		ping <- i
		<-pong
	}
	close(ping)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if lost := a.Lost(); lost != 0 || out.lines() != n {
		t.Errorf("%d of %d records lost, %d lines written", lost, n, out.lines())
	}
}

// countingWriter counts the lines written to it.
type countingWriter struct {
	mu sync.Mutex
	n  int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += bytes.Count(p, []byte("\n"))
	w.mu.Unlock()
	return len(p), nil
}

func (w *countingWriter) lines() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// TestPreviewReadsOnlyWhatItShows: a preview of a megabyte of arguments
// keeps within the limits, says what it left out, and allocates a small
// multiple of the limit, not of the text.
func TestPreviewReadsOnlyWhatItShows(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"note":"` + strings.Repeat("n", 1<<20) + `","list":[`)
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"k":` + strconv.Itoa(i) + `}`)
	}
	b.WriteString(`],"deep":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`)
	raw := []byte(b.String())
	limits := oplog.Limits{MaxString: 64, MaxRecord: 4096}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := oplog.Preview(raw, limits)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64*uint64(limits.MaxRecord) {
		t.Errorf("previewing %d bytes allocated %d", len(raw), alloc)
	}
	m, _ := v.(map[string]any)
	note, _ := m["note"].(string)
	list, _ := m["list"].([]any)
	if !strings.HasSuffix(note, "… (1048576 bytes)") || len(list) == 0 || !strings.HasSuffix(list[len(list)-1].(string), "more elements") {
		t.Errorf("preview: note %.80q, list of %d", note, len(list))
	}
	if got := oplog.Preview([]byte(`{"a":[1,"x",true,null]}`), oplog.Limits{}); !equalJSON(got, `{"a":[1,"x",true,null]}`) {
		t.Errorf("a small value previews as %v", got)
	}
}

func equalJSON(v any, want string) bool {
	got, _ := json.Marshal(v)
	return string(got) == want
}

// TestAsyncWritesEveryRecordInOrder: records that need no clipping (short
// strings, text within the limits, as the call log writes arguments) are
// written as they are, those that do are clipped, and a burst is written
// whole and in order while the writer gathers records in batches.
func TestAsyncWritesEveryRecordInOrder(t *testing.T) {
	var buf bytes.Buffer
	a := oplog.NewAsync(slog.NewJSONHandler(&buf, nil), oplog.AsyncOptions{Limits: oplog.Limits{MaxString: 64, MaxRecord: 256}, Buffer: 4096})
	log := slog.New(a)
	log.Info("call", "arguments", json.RawMessage(`{"a":[1,2],"b":"x"}`))
	log.Info("call", "arguments", json.RawMessage(`{"long":"`+strings.Repeat("y", 100)+`"}`))
	for i := range 2000 {
		log.Info("burst", "i", i)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2002 {
		t.Fatalf("%d lines written of 2002", len(lines))
	}
	if !strings.Contains(lines[0], `"arguments":{"a":[1,2],"b":"x"}`) {
		t.Errorf("text that fits is not written as it is: %s", lines[0])
	}
	var clipped struct{ Arguments any }
	if err := json.Unmarshal([]byte(lines[1]), &clipped); err != nil {
		t.Fatal(err)
	}
	if s, ok := clipped.Arguments.(string); !ok || len(s) > 64+32 {
		t.Errorf("text over MaxString is not clipped: %s", lines[1])
	}
	for i, line := range lines[2:] {
		if !strings.Contains(line, `"i":`+strconv.Itoa(i)+"}") {
			t.Fatalf("line %d of the burst is %s", i, line)
		}
	}
}
