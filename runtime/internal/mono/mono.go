// Package mono reads the monotonic clock alone, for the runtime's
// timings that never need the time of day: when a request began, when a
// session was last used. time.Now reads two clocks, the wall clock and
// the monotonic one, and on a virtual machine each read is a call into
// the kernel's clock page that costs tens of nanoseconds; a reading here
// is one.
package mono

import "time"

// epoch is the origin of the readings: a time with a monotonic reading,
// so that time.Since of it reads the monotonic clock only.
var epoch = time.Now()

// Now is the monotonic clock's reading: the time since the process
// started, as far as the package knows it. Two readings' difference is
// the time between them, whatever the wall clock did meanwhile.
func Now() time.Duration { return time.Since(epoch) }
