package bench

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
)

// BenchmarkPipelinedServer is the pipelined row's server alone, and its
// use of the second core measured to a few percent. The requests a client
// writing ahead sends (BenchmarkCallPipelined's) are read from memory, no
// client and no pipe, by a stream served three ways: one session on both
// cores, one session on one core (GOMAXPROCS=1, as the row's one-core
// rate), and two sessions on both cores, the calls split between them.
// The three take turns within one process, pipelinedBlock calls each, in
// an order that rotates from round to round.
//
// Why in turn: on a virtual machine a row's time moves by 20% to 40% from
// one process to the next, and the machine has slower and quicker
// stretches of seconds; rows in processes of their own (the pipelined
// row's) give the ratio to the one-core rate an interval as wide as the
// effects a change to the stream makes. Blocks of tens of milliseconds
// meet the same state of the machine, and the three configurations are
// the same code on the same server, whose garbage falls alike on all.
//
// It reports each configuration's time a call (one-session-ns/call,
// one-core-ns/call, two-sessions-ns/call, which benchstat and benchtable
// read as -sec/call) and the rate of one session and
// of two sessions against the one-core rate (one-session-x,
// two-sessions-x), each the median of the rounds' ratios. ns/op counts
// all three and means nothing.
func BenchmarkPipelinedServer(b *testing.B) {
	srv := newBankServer(b)
	b.Cleanup(func() { srv.Close() })
	spec := bankSpec(b, unpinnedLookup)
	streamOf := func(calls int) []byte {
		var buf bytes.Buffer
		buf.Write(initializeRequest(protocolVersion))
		buf.WriteString("\n" + initializedNotification + "\n")
		for id := range calls {
			buf.Write(callRequest(id+2, spec.Name, lookupV2Valid))
		}
		return buf.Bytes()
	}
	whole, half := streamOf(pipelinedBlock), streamOf(pipelinedBlock/2)

	// serve serves in, a stream of calls calls, on one session, and
	// fails unless each of them and initialize was answered.
	serve := func(in []byte, calls int) {
		var out lineCount
		if err := srv.ServeStream(context.Background(), bytes.NewReader(in), &out, investigator); err != nil {
			b.Error(err)
		}
		if n := out.lines.Load(); n != int64(calls+1) {
			b.Errorf("%d answers to %d calls and initialize", n, calls)
		}
	}
	// Every call is answered, and answered right.
	var kept bytes.Buffer
	if err := srv.ServeStream(context.Background(), bytes.NewReader(streamOf(1)), &kept, investigator); err != nil {
		b.Fatal(err)
	}
	mustContain(b, "tools/call", kept.Bytes(), lookupText("PMT-771"))

	const oneCore = 1 // configs' index of the rate the others are held against
	configs := []turn{
		{"one-session", timed(func() { serve(whole, pipelinedBlock) })},
		{"one-core", timed(func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			serve(whole, pipelinedBlock) // the session's goroutines: one per core, as it starts
		})},
		{"two-sessions", timed(func() {
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() { serve(half, pipelinedBlock/2) })
			}
			wg.Wait()
		})},
	}
	took := inTurn(b, configs)
	b.ReportMetric(medianRatio(took[oneCore], took[0]), "one-session-x")
	b.ReportMetric(medianRatio(took[oneCore], took[2]), "two-sessions-x")
}

