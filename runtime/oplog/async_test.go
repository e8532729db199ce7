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
	if held, _ := textHeld(a.q); held > 8*DefaultMaxRecord {
		t.Errorf("the queue holds %d bytes of arguments for eight calls", held)
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

// TestAsyncKeepsEachCallsArguments: the lines of records queued one
// after another share chunks of text, taken one after another as they
// fill while the writer is held; each line still has its own record's
// arguments, and once the burst is written the queue keeps no more than
// maxKeptText of chunks for the next. A handler other than a JSONHandler
// gets arguments of its own: it may keep the record.
func TestAsyncKeepsEachCallsArguments(t *testing.T) {
	var out gatedWriter
	out.release = make(chan struct{})
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{})
	const n = 3000
	note := strings.Repeat("n", 100) // 3000 records: more chunks than maxKeptText
	for i := range n {
		args := []byte(`{"i":` + strconv.Itoa(i) + `,"note":"` + note + `"}`)
		LogCall(context.Background(), a, &CallRecord{Tool: "t", RequestID: strconv.Itoa(i), Arguments: args})
		copy(args, "XXXXX") // the caller's buffer is its own again
	}
	close(out.release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines written of %d", len(lines), n)
	}
	for i, line := range lines {
		want := `"request_id":"` + strconv.Itoa(i) + `","arguments":{"i":` + strconv.Itoa(i) + `,"note":"` + note + `"}}`
		if !strings.HasSuffix(line, want) {
			t.Fatalf("line %d: %.300s\nwant it to end %.80s", i, line, want)
		}
	}
	a.q.mu.Lock()
	held, kept := textHeld(a.q)
	a.q.mu.Unlock()
	if held != 0 || kept == 0 || kept > maxKeptText {
		t.Errorf("after the burst the queue holds %d bytes of text and keeps %d of chunks, want none and 1 to %d",
			held, kept, maxKeptText)
	}

	var kept2 []slog.Record
	var mu sync.Mutex
	other := NewAsync(keepingHandler{&mu, &kept2}, AsyncOptions{})
	for i := range 3 {
		// Each record in a batch of its own: the third's arguments go
		// where the first's were.
		LogCall(context.Background(), other, &CallRecord{Tool: "t", Arguments: json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)})
		time.Sleep(4 * batchPause)
	}
	if err := other.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(kept2) != 3 {
		t.Fatalf("%d records kept of 3", len(kept2))
	}
	for i, r := range kept2 {
		var args string
		r.Attrs(func(at slog.Attr) bool {
			if at.Key == argumentsKey {
				args = string(at.Value.Any().(json.RawMessage))
			}
			return true
		})
		if want := `{"i":` + strconv.Itoa(i) + `}`; args != want {
			t.Errorf("kept record %d has arguments %s, want %s", i, args, want)
		}
	}
}

// textHeld is how many bytes of text q holds for records queued, and
// how many bytes of emptied chunks it keeps; q.mu is held.
func textHeld(q *queue) (held, kept int) {
	held = len(q.text)
	for _, c := range q.filled {
		held += len(c)
	}
	for _, c := range q.chunks {
		kept += cap(c)
	}
	return held, kept
}

// keepingHandler keeps every record it is handed.
type keepingHandler struct {
	mu   *sync.Mutex
	kept *[]slog.Record
}

func (h keepingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h keepingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.kept = append(*h.kept, r)
	return nil
}
func (h keepingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h keepingHandler) WithGroup(string) slog.Handler      { return h }

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
// fills one is, once cleared, an empty entry: no reference to a record, a
// handler or a context stays behind.
func TestEntryClearLeavesNothing(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "request")
	h := NewJSONHandler(io.Discard, nil)
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "m", 0)
	r.AddAttrs(slog.String("k", "v"))
	for _, e := range []*entry{
		{h: h, ctx: ctx, isCall: true, bytes: 9,
			call: CallRecord{Time: time.Now(), Tool: "t", Version: "1", SchemaHash: "h", RequestID: "1", Arguments: []byte(`{}`), Checked: true}},
		{h: h, ctx: ctx, isAccess: true, bytes: 9, access: AccessRecord{Time: time.Now(), Method: "POST", Path: "/mcp", Status: 200}},
		{h: h, ctx: ctx, bytes: 9, r: r},
		{h: h, bytes: 9, lines: 2, text: []byte("{}\n{}\n")},
	} {
		e.clear()
		if !reflect.DeepEqual(*e, entry{}) {
			t.Errorf("cleared entry holds %+v", *e)
		}
	}
}

// TestAsyncArgumentsPastAChunk: arguments longer than a chunk, which a
// service's limits may allow, get a chunk of their own, written whole,
// and the records around them keep theirs.
func TestAsyncArgumentsPastAChunk(t *testing.T) {
	var out bytes.Buffer // read once Close returned
	limits := Limits{MaxString: 4 * textChunk, MaxRecord: 8 * textChunk}
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{Limits: limits})
	long := `{"note":"` + strings.Repeat("n", 2*textChunk) + `"}`
	for i, args := range []string{`{"i":0}`, long, `{"i":2}`} {
		LogCall(context.Background(), a, &CallRecord{Tool: "t", RequestID: strconv.Itoa(i), Arguments: json.RawMessage(args)})
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], `"arguments":{"i":0}}`) ||
		!strings.HasSuffix(lines[1], `"arguments":`+long+`}`) || !strings.HasSuffix(lines[2], `"arguments":{"i":2}}`) {
		t.Errorf("the lines are:\n%.300s", out.String())
	}
}

