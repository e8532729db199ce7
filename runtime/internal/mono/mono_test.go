package mono

import (
	"testing"
	"time"
)

func TestNowMovesWithTime(t *testing.T) {
	a := Now()
	time.Sleep(2 * time.Millisecond)
	b := Now()
	if b-a < 2*time.Millisecond {
		t.Errorf("2 ms apart, the readings differ by %v", b-a)
	}
	if a < 0 {
		t.Errorf("a reading before the epoch: %v", a)
	}
}

// TestWallIsTheTimeOfDayOfAReading: a reading's wall time lies between
// the wall clock's times read either side of it, and carries no
// monotonic reading (a log line's time is the time of day alone).
func TestWallIsTheTimeOfDayOfAReading(t *testing.T) {
	latest.Store(nil)
	before := time.Now().Round(0)
	m := Now()
	after := time.Now().Round(0)
	got := Wall(m)
	if got.Before(before.Add(-time.Microsecond)) || got.After(after.Add(time.Microsecond)) {
		t.Errorf("Wall(%v) is %v, not between %v and %v", m, got, before, after)
	}
	if got != got.Round(0) {
		t.Errorf("Wall(%v) carries a monotonic reading: %v", m, got)
	}
	// A reading taken earlier, told from the same anchor, is earlier by
	// as much.
	if d := got.Sub(Wall(m - time.Second)); d != time.Second {
		t.Errorf("a reading a second earlier is told %v earlier", d)
	}
}

// TestWallRereadsAStaleClock: a time is told from the reading of both
// clocks Wall keeps while it is under fresh old, and from a new reading
// after that: a wall clock that was set is seen within fresh.
func TestWallRereadsAStaleClock(t *testing.T) {
	now := Now()
	latest.Store(&anchor{wall: time.Now().Add(time.Hour).Round(0), mono: now}) // a clock set back an hour since
	if got := Wall(now + fresh/2); time.Until(got) < 59*time.Minute {
		t.Errorf("a reading under fresh old was not used: %v", got)
	}
	if got := Wall(now + 2*fresh); time.Until(got) > time.Minute {
		t.Errorf("a reading over fresh old was used: %v", got)
	}
	// The new reading is kept for the next.
	if a := latest.Load(); time.Until(a.wall) > time.Minute {
		t.Errorf("the reading taken again was not kept: %v", a.wall)
	}
}
