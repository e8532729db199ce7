package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/eventstore"
)

var ctx = context.Background()

// appendN appends events "<stream>:<pos>" at positions from..to.
func appendN(t *testing.T, s eventstore.Store, session, stream string, from, to uint64) {
	t.Helper()
	for p := from; p <= to; p++ {
		if err := s.Append(ctx, session, stream, p, fmt.Appendf(nil, "%s:%d", stream, p)); err != nil {
			t.Fatalf("Append %s %d: %v", stream, p, err)
		}
	}
}

// positions lists the positions of what After returns, checking each
// event's data names its stream and position.
func positions(t *testing.T, s eventstore.Store, session, stream string, after uint64) ([]uint64, error) {
	t.Helper()
	evs, err := s.After(ctx, session, stream, after)
	var got []uint64
	for _, e := range evs {
		if want := fmt.Sprintf("%s:%d", stream, e.Pos); string(e.Data) != want {
			t.Errorf("event at %d holds %q, want %q", e.Pos, e.Data, want)
		}
		got = append(got, e.Pos)
	}
	return got, err
}

func TestReplayAfterPosition(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{})
	appendN(t, s, "A", "s1", 1, 5)
	appendN(t, s, "A", "s2", 1, 2)
	for after, want := range map[uint64]string{0: "[1 2 3 4 5]", 3: "[4 5]", 5: "[]"} {
		got, err := positions(t, s, "A", "s1", after)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("After(%d) = %v, %v; want %s", after, got, err, want)
		}
	}
}

func TestUnknownStreamOrPosition(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{})
	appendN(t, s, "A", "s1", 1, 3)
	for _, c := range []struct {
		session, stream string
		after           uint64
	}{
		{"A", "s9", 0}, // never written
		{"B", "s1", 0}, // another session's stream of that name
		{"A", "s1", 4}, // past the last event
	} {
		if _, err := s.After(ctx, c.session, c.stream, c.after); !errors.Is(err, eventstore.ErrUnknown) {
			t.Errorf("After(%s, %s, %d) = %v, want ErrUnknown", c.session, c.stream, c.after, err)
		}
	}
	if err := s.ForgetStream(ctx, "A", "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.After(ctx, "A", "s1", 0); !errors.Is(err, eventstore.ErrUnknown) {
		t.Errorf("After a forgotten stream = %v, want ErrUnknown", err)
	}
	if s.Bytes() != 0 {
		t.Errorf("an empty store holds %d bytes", s.Bytes())
	}
}

func TestAppendOutOfOrder(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{})
	appendN(t, s, "A", "s1", 1, 2)
	for _, pos := range []uint64{0, 2, 4} {
		if err := s.Append(ctx, "A", "s1", pos, nil); !errors.Is(err, eventstore.ErrOutOfOrder) {
			t.Errorf("Append at %d after 2 = %v, want ErrOutOfOrder", pos, err)
		}
	}
}

// eventCost is what appendN's events cost, "s1:1" to "s1:9".
const eventCost = len("s1:1") + eventstore.EventOverhead

func TestStreamBoundDropsOldest(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{MaxStreamBytes: eventstore.StreamOverhead + 3*eventCost})
	appendN(t, s, "A", "s1", 1, 5)
	got, err := positions(t, s, "A", "s1", 2)
	if err != nil || fmt.Sprint(got) != "[3 4 5]" {
		t.Errorf("After(2) = %v, %v; want the three newest", got, err)
	}
	for _, after := range []uint64{0, 1} {
		if got, err := positions(t, s, "A", "s1", after); !errors.Is(err, eventstore.ErrDropped) || got != nil {
			t.Errorf("After(%d) = %v, %v; want ErrDropped and nothing", after, got, err)
		}
	}
	if want := eventstore.StreamOverhead + 3*eventCost; s.Bytes() != want {
		t.Errorf("the store holds %d bytes, want %d", s.Bytes(), want)
	}
}

func TestEventLargerThanTheStreamBound(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{MaxStreamBytes: 512})
	appendN(t, s, "A", "s1", 1, 2)
	if err := s.Append(ctx, "A", "s1", 3, make([]byte, 1024)); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, "A", "s1", 4, 4)
	// Nothing replays across the event that could not be kept...
	for _, after := range []uint64{0, 2} {
		if _, err := s.After(ctx, "A", "s1", after); !errors.Is(err, eventstore.ErrDropped) {
			t.Errorf("After(%d) = %v, want ErrDropped", after, err)
		}
	}
	// ... and what follows it does.
	if got, err := positions(t, s, "A", "s1", 3); err != nil || fmt.Sprint(got) != "[4]" {
		t.Errorf("After(3) = %v, %v; want [4]", got, err)
	}
}

