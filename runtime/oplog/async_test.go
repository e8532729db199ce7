package oplog

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAsyncBoundsItsBytes: with its writer stuck, a queue whose bytes
// allow ten records takes ten, however many more its record bound
// allows, and counts the rest lost; once they are written it holds none.
func TestAsyncBoundsItsBytes(t *testing.T) {
	c := CallRecord{Tool: "t", RequestID: "1", Arguments: json.RawMessage(`{"a":1}`)}
	n, fit := c.fits(Limits{}.withDefaults())
	if !fit {
		t.Fatal("the record does not fit the default limits")
	}
	release := make(chan struct{})
	a := NewAsync(waitingHandler{release}, AsyncOptions{Buffer: 1000, BufferBytes: 10 * (entryBytes + n)})
	for range 100 {
		LogCall(context.Background(), a, &c)
	}
	if lost := a.Lost(); lost != 90 {
		t.Errorf("%d of 100 records lost, want 90", lost)
	}
	close(release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.q.mu.Lock()
	defer a.q.mu.Unlock()
	if a.q.bytes != 0 {
		t.Errorf("%d bytes counted once everything was written", a.q.bytes)
	}
}

// TestAsyncQueuesNoMoreOfACallThanItsLine: a call of a megabyte of
// arguments takes the queue no more than a record's limit (its line
// clips them), where the whole text used to be copied into the queue.
func TestAsyncQueuesNoMoreOfACallThanItsLine(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	a := NewAsync(waitingHandler{release}, AsyncOptions{})
	big := json.RawMessage(`{"note":"` + strings.Repeat("n", 1<<20) + `"}`)
	for range 8 {
		LogCall(context.Background(), a, &CallRecord{Tool: "t", Arguments: big})
	}
	a.q.mu.Lock()
	defer a.q.mu.Unlock()
	if limit := 8 * (entryBytes + DefaultMaxRecord); a.q.bytes > limit || a.q.bytes == 0 {
		t.Errorf("eight calls of a megabyte take %d bytes of the queue, want at most %d", a.q.bytes, limit)
	}
	for _, e := range a.q.pending {
		if cap(e.args) > DefaultMaxRecord {
			t.Errorf("a queued entry holds %d bytes of arguments", cap(e.args))
		}
	}
}

// TestAsyncCopiesArgumentsItKeeps: arguments short enough to be kept as
// they are, in a record clipped for another of its strings, are copied
// before LogCall returns: the caller reuses its buffer.
func TestAsyncCopiesArgumentsItKeeps(t *testing.T) {
	var out gatedWriter
	out.release = make(chan struct{})
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{})
	args := []byte(`{"a":1}`)
	LogCall(context.Background(), a, &CallRecord{Tool: "t", RequestID: strings.Repeat("r", 5000), Arguments: args})
	copy(args, `{"b":2}`)
	close(out.release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if line := out.String(); !strings.Contains(line, `"arguments":{"a":1}`) {
		t.Errorf("the line does not have the arguments as they were logged: %.200s", line)
	}
}

// TestAsyncFreesABurstsEntries: after a burst that filled a big queue,
// it keeps no more than maxFree entries for reuse.
func TestAsyncFreesABurstsEntries(t *testing.T) {
	release := make(chan struct{})
	a := NewAsync(waitingHandler{release}, AsyncOptions{Buffer: 4 * maxFree})
	c := CallRecord{Tool: "t", Arguments: json.RawMessage(`{}`)}
	for range 3 * maxFree {
		LogCall(context.Background(), a, &c)
	}
	close(release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.q.mu.Lock()
	defer a.q.mu.Unlock()
	if n := len(a.q.free); n == 0 || n > maxFree {
		t.Errorf("%d entries kept for reuse after a burst of %d, want 1 to %d", n, 3*maxFree, maxFree)
	}
}

// TestAsyncWritesABatchAtOnce: the lines of records queued while the
// writer was held go out in a few Writes, each of whole lines and none
// much past maxOut, where each line was a Write (a system call on a
// service's stderr).
func TestAsyncWritesABatchAtOnce(t *testing.T) {
	var out gatedWriter
	out.release = make(chan struct{})
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{})
	const n = 2000
	for i := range n {
		LogCall(context.Background(), a, &CallRecord{Tool: "t", RequestID: strconv.Itoa(i), Arguments: json.RawMessage(`{"note":"` + strings.Repeat("n", 100) + `"}`)})
	}
	close(out.release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if lines := strings.Count(text, "\n"); lines != n {
		t.Fatalf("%d lines written of %d", lines, n)
	}
	// The first record's line may have been written alone, before the
	// others were queued; the rest take len(text)/maxOut Writes and one.
	if most := 2 + len(text)/maxOut; len(out.writes) > most {
		t.Errorf("%d lines in %d Writes, want at most %d", n, len(out.writes), most)
	}
	for i, w := range out.writes {
		if w.size > maxOut+1024 || !w.whole {
			t.Errorf("Write %d: %d bytes, whole lines %v", i, w.size, w.whole)
		}
	}
}

// gatedWriter holds every write until release is closed, and keeps the
// size of each and whether it ended a line.
type gatedWriter struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
	writes  []struct {
		size  int
		whole bool
	}
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, struct {
		size  int
		whole bool
	}{len(p), len(p) > 0 && p[len(p)-1] == '\n'})
	return w.buf.Write(p)
}

func (w *gatedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestEntryClearLeavesNothing: an entry filled as each kind of record
// fills one is, once cleared, an empty entry keeping only its arguments'
// buffer: no reference to a record, a handler or a context stays behind.
func TestEntryClearLeavesNothing(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "request")
	h := NewJSONHandler(io.Discard, nil)
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "m", 0)
	r.AddAttrs(slog.String("k", "v"))
	for _, e := range []*entry{
		{h: h, ctx: ctx, isCall: true, at: 7, bytes: 9, args: []byte(`{}`),
			call: CallRecord{Time: time.Now(), Tool: "t", Version: "1", SchemaHash: "h", RequestID: "1", Arguments: []byte(`{}`), Checked: true}},
		{h: h, ctx: ctx, isAccess: true, bytes: 9, access: AccessRecord{Time: time.Now(), Method: "POST", Path: "/mcp", Status: 200}},
		{h: h, ctx: ctx, bytes: 9, r: r},
		{h: h, ctx: ctx, isCall: true, args: make([]byte, maxKeptArgs+1)},
	} {
		e.clear()
		want := entry{args: e.args}
		if cap(e.args) > maxKeptArgs || len(e.args) != 0 {
			t.Errorf("arguments' buffer kept: len %d, cap %d", len(e.args), cap(e.args))
		}
		if !reflect.DeepEqual(*e, want) {
			t.Errorf("cleared entry holds %+v", *e)
		}
	}
}
