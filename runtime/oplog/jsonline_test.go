package oplog

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// oddPieces are what the strings of the generated records are made of:
// everything slog's JSON handler escapes, or might be thought to.
var oddPieces = []string{
	"a", "payments.lookup", "3.0.0", " ", `"`, `\`, "/", "<", ">", "&", "\x00", "\x01", "\b", "\f",
	"\n", "\r", "\t", "\x1f", "\x7f", "é", "ك", "😀", "\u2028", "\u2029", "\ufffd", "\xff", "\xc3",
	"\xe2\x80", `\u2028`, "{", "}", ":", ",",
}

func oddString(rng *rand.Rand, pieces int) string {
	var b strings.Builder
	for range rng.IntN(pieces + 1) {
		b.WriteString(oddPieces[rng.IntN(len(oddPieces))])
	}
	return b.String()
}

// oddArguments is JSON text as a peer may send it (spaced out, with
// escapes, with characters that need none in JSON but do in slog's
// strings), long or short, and now and then text that is not JSON at all.
func oddArguments(rng *rand.Rand) json.RawMessage {
	switch rng.IntN(12) {
	case 0:
		return json.RawMessage(`{`)
	case 1:
		return json.RawMessage{} // empty, not absent
	case 2:
		return json.RawMessage(" \t\n{ \"a\" :\r\n [ 1 , 2.5e3 , true , null , { } , [ ] ] }\n")
	case 3:
		return json.RawMessage(`"` + strings.Repeat("x", rng.IntN(300)) + `"`)
	case 4:
		return json.RawMessage("{\"raw\":\"\u2028\u2029<>&\xff\"}") // not valid UTF-8 inside a string
	}
	v := map[string]any{}
	for range rng.IntN(6) {
		v[oddString(rng, 8)] = []any{oddString(rng, 40), rng.Float64(), rng.IntN(2) == 0}
	}
	raw, _ := json.Marshal(v)
	if rng.IntN(2) == 0 {
		var spaced bytes.Buffer
		_ = json.Indent(&spaced, raw, " ", "\t ")
		raw = spaced.Bytes()
	}
	return raw
}

func oddTime(rng *rand.Rand) time.Time {
	switch rng.IntN(8) {
	case 0:
		return time.Time{}
	case 1:
		return time.Now() // with a monotonic reading
	case 2:
		return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	case 3:
		return time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)
	case 4:
		return time.Date(2026, 3, 12, 9, 30, 0, 120000000, time.FixedZone("", -(3*3600+30*60)))
	}
	return time.Unix(rng.Int64N(1<<34), rng.Int64N(1e9)).In(time.FixedZone("X", rng.IntN(50000)-25000))
}

// oddCallRecord is a record of odd strings and arguments; half the
// arguments the strict reader accepts are marked Checked, as the server
// marks a call's.
func oddCallRecord(rng *rand.Rand) CallRecord {
	c := CallRecord{
		Time: oddTime(rng), Tool: oddString(rng, 6), Version: oddString(rng, 3),
		SchemaHash: oddString(rng, 12), RequestID: oddString(rng, 4), Arguments: oddArguments(rng),
	}
	c.Checked = rng.IntN(2) == 0 && textdec.Validate(c.Arguments) == nil
	return c
}

// slogCallLine is the line the slog JSON handler writes for c, clipped as
// an Async clips it: what the service's log wrote before it wrote call
// records' lines itself.
func slogCallLine(t *testing.T, c *CallRecord, limits Limits) string {
	t.Helper()
	r := c.Record()
	if _, ok := fits(r, limits); !ok {
		r = clipRecord(r, limits)
	}
	return slogLine(t, r)
}

// slogLine is the line the slog JSON handler writes for r.
func slogLine(t *testing.T, r slog.Record) string {
	t.Helper()
	var out bytes.Buffer
	if err := slog.NewJSONHandler(&out, nil).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestCallLineIsSlogsLine: for every record that needs no clipping,
// appendCallLine writes the slog JSON handler's line byte for byte, or
// declines (and then the slog handler's line has an error in it); and
// a call record fits exactly when its slog record does, counting the
// same bytes.
//
// Half the records take their tool, version and hash from a few strings
// made once, as a server's records do, so that the writer's heads are
// used again, and shared by versions of another hash.
func TestCallLineIsSlogsLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	limits := Limits{MaxString: 200, MaxRecord: 600}
	var pool [3][3]string // tools, versions, hashes
	for i := range pool {
		for j := range pool[i] {
			pool[i][j] = oddString(rng, 8)
		}
	}
	var s lineState // one for every record, as the writer has
	var written, declined, checked int
	for i := range 20000 {
		c := oddCallRecord(rng)
		if rng.IntN(2) == 0 {
			c.Tool, c.Version, c.SchemaHash = pool[0][rng.IntN(3)], pool[1][rng.IntN(3)], pool[2][rng.IntN(3)]
		}
		n, fit := c.fits(limits)
		if wantN, want := fits(c.Record(), limits); fit != want || fit && n != wantN {
			t.Fatalf("record %d: the call record fits %v (%d bytes), its slog record %v (%d bytes): %+v", i, fit, n, want, wantN, c)
		}
		if !fit {
			continue
		}
		want := slogCallLine(t, &c, limits)
		line, ok := appendCallLine([]byte("earlier line\n"), &c, &s)
		if !ok {
			declined++
			if !strings.Contains(want, "!ERROR") {
				t.Fatalf("record %d: declined a line slog writes without an error: %s", i, want)
			}
			continue
		}
		written++
		if c.Checked {
			checked++
		}
		if got := strings.TrimPrefix(string(line), "earlier line\n"); got != want {
			t.Fatalf("record %d:\nslog  %q\ncall  %q", i, want, got)
		}
	}
	if written < 5000 || declined == 0 || checked < 1000 {
		t.Errorf("%d lines written (%d of checked arguments), %d declined: the records do not exercise all three", written, checked, declined)
	}
}

// TestAsyncCallLinesAreSlogsLines: through an Async over a JSONHandler (a
// service's log) the call log's lines are the lines an Async over slog's
// own JSON handler writes, clipped ones included, in order, with other
// records between them.
func TestAsyncCallLinesAreSlogsLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	args := make([]byte, 0, 1024)
	var c CallRecord
	sameLinesThroughBothSinks(t, 5000, func(i int) {
		c = oddCallRecord(rng)
		if c.Time.IsZero() {
			// LogCall would give each sink's record the time it was
			// logged, two different times (see
			// TestCallRecordWithoutATimeHasTheTimeItWasLogged).
			c.Time = time.Unix(int64(i), 0)
		}
		if i%3 == 0 {
			c.Arguments, c.Preview = nil, map[string]any{"pin": "[REDACTED]", "n": oddString(rng, 50)}
		}
	}, func(a *Async) time.Time {
		// The caller's buffer is reused once LogCall returns.
		sent := c
		if c.Arguments != nil {
			args = append(args[:0], c.Arguments...)
			sent.Arguments = args
		}
		LogCall(context.Background(), a, &sent)
		clear(args)
		return c.Time
	})
}

// sameLinesThroughBothSinks logs n records, each made by next(i), through
// an Async over a JSONHandler and an Async over slog's own JSON handler,
// each record by log(sink) followed by another record at the time log
// returns; it fails unless both sinks wrote the same lines.
func sameLinesThroughBothSinks(t *testing.T, n int, next func(i int), log func(*Async) time.Time) {
	t.Helper()
	opts := AsyncOptions{Limits: Limits{MaxString: 200, MaxRecord: 600}, Buffer: 1 << 14}
	var direct, viaSlog bytes.Buffer
	fast := NewAsync(NewJSONHandler(&direct, nil), opts)
	slow := NewAsync(slog.NewJSONHandler(&viaSlog, nil), opts)
	for i := range n {
		next(i)
		for _, a := range []*Async{fast, slow} {
			between := slog.NewRecord(log(a), slog.LevelInfo, "between", 0)
			between.AddAttrs(slog.Int("i", i))
			_ = a.Handle(context.Background(), between)
		}
	}
	for _, a := range []*Async{fast, slow} {
		if err := a.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got, want := strings.Split(direct.String(), "\n"), strings.Split(viaSlog.String(), "\n")
	if len(got) != 2*n+1 {
		t.Fatalf("%d lines written of %d", len(got)-1, 2*n)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d:\nslog   %q\nsink   %q", i, want[i], got[i])
		}
	}
}

// BenchmarkCallLine is the writer's work for one call record of the
// benchmarks' call (bench/): its line, as the asynchronous sink's
// goroutine appends it, and the same line through slog's JSON handler.
func BenchmarkCallLine(b *testing.B) {
	c := CallRecord{
		Time: time.Date(2026, 12, 2, 8, 30, 0, 123456789, time.UTC), Tool: "payments.lookup", Version: "2.1.0",
		SchemaHash: "sha256:" + strings.Repeat("0f1e2d3c", 8), RequestID: "1",
		Arguments: json.RawMessage(`{"reference": "PMT-771", "include_legs": true, "as_of": "2026-03-12"}`),
	}
	var s lineState
	benchLine(b, "appendCallLine", func(dst []byte) ([]byte, bool) { return appendCallLine(dst, &c, &s) })
	// The server's records: arguments its strict reader accepted.
	checked := c
	checked.Checked = true
	benchLine(b, "appendCallLine/checked", func(dst []byte) ([]byte, bool) { return appendCallLine(dst, &checked, &s) })
	benchSlogLine(b, c.Record)
}

// benchLine runs, as writer=name, the writer's appending of a record's
// line into a reused buffer.
func benchLine(b *testing.B, name string, appendLine func(dst []byte) ([]byte, bool)) {
	b.Run("writer="+name, func(b *testing.B) {
		var line []byte
		b.ReportAllocs()
		for b.Loop() {
			line, _ = appendLine(line[:0])
		}
	})
}

// benchSlogLine runs, as writer=slog, slog's JSON handler writing the
// slog record of the same record.
func benchSlogLine(b *testing.B, record func() slog.Record) {
	b.Run("writer=slog", func(b *testing.B) {
		h := slog.NewJSONHandler(io.Discard, nil)
		b.ReportAllocs()
		for b.Loop() {
			_ = h.Handle(context.Background(), record())
		}
	})
}

// TestAsyncKeepsNoMoreEntriesThanItsBound: entries are made only when
// none is free, so however many records come, and whatever the writer's
// pace, a queue never has more entries than its bound.
func TestAsyncKeepsNoMoreEntriesThanItsBound(t *testing.T) {
	const bound = 8
	release := make(chan struct{})
	a := NewAsync(waitingHandler{release}, AsyncOptions{Buffer: bound})
	c := CallRecord{Tool: "t", Arguments: json.RawMessage(`{}`)}
	for range 1000 {
		LogCall(context.Background(), a, &c)
	}
	close(release)
	for range 1000 {
		LogCall(context.Background(), a, &c)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.q.mu.Lock()
	defer a.q.mu.Unlock()
	if n := len(a.q.free) + len(a.q.pending); n == 0 || n > bound {
		t.Errorf("%d entries kept with a bound of %d", n, bound)
	}
}

// waitingHandler writes nothing until release is closed.
type waitingHandler struct{ release chan struct{} }

func (w waitingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (w waitingHandler) Handle(context.Context, slog.Record) error {
	<-w.release
	return nil
}
func (w waitingHandler) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w waitingHandler) WithGroup(string) slog.Handler      { return w }

// TestStampIsRFC3339Nano: a stamp writes every time as AppendFormat with
// RFC3339Nano does, through runs of times in one second (what it keeps),
// the same second in another zone, the next second, and nanoseconds with
// and without trailing zeros.
func TestStampIsRFC3339Nano(t *testing.T) {
	zones := []*time.Location{time.UTC, time.Local, time.FixedZone("", 5*3600+30*60), time.FixedZone("X", -8*3600), time.FixedZone("Y", -(3*3600 + 59))}
	nanos := []int{0, 1, 10, 100_000_000, 123_456_789, 999_999_999, 500_000_000, 120_000}
	rng := rand.New(rand.NewPCG(7, 8))
	var s stamp
	for range 20000 {
		sec := rng.Int64N(253402300799) // to 9999-12-31T23:59:59Z
		if rng.IntN(3) == 0 {
			sec = s.sec // the second the stamp keeps, maybe in another zone
		} else if rng.IntN(3) == 0 {
			sec = s.sec + 1
		}
		tm := time.Unix(sec, int64(nanos[rng.IntN(len(nanos))])).In(zones[rng.IntN(len(zones))])
		if y := tm.Year(); y < 0 || y >= 10000 {
			continue
		}
		got, ok := s.append(nil, tm)
		if want := tm.Format(time.RFC3339Nano); !ok || string(got) != want {
			t.Fatalf("%v: stamp %q (%v), AppendFormat %q", tm, got, ok, want)
		}
	}
	for _, tm := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 12, 31, 23, 59, 59, 5, time.Local)} {
		if got, ok := s.append(nil, tm); ok {
			t.Errorf("%v: stamp %q, want none: its year has not four digits", tm, got)
		}
	}
}

// TestCallHeadsNeverMix: records whose tool and version are the same
// strings (so the same head slot) but whose hash differs, or whose tool
// is a shorter string at the same address, each get their own head.
func TestCallHeadsNeverMix(t *testing.T) {
	tool := "payments.lookup"
	var hs callHeads
	for i, c := range []CallRecord{
		{Tool: tool, Version: "1.0.0", SchemaHash: "aaaa"},
		{Tool: tool, Version: "1.0.0", SchemaHash: "bbbb"},
		{Tool: tool[:8], Version: "1.0.0", SchemaHash: "bbbb"},
		{Tool: tool, Version: "1.0.0", SchemaHash: "bbbb"},
		{Tool: tool, Version: "1.0.0", SchemaHash: "aaaa"},
		{Tool: tool, Version: "2.0.0", SchemaHash: "aaaa"},
	} {
		want := `,"tool":"` + c.Tool + `","version":"` + c.Version + `","schema_hash":"` + c.SchemaHash + `"`
		if got := string(hs.append(nil, &c)); got != want {
			t.Errorf("record %d: head %s, want %s", i, got, want)
		}
	}
}

// FuzzCallLine holds the writer's own call line to slog's JSON handler's
// line for the same record, whatever its strings, arguments and time, with
// one lineState for every input, as a writer has: the heads it keeps
// (callHeads) and its stamp must never write another record's text.
func FuzzCallLine(f *testing.F) {
	f.Add("payments.lookup", "1.0.0", "fnv1a64:65f0da517cb44cea", "7", []byte(`{"reference": "PMT-771"}`), int64(1764664200), false)
	f.Add("t\u2028", "\xff", "", "<>&", []byte(`[1, 2.5e3, "\u00e9"]`), int64(-62135596800), true)
	var s lineState
	f.Fuzz(func(t *testing.T, tool, version, hash, id string, args []byte, unix int64, checked bool) {
		c := CallRecord{Time: time.Unix(unix, unix%1e9), Tool: tool, Version: version, SchemaHash: hash, RequestID: id, Arguments: args}
		c.Checked = checked && textdec.Validate(args) == nil
		line, ok := appendCallLine(nil, &c, &s)
		if !ok {
			return // the writer hands slog the record
		}
		if want := slogLine(t, c.Record()); string(line) != want {
			t.Fatalf("\nslog   %q\nwriter %q", want, line)
		}
	})
}
