package bench

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkCoreStalls measures the machine, not mcpgen: how much of its
// time a thread that never blocks loses to stalls, gaps of more than
// stallGap between two readings of the clock in a tight loop (its core
// taken by the kernel or, on a virtual machine, by the host), with one
// such thread and with one on every core. On a machine where a busy
// thread loses much more when every core is busy, the rows that keep both
// cores busy (pipelined calls, HTTP, a call log's writer beside the
// requests) pay for the machine as well as for their code, and the
// one-core rows do not: read the two-core rows beside this one.
//
// Each iteration keeps every thread busy for stallSpin; stalled-% is the
// stalls' share of the threads' time, longest-ms the longest stall.
func BenchmarkCoreStalls(b *testing.B) {
	for _, busy := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("busy=%d", busy), func(b *testing.B) {
			var mu sync.Mutex
			var spun, stalled, longest time.Duration
			for b.Loop() {
				var wg sync.WaitGroup
				for range busy {
					wg.Go(func() {
						runtime.LockOSThread()
						defer runtime.UnlockOSThread()
						t, s, l := spinCounting(stallSpin)
						mu.Lock()
						spun, stalled, longest = spun+t, stalled+s, max(longest, l)
						mu.Unlock()
					})
				}
				wg.Wait()
			}
			b.ReportMetric(100*float64(stalled)/float64(spun), "stalled-%")
			b.ReportMetric(float64(longest)/float64(time.Millisecond), "longest-ms")
		})
	}
}

const (
	stallSpin = 10 * time.Millisecond
	stallGap  = 100 * time.Microsecond
)

// spinCounting reads the clock in a loop for d and returns how long it
// spun (d and the last gap), the time lost in gaps longer than stallGap,
// and the longest.
func spinCounting(d time.Duration) (spun, stalled, longest time.Duration) {
	start := time.Now()
	last := start
	for last.Sub(start) < d {
		now := time.Now()
		if gap := now.Sub(last); gap > stallGap {
			stalled += gap
			longest = max(longest, gap)
		}
		last = now
	}
	return last.Sub(start), stalled, longest
}