// TestAsyncBoundsCallLines: call lines queued one after another share an
// entry, and the queue's bounds count the records in it, not the entry:
// with its writer stuck, a queue of five records takes five lines, and
// one whose bytes allow ten lines (two entries' places besides) takes
// ten; the rest are counted lost, and once everything is written the
// queue counts nothing.
func TestAsyncBoundsCallLines(t *testing.T) {
	c := CallRecord{Time: time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC), Tool: "t", RequestID: "1",
		Arguments: json.RawMessage(`{"note":"` + strings.Repeat("n", 1000) + `"}`)}
	line, ok := appendCallLine(nil, &c, &lineState{})
	need := maxCallLine(&c)
	if !ok || need <= entryBytes || len(line) > need {
		t.Fatalf("the line takes %d bytes of the %d it may: not more than an entry's place", len(line), need)
	}
	for _, tc := range []struct {
		name string
		opts AsyncOptions
		want int
	}{
		{"records", AsyncOptions{Buffer: 5}, 5},
		// The writer may have taken the first lines before it got stuck:
		// two entries then hold the ten.
		{"bytes", AsyncOptions{Buffer: 1000, BufferBytes: 2*entryBytes + 10*need}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out gatedWriter
			out.release = make(chan struct{})
			a := NewAsync(NewJSONHandler(&out, nil), tc.opts)
			for range 100 {
				LogCall(context.Background(), a, &c)
			}
			if lost := a.Lost(); lost != int64(100-tc.want) {
				t.Errorf("%d of 100 records lost, want %d", lost, 100-tc.want)
			}
			close(out.release)
			if err := a.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out.String(), string(line)); n != tc.want {
				t.Errorf("%d call lines written, want %d", n, tc.want)
			}
			a.q.mu.Lock()
			defer a.q.mu.Unlock()
			if a.q.bytes != 0 || a.q.records != 0 {
				t.Errorf("%d bytes and %d records counted once everything was written", a.q.bytes, a.q.records)
			}
		})
	}
}

// TestAsyncKeepsCallLinesInTheirPlace: call lines made as they are queued
// are written in the order of the records around them, whether they
// share an entry or not, over many batches and chunks.
func TestAsyncKeepsCallLinesInTheirPlace(t *testing.T) {
	var out bytes.Buffer // read once Close returned
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{})
	log := slog.New(a)
	var want []string
	for i := range 3000 {
		id := strconv.Itoa(i)
		switch i % 7 {
		case 3:
			log.Info("between", "i", i)
			want = append(want, `"msg":"between","i":`+id+`}`)
		case 5:
			LogAccess(context.Background(), a, &AccessRecord{Method: "POST", Path: "/" + id, Status: 200})
			want = append(want, `"path":"/`+id+`"`)
		default:
			LogCall(context.Background(), a, &CallRecord{Tool: "t", RequestID: id, Arguments: json.RawMessage(`{"i":` + id + `}`)})
			want = append(want, `"request_id":"`+id+`","arguments":{"i":`+id+`}}`)
		}
		if i%500 == 0 {
			time.Sleep(2 * batchPause) // a batch ends here
		}
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines written of %d", len(lines), len(want))
	}
	for i, line := range lines {
		if !strings.Contains(line, want[i]) {
			t.Fatalf("line %d is %s, want one with %s", i, line, want[i])
		}
	}
}

// TestAsyncTextTakesUnderTwiceItsCount: with its writer stuck, a queue
// fed lines whose bound is far above their length (request ids counted
// six bytes a byte, as if all were escapes) holds chunks of text that
// take under twice the bytes the queue counts, where counting the lines'
// lengths left most of each chunk uncounted.
func TestAsyncTextTakesUnderTwiceItsCount(t *testing.T) {
	var out gatedWriter
	out.release = make(chan struct{})
	a := NewAsync(NewJSONHandler(&out, nil), AsyncOptions{BufferBytes: 1 << 20})
	c := CallRecord{Tool: "t", RequestID: strings.Repeat("r", 2000), Arguments: json.RawMessage(`{}`)}
	for range 1000 {
		LogCall(context.Background(), a, &c)
	}
	if a.Lost() == 0 {
		t.Fatal("the queue took every record: its bytes were never reached")
	}
	a.q.mu.Lock()
	taken := cap(a.q.text)
	for _, c := range a.q.filled {
		taken += cap(c)
	}
	counted := a.q.bytes
	a.q.mu.Unlock()
	if taken >= 2*counted {
		t.Errorf("the queue's text takes %d bytes, %d counted", taken, counted)
	}
	close(out.release)
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}
