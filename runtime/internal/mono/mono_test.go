package mono

import (
	"testing"
	"time"
)

// Readings move forward with the time that passes between them.
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