func TestTotalBoundDropsLeastRecentlyWrittenStream(t *testing.T) {
	perStream := eventstore.StreamOverhead + 4*eventCost
	s := eventstore.NewMemory(eventstore.MemoryOptions{MaxBytes: 2 * perStream})
	appendN(t, s, "A", "s1", 1, 4) // the caller that never comes back
	appendN(t, s, "B", "s2", 1, 4)
	appendN(t, s, "B", "s3", 1, 2) // over the bound: s1 pays, whole
	if s.Bytes() > 2*perStream {
		t.Errorf("the store holds %d bytes, over its bound %d", s.Bytes(), 2*perStream)
	}
	if _, err := s.After(ctx, "A", "s1", 0); !errors.Is(err, eventstore.ErrUnknown) {
		t.Errorf("s1 dropped whole: %v, want ErrUnknown", err)
	}
	for _, stream := range []string{"s2", "s3"} {
		if _, err := s.After(ctx, "B", stream, 0); err != nil {
			t.Errorf("%s, written since: %v", stream, err)
		}
	}
	// Written on, s3 takes s2's oldest event.
	appendN(t, s, "B", "s3", 3, 5)
	if _, err := s.After(ctx, "B", "s2", 0); !errors.Is(err, eventstore.ErrDropped) {
		t.Errorf("s2 from the start: %v, want ErrDropped", err)
	}
	if got, err := positions(t, s, "B", "s2", 1); err != nil || fmt.Sprint(got) != "[2 3 4]" {
		t.Errorf("s2 After(1) = %v, %v; want [2 3 4]", got, err)
	}
	// A stream the store forgot and that is written again refuses a
	// replay from before what it holds.
	appendN(t, s, "A", "s1", 5, 5)
	if _, err := s.After(ctx, "A", "s1", 3); !errors.Is(err, eventstore.ErrDropped) {
		t.Errorf("s1 rewritten from 5, After(3) = %v, want ErrDropped", err)
	}
	if got, err := positions(t, s, "A", "s1", 4); err != nil || fmt.Sprint(got) != "[5]" {
		t.Errorf("s1 rewritten from 5, After(4) = %v, %v; want [5]", got, err)
	}
}

func TestForgetSession(t *testing.T) {
	s := eventstore.NewMemory(eventstore.MemoryOptions{})
	appendN(t, s, "A", "s1", 1, 3)
	appendN(t, s, "A", "s2", 1, 3)
	appendN(t, s, "B", "s1", 1, 3)
	before := s.Bytes()
	if err := s.ForgetSession(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []string{"s1", "s2"} {
		if _, err := s.After(ctx, "A", stream, 0); !errors.Is(err, eventstore.ErrUnknown) {
			t.Errorf("A's %s after ForgetSession: %v", stream, err)
		}
	}
	if got, err := positions(t, s, "B", "s1", 0); err != nil || len(got) != 3 {
		t.Errorf("B's stream after A is forgotten: %v, %v", got, err)
	}
	if s.Bytes() != before/3 {
		t.Errorf("the store holds %d bytes, want a third of %d", s.Bytes(), before)
	}
}

// TestConcurrentWritersStayWithinBounds runs writers on many streams at
// once: every replay is whole or refused, and the store stays bounded.
func TestConcurrentWritersStayWithinBounds(t *testing.T) {
	const max = 16 << 10
	s := eventstore.NewMemory(eventstore.MemoryOptions{MaxStreamBytes: 2 << 10, MaxBytes: max})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			stream := fmt.Sprint("s", w)
			for p := uint64(1); p <= 500; p++ {
				if err := s.Append(ctx, "A", stream, p, []byte(strings.Repeat("x", int(p%50)))); err != nil {
					t.Error(err)
					return
				}
				evs, err := s.After(ctx, "A", stream, p/2)
				if err != nil && !errors.Is(err, eventstore.ErrDropped) {
					t.Error(err)
					return
				}
				for i, e := range evs {
					if e.Pos != p/2+1+uint64(i) {
						t.Errorf("a replay after %d skips to %d", p/2, e.Pos)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if s.Bytes() > max {
		t.Errorf("the store holds %d bytes, over its bound %d", s.Bytes(), max)
	}
}
