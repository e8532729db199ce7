package bench

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// BenchmarkCallLog is what the call log costs a tools/call, with the
// machine's moves from one process to the next taken out of the ratio:
// one server whose log is a service's (JSON lines through the
// asynchronous sink) at a level that moves, its calls made in blocks
// of callLogBlock with the log on (Info) and off (Warn: the call log is
// not written, and a call pays only for the check of the level) in
// turn, the order rotating from round to round. path=handle makes the
// calls through Session.Handle, path=stdio through the stream transport
// over an in-process pipe, one at a time (BenchmarkCall's calls).
//
// Why in turn, on one server: BenchmarkCallHandle's and BenchmarkCall's
// rows with the log on and off run in processes of their own, whose
// times move by 20% to 40% from one process to the next, and two servers
// in one process (one logged, one not) stay apart by up to 10% either
// way, as their memory happens to lie. Here the same session serves both
// sides in the same stretch of the machine; only the level differs. A
// process's cost still moves by several points from one process to the
// next (six processes of each path: Session.Handle −0% to +16%, stdio +9%
// to +14%, against −10% to +26% and −5% to +17% apart), so make bench
// runs six.
// Between blocks, untimed, the sink's writer is let write every record
// the last block queued, so that no block pays for another's; within a
// block with the log on, the writer works on the other core as it does
// in a service.
//
// It reports each side's time a call (log-on-ns/call, log-off-ns/call,
// which benchstat and benchtable read as -sec/call), the cost
// (cost-%: the median of the rounds' on/off − 1, in percent) and
// lost/op, the records the sink dropped a call. ns/op counts both sides
// and means nothing.
func BenchmarkCallLog(b *testing.B) {
	spec := bankSpec(b, unpinnedLookup)
	line := callRequest(1, spec.Name, lookupV2Valid)
	// logged is the bank's server with a service's log at a level that
	// moves (see levelledLog).
	logged := func(b *testing.B) (*levelledLog, *mcp.Server) {
		l := &levelledLog{}
		l.sink = oplog.NewAsync(oplog.NewJSONHandler(&l.lines, &oplog.JSONOptions{Level: &l.level}), oplog.AsyncOptions{})
		b.Cleanup(func() { l.sink.Close(context.Background()) })
		srv := newLoggedBankServer(b, slog.New(l.sink))
		b.Cleanup(func() { srv.Close() })
		return l, srv
	}
	b.Run("path=handle", func(b *testing.B) {
		l, srv := logged(b)
		sess := initializedSession(b, srv, investigator)
		resp := sess.Handle(context.Background(), line)
		mustContain(b, "tools/call", resp, lookupText("PMT-771"))
		l.pairs(b, func(calls int) {
			for range calls {
				sess.Handle(context.Background(), line)
			}
		})
	})
	b.Run("path=stdio", func(b *testing.B) {
		l, srv := logged(b)
		c := dialed(b, serveMcpgen(srv, investigator))
		resp, err := c.roundTrip(line)
		if err != nil {
			b.Fatal(err)
		}
		mustContain(b, "tools/call", resp, lookupText("PMT-771"))
		l.pairs(b, func(calls int) {
			for range calls {
				if err := c.timedTrip(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// callLogBlock is how many calls a block of BenchmarkCallLog makes: some
// tens of milliseconds, a hundred of the sink's writer's batches.
const callLogBlock = 10_000

// levelledLog is a service's log whose level moves: the sink and the
// count of the lines it wrote.
type levelledLog struct {
	level slog.LevelVar
	sink  *oplog.Async
	lines lineCount
}

// pairs makes calls(callLogBlock) with the log on and off in turn, as
// many rounds as b.N asks for, and reports the times and the cost (see
// BenchmarkCallLog). Every call made with the log on must be written.
func (l *levelledLog) pairs(b *testing.B, calls func(int)) {
	rounds := max(1, b.N/(2*callLogBlock))
	var took [2][]time.Duration    // off, on
	logged := l.lines.lines.Load() // the lines written so far
	b.ResetTimer()
	for r := range rounds {
		for i := range 2 {
			on := (r+i)%2 == 1
			if on {
				l.level.Set(slog.LevelInfo)
			} else {
				l.level.Set(slog.LevelWarn)
			}
			start := time.Now()
			calls(callLogBlock)
			d := time.Since(start)
			if on {
				took[1] = append(took[1], d)
				logged += callLogBlock
				b.StopTimer()
				l.await(b, logged)
				b.StartTimer()
			} else {
				took[0] = append(took[0], d)
			}
		}
	}
	b.StopTimer()
	per := func(d []time.Duration) float64 {
		var sum time.Duration
		for _, x := range d {
			sum += x
		}
		return float64(sum.Nanoseconds()) / float64(rounds*callLogBlock)
	}
	costs := make([]float64, rounds)
	for r := range rounds {
		costs[r] = 100 * (float64(took[1][r])/float64(took[0][r]) - 1)
	}
	slices.Sort(costs)
	b.ReportMetric(per(took[0]), "log-off-ns/call")
	b.ReportMetric(per(took[1]), "log-on-ns/call")
	b.ReportMetric(costs[rounds/2], "cost-%")
	reportLost(b, l.sink)
}

// await waits until the sink has written n lines in all, or dropped the
// rest: the records queued are written before the next block.
func (l *levelledLog) await(b *testing.B, n int64) {
	deadline := time.Now().Add(answerTimeout)
	for l.lines.lines.Load()+l.sink.Lost() < n {
		if time.Now().After(deadline) {
			b.Fatalf("the log wrote %d lines of %d in %v", l.lines.lines.Load(), n, answerTimeout)
		}
		time.Sleep(100 * time.Microsecond)
	}
}
