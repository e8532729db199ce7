// Package mono reads the monotonic clock alone, for the runtime's
// timings that never need the time of day: when a request began, when a
// session was last used. time.Now reads two clocks, the wall clock and
// the monotonic one, and on a virtual machine each read is a call into
// the kernel's clock page that costs tens of nanoseconds; a reading here
// is one. Where a time of day is needed after all (a log line's), Wall
// tells it from a reading without reading a clock again.
package mono

import (
	"sync/atomic"
	"time"
)

// epoch is the origin of the readings: a time with a monotonic reading,
// so that time.Since of it reads the monotonic clock only.
var epoch = time.Now()

// Now is the monotonic clock's reading: the time since the process
// started, as far as the package knows it. Two readings' difference is
// the time between them, whatever the wall clock did meanwhile.
func Now() time.Duration { return time.Since(epoch) }

// fresh is how long a reading of both clocks serves Wall: a time told
// from it is off by no more than the clocks drift apart in it (under a
// microsecond, a clock slewed at its fastest), and a wall clock that was
// set is seen within it.
const fresh = time.Millisecond

// anchor is a reading of both clocks, which Wall tells times from.
type anchor struct {
	wall time.Time     // without its monotonic reading
	mono time.Duration // Now's reading at wall
}

// latest is the reading of both clocks Wall tells times from, read
// again by the first Wall that finds it over fresh old; any goroutine
// may, and the last to store it wins. Nil before the first Wall.
var latest atomic.Pointer[anchor]

// Wall is the wall clock's time of m, a reading of Now: the time of day
// a log line shows for it. It is told from a reading of both clocks taken
// at most fresh before m (a later one serves an earlier m as well), so
// that a caller that read the monotonic clock already, as a request does
// when it begins, reads no clock again for the time of day; about once a
// millisecond one caller reads both clocks once.
func Wall(m time.Duration) time.Time {
	a := latest.Load()
	if a == nil || m-a.mono > fresh {
		a = readBoth()
		latest.Store(a)
	}
	return a.wall.Add(m - a.mono)
}

// readBoth reads both clocks at once: time.Now's monotonic reading is
// the one Now would have given.
func readBoth() *anchor {
	t := time.Now()
	return &anchor{wall: t.Round(0), mono: t.Sub(epoch)}
}