// BenchmarkPipelinedInTurn is the pipelined row's calls through its client
// (BenchmarkCallPipelined's: requests written ahead through a pipe, in
// writes of pipelineBatch lines, answers counted as they come), one
// session on both cores and one on one core (GOMAXPROCS=1, the client's
// side included, as the row's one-core rate), taking turns within one
// process as BenchmarkPipelinedServer's configurations do, for the same
// reason: rows in processes of their own give the ratio to the one-core
// rate an interval as wide as what it is held to. Each block is a session
// of its own, dialled and initialized untimed, so that a session's
// goroutines are as many as the cores it starts with.
//
// Two more configurations take their turns as controls, read beside the
// ratio rather than held to a goal. two-sessions serves the block as two
// sessions of half of it at once, each through a client of its own: two
// streams that share nothing but the server, the most that running one
// stream's requests in parallel could give through this client on this
// machine. work-both-cores and work-one-core are work with no stream at
// all (the generated decoding of the call's arguments, pipelinedBlock*4
// times, on two goroutines), on both cores and on one: what the machine
// gives independent work at that moment. The in-turn figure moves by a
// quarter over half an hour; the controls, taken in the same rounds, say
// how much of that is the machine's.
//
// It reports each configuration's time a call (both-cores-ns/call,
// one-core-ns/call, two-sessions-ns/call; the work's, work-both-cores-
// and work-one-core-ns/call, are of four decodings), the
// rate on both cores and that of two sessions against the one-core rate
// (both-cores-x, two-sessions-x) and the work's on both cores against one
// (work-x), each the median of the rounds' ratios.
func BenchmarkPipelinedInTurn(b *testing.B) {
	srv := newBankServer(b)
	b.Cleanup(func() { srv.Close() })
	spec := bankSpec(b, unpinnedLookup)
	whole, half := callWrites{spec.Name, pipelinedBlock}, callWrites{spec.Name, pipelinedBlock / 2}
	// serve makes a block's calls on sessions of their own, dialled and
	// initialized untimed, one for each of writes; it returns the time
	// the calls took, and fails unless every one was answered.
	serve := func(writes ...callWrites) time.Duration {
		conns := make([]*pipeConn, len(writes))
		for k := range writes {
			conns[k] = dial(serveMcpgen(srv, investigator))
			defer conns[k].close()
			if err := conns[k].handshake(); err != nil {
				b.Fatal(err)
			}
		}
		return timed(func() {
			if err := pipelined(conns, writes); err != nil {
				b.Fatal(err)
			}
		})()
	}
	// Every call is answered, and answered right.
	c := dialed(b, serveMcpgen(srv, investigator))
	resp, err := c.roundTrip(callRequest(1, spec.Name, lookupV2Valid))
	if err != nil {
		b.Fatal(err)
	}
	mustContain(b, "tools/call", resp, lookupText("PMT-771"))
	if _, errs, err := bank.DecodePaymentsLookupV3_0_0Args(lookupV2Valid); err != nil || errs != nil {
		b.Fatalf("the work's arguments do not decode: %v %v", errs, err)
	}

	// work decodes the call's arguments pipelinedBlock*4 times, on two
	// goroutines.
	work := func() {
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range pipelinedBlock * 2 {
					if _, _, err := bank.DecodePaymentsLookupV3_0_0Args(lookupV2Valid); err != nil {
						panic(err) // decoded without error above
					}
				}
			})
		}
		wg.Wait()
	}
	const (
		bothCores, oneCore, twoSessions, workBoth, workOne = 0, 1, 2, 3, 4 // configs' indices
	)
	configs := []turn{
		bothCores: {"both-cores", func() time.Duration { return serve(whole) }},
		oneCore: {"one-core", func() time.Duration {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			return serve(whole)
		}},
		twoSessions: {"two-sessions", func() time.Duration { return serve(half, half) }},
		workBoth:    {"work-both-cores", timed(work)},
		workOne: {"work-one-core", timed(func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			work()
		})},
	}
	took := inTurn(b, configs)
	b.ReportMetric(medianRatio(took[oneCore], took[bothCores]), "both-cores-x")
	b.ReportMetric(medianRatio(took[oneCore], took[twoSessions]), "two-sessions-x")
	b.ReportMetric(medianRatio(took[workOne], took[workBoth]), "work-x")
}

// turn is one of the configurations inTurn runs: run makes
// pipelinedBlock calls and returns the time they took.
type turn struct {
	name string
	run  func() time.Duration
}

// timed is a turn's run that times all of f.
func timed(f func()) func() time.Duration {
	return func() time.Duration {
		start := time.Now()
		f()
		return time.Since(start)
	}
}

// inTurn runs configs in turn, a block of pipelinedBlock calls each, as
// many rounds as b.N asks for, in an order that rotates from round to
// round, and reports each one's time a call (name-ns/call) as the runs
// timed it; it returns each one's times, round by round.
func inTurn(b *testing.B, configs []turn) [][]time.Duration {
	rounds := max(1, (b.N+pipelinedBlock-1)/pipelinedBlock)
	took := make([][]time.Duration, len(configs))
	b.ResetTimer()
	for r := range rounds {
		for i := range configs {
			k := (r + i) % len(configs)
			took[k] = append(took[k], configs[k].run())
		}
		if b.Failed() {
			b.FailNow()
		}
	}
	b.StopTimer()
	calls := float64(rounds * pipelinedBlock)
	for k, c := range configs {
		var sum time.Duration
		for _, d := range took[k] {
			sum += d
		}
		b.ReportMetric(float64(sum.Nanoseconds())/calls, c.name+"-ns/call")
	}
	return took
}

// medianRatio is the median, over the rounds, of base's time over k's:
// k's rate against base's, round by round.
func medianRatio(base, k []time.Duration) float64 {
	ratios := make([]float64, len(base))
	for r := range base {
		ratios[r] = float64(base[r]) / float64(k[r])
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

// pipelinedBlock is how many calls BenchmarkPipelinedServer serves in one
// configuration before it turns to the next: 30 to 60 ms of calls.
const pipelinedBlock = 20000

// lineCount is a writer that counts the lines written to it and keeps
// nothing: a stream's output, or a log's. It may be read while written.
type lineCount struct{ lines atomic.Int64 }

func (c *lineCount) Write(p []byte) (int, error) {
	c.lines.Add(int64(bytes.Count(p, []byte{'\n'})))
	return len(p), nil
}
