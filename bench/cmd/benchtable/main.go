// Command benchtable reads the output of the bench module's benchmarks (go
// test -bench -count=N, any number of files) and prints one Markdown table:
// for each row of the performance issue, mcpgen's median, the best anchor's
// median, their ratio, the goal and whether it is met. Medians and their 95%
// confidence intervals are benchstat's (golang.org/x/perf/benchmath); a
// ratio is taken round by round, with its interval (see perRound).
//
//	go run ./cmd/benchtable out/*.txt
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtable results.txt...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	res, err := read(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	res.print(w)
}

// results holds every sample, by benchmark name without the GOMAXPROCS
// suffix and unit.
type results struct {
	samples map[string]map[string][]float64 // name -> unit -> values
	config  map[string]string               // goos, goarch, cpu, ...
}

var gomaxprocs = regexp.MustCompile(`-\d+$`)

func read(files []string) (*results, error) {
	res := &results{samples: map[string]map[string][]float64{}, config: map[string]string{}}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		r := benchfmt.NewReader(f, file)
		for r.Scan() {
			rec, ok := r.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			for _, c := range rec.Config {
				if c.File {
					res.config[c.Key] = string(c.Value)
				}
			}
			name := strings.TrimPrefix(gomaxprocs.ReplaceAllString(rec.Name.String(), ""), "Benchmark")
			units := res.samples[name]
			if units == nil {
				units = map[string][]float64{}
				res.samples[name] = units
			}
			for _, v := range rec.Values {
				units[v.Unit] = append(units[v.Unit], v.Value)
			}
		}
		f.Close()
		if err := r.Err(); err != nil {
			return nil, err
		}
	}
	if len(res.samples) == 0 {
		return nil, errors.New("no benchmark results")
	}
	return res, nil
}

// stat is a summarised sample.
type stat struct {
	benchmath.Summary
	n int
}

func (s stat) ok() bool { return s.n > 0 }

// get summarises name's values in unit (zero stat when absent).
func (r *results) get(name, unit string) stat {
	vals := r.samples[name][unit]
	if len(vals) == 0 {
		return stat{}
	}
	// NewSample sorts what it is given: a copy, so that the results keep
	// their rounds' order for perRound.
	sample := benchmath.NewSample(slices.Clone(vals), &benchmath.DefaultThresholds)
	return stat{benchmath.AssumeNothing.Summary(sample, 0.95), len(vals)}
}

// ratio is a figure computed from several rows' results round by round,
// with the 95% confidence interval of its median.
type ratio struct {
	center, lo, hi float64
	interval       bool // lo and hi are known
}

// perRound computes f of the named rows' results in unit round by round,
// and summarises what it gives. benchrun runs every row of a group once a
// round, in an order it rotates between rounds, so the i-th results of two
// rows of a group were measured within the same minute: a quieter or a
// busier stretch of the machine falls on both sides of a ratio instead of
// on one. The center is the median of the rounds' figures, and the
// interval benchstat's 95% confidence interval for a median. Rows with
// different numbers of results (not run together) give f of their
// medians, with no interval.
func (r *results) perRound(unit string, f func(v ...float64) float64, names ...string) ratio {
	n := len(r.samples[names[0]][unit])
	for _, name := range names[1:] {
		if len(r.samples[name][unit]) != n {
			n = 0
		}
	}
	if n < 2 {
		medians := make([]float64, len(names))
		for i, name := range names {
			medians[i] = r.get(name, unit).Center
		}
		return ratio{center: f(medians...)}
	}
	figures := make([]float64, n)
	v := make([]float64, len(names))
	for i := range n {
		for j, name := range names {
			v[j] = r.samples[name][unit][i]
		}
		figures[i] = f(v...)
	}
	return summaryRatio(benchmath.AssumeNothing.Summary(benchmath.NewSample(figures, &benchmath.DefaultThresholds), 0.95))
}

// summaryRatio is a summary of ratios (the rounds' figures, or a ratio a
// benchmark took in each run) as a ratio: its median, and its interval
// when benchmath gave a finite one.
func summaryRatio(sum benchmath.Summary) ratio {
	finite := !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) && !math.IsNaN(sum.Lo) && !math.IsNaN(sum.Hi)
	return ratio{center: sum.Center, lo: sum.Lo, hi: sum.Hi, interval: finite}
}

// quotient is perRound's f for the first row's result over the second's.
func quotient(v ...float64) float64 { return v[0] / v[1] }

// times renders a ratio as "10.2× (8.6–11.9)", its interval in brackets;
// digits is how many decimals.
func (q ratio) times(digits int) string {
	s := strconv.FormatFloat(q.center, 'f', digits, 64) + "×"
	if q.interval {
		s += " (" + strconv.FormatFloat(q.lo, 'f', digits, 64) + "–" + strconv.FormatFloat(q.hi, 'f', digits, 64) + ")"
	}
	return s
}

// table is the Markdown table being written.
type table struct {
	w    io.Writer
	rows int
}

func (t *table) header() {
	fmt.Fprintln(t.w, "| row | mcpgen | best anchor | ratio | goal | met |")
	fmt.Fprintln(t.w, "|---|---|---|---|---|---|")
}

func (t *table) row(cells ...string) {
	fmt.Fprintln(t.w, "| "+strings.Join(cells, " | ")+" |")
	t.rows++
}

func (r *results) print(w io.Writer) {
	fmt.Fprintf(w, "machine: %s/%s, %s, %d CPUs, %s\n\n", r.config["goos"], r.config["goarch"], strings.TrimSpace(r.config["cpu"]), runtime.NumCPU(), runtime.Version())
	r.stallLine(w)
	t := &table{w: w}
	t.header()
	r.decodeRows(t)
	r.callRow(t)
	r.pipelinedRow(t)
	r.pipelinedServerRow(t)
	r.pipelinedInTurnRow(t)
	r.processRow(t)
	r.callLogRows(t)
	r.httpRows(t)
	r.httpHandlerRows(t)
	r.listRows(t)
	r.scaleRows(t)
	r.pageRow(t)
	r.generateRows(t)
	r.memoryRow(t)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times are medians of the runs (± the 95% confidence interval, as benchstat computes it);")
	fmt.Fprintln(w, "a ratio is the median of the rounds' ratios (each round runs every row of a group once, so both")
	fmt.Fprintln(w, "sides of a ratio were measured in the same minute), with its 95% confidence interval in brackets.")
	fmt.Fprintln(w, "A row without results was not run.")
}

// stallLine says how much of its time a busy thread lost to the machine
// (BenchmarkCoreStalls), alone and with every core busy: what the rows
// that keep both cores busy pay besides their code.
func (r *results) stallLine(w io.Writer) {
	one := r.get("CoreStalls/busy=1", "stalled-%")
	if !one.ok() {
		return
	}
	all := fmt.Sprintf("CoreStalls/busy=%d", runtime.NumCPU())
	longest := func(name string) float64 { return slices.Max(append([]float64{0}, r.samples[name]["longest-ms"]...)) }
	fmt.Fprintf(w, "stalls: a thread that never blocks lost %.2f%% of its time to gaps over 100 µs alone (the longest %.1f ms), %.2f%% with every core busy (the longest %.1f ms)\n\n",
		one.Center, longest("CoreStalls/busy=1"), r.get(all, "stalled-%").Center, longest(all))
}

// anchor is a named benchmark to compare with.
type anchor struct{ label, name string }

// best returns the anchor with the lowest median time.
func (r *results) best(anchors []anchor) (anchor, stat) {
	var ba anchor
	var bs stat
	for _, a := range anchors {
		s := r.get(a.name, "sec/op")
		if s.ok() && (!bs.ok() || s.Center < bs.Center) {
			ba, bs = a, s
		}
	}
	return ba, bs
}

func (r *results) decodeRows(t *table) {
	type row struct {
		name, title string
		goal        float64
		allocs      float64 // the allocation goal, 0 when there is none
	}
	rows := []row{
		{"lookup-valid", "decode+validate payments.lookup, valid", 10, 1},
		{"lookup-invalid", "decode+validate payments.lookup, invalid (3 errors, sorted)", 10, 0},
		{"release-valid", "decode+validate payments.release, valid", 10, 0},
		{"lookup-long-valid", "decode+validate payments.lookup 2.0.0, valid, 190 B of long strings", 10, 0},
		{"instruct-valid", "decode+validate payments.instruct ($ref, oneOf, nullable, formats), valid", 10, 0},
		{"instruct-long-valid", "payments.instruct, valid, 1.4 KB with strings at their maxLength in Arabic", 10, 0},
		{"instruct-invalid", "payments.instruct, invalid (5 errors)", 10, 0},
	}
	for _, c := range rows {
		base := "Decode/" + c.name + "/impl="
		m := r.get(base+"mcpgen", "sec/op")
		if !m.ok() {
			continue
		}
		validating := []anchor{
			{"santhosh-tekuri/jsonschema", base + "santhosh-tekuri"},
			{"google/jsonschema-go", base + "google-jsonschema-go"},
			{"go-sdk argument path", base + "go-sdk-args-path"},
		}
		ba, bs := r.best(validating)
		floor := r.get(base+"encoding-json-floor", "sec/op")
		allocs := r.get(base+"mcpgen", "allocs/op")
		var goals, met []string
		q := r.perRound("sec/op", quotient, ba.name, base+"mcpgen")
		goals = append(goals, fmt.Sprintf("≥ %g× the best validating anchor", c.goal))
		met = append(met, yes(q.center >= c.goal))
		if san := r.get(base+"santhosh-tekuri", "sec/op"); san.ok() && ba.label != "santhosh-tekuri/jsonschema" {
			sq := r.perRound("sec/op", quotient, base+"santhosh-tekuri", base+"mcpgen")
			goals = append(goals, fmt.Sprintf("≥ 10× santhosh (%s)", sq.times(2)))
			met = append(met, yes(sq.center >= 10))
		}
		if floor.ok() {
			goals = append(goals, fmt.Sprintf("faster than the encoding/json floor (%s, %.1f×)", dur(floor), floor.Center/m.Center))
			met = append(met, yes(m.Center < floor.Center))
		}
		if c.allocs > 0 {
			goals = append(goals, fmt.Sprintf("≤ %g alloc (%g)", c.allocs, allocs.Center))
			met = append(met, yes(allocs.Center <= c.allocs))
		}
		t.row(c.title, fmt.Sprintf("%s, %g allocs", dur(m), allocs.Center), ba.label+" "+dur(bs),
			q.times(2), strings.Join(goals, "; "), strings.Join(met, " "))
	}
}

func (r *results) callRow(t *table) {
	m := r.get("Call/impl=mcpgen", "sec/op")
	if !m.ok() {
		return
	}
	echo := r.get("Call/impl=pipe-echo", "sec/op")
	ba, bs := r.best([]anchor{{"mcp-go", "Call/impl=mcp-go"}, {"go-sdk", "Call/impl=go-sdk"}})
	allocs := r.get("Call/impl=mcpgen", "allocs/op")
	q := r.perRound("sec/op", quotient, ba.name, "Call/impl=mcpgen")
	server := r.perRound("sec/op", func(v ...float64) float64 { return (v[0] - v[2]) / (v[1] - v[2]) },
		ba.name, "Call/impl=mcpgen", "Call/impl=pipe-echo")
	t.row("tools/call through the server over an in-process pipe",
		fmt.Sprintf("%s, %g allocs (server alone %s)", dur(m), allocs.Center, ns((m.Center-echo.Center)*1e9)),
		fmt.Sprintf("%s %s (server alone %s); pipe echo %s", ba.label, dur(bs), ns((bs.Center-echo.Center)*1e9), dur(echo)),
		fmt.Sprintf("%s (server alone %s)", q.times(1), server.times(1)),
		fmt.Sprintf("≥ 10× server alone; ≤ 20 allocs (%g)", allocs.Center),
		yes(server.center >= 10)+" "+yes(allocs.Center <= 20))
}

// pipelinedRow is tools/call with the client writing ahead: mcpgen's
// calls against the best anchor's (at least 3×), and against its own rate
// on one core (at least 1.6×: what using both cores brings).
func (r *results) pipelinedRow(t *table) {
	m := r.get("CallPipelined/impl=mcpgen", "sec/op")
	if !m.ok() {
		return
	}
	one := r.get("CallPipelined/impl=mcpgen-one-core", "sec/op")
	ba, bs := r.best([]anchor{{"mcp-go", "CallPipelined/impl=mcp-go"}, {"go-sdk", "CallPipelined/impl=go-sdk"}})
	q := r.perRound("sec/op", quotient, ba.name, "CallPipelined/impl=mcpgen")
	cores := r.perRound("sec/op", quotient, "CallPipelined/impl=mcpgen-one-core", "CallPipelined/impl=mcpgen")
	mine := fmt.Sprintf("%s a call; on one core %s", dur(m), dur(one))
	ratios := fmt.Sprintf("%s (%s its one-core rate", q.times(1), cores.times(2))
	if two := r.get("CallPipelined/impl=mcpgen-two-sessions", "sec/op"); two.ok() {
		// What both cores give two sessions that share nothing but the
		// server: the ceiling against which one session's figure is read.
		twoCores := r.perRound("sec/op", quotient, "CallPipelined/impl=mcpgen-one-core", "CallPipelined/impl=mcpgen-two-sessions")
		mine += fmt.Sprintf("; two sessions %s", dur(two))
		ratios += fmt.Sprintf("; two sessions %s", twoCores.times(2))
	}
	t.row("tools/call pipelined over an in-process pipe (32 requests a write)",
		mine,
		ba.label+" "+dur(bs),
		ratios+")",
		"≥ 3× the best anchor; ≥ 1.6× mcpgen's one-core rate",
		yes(bs.ok() && q.center >= 3)+" "+yes(one.ok() && cores.center >= 1.6))
}

// pipelinedServerRow is the pipelined row's server alone (the requests
// read from memory), one session on both cores, on one core, and two
// sessions, taking turns within each process (BenchmarkPipelinedServer):
// the row above's second goal measured without the client and the
// machine's moves from one process to the next. It shows the figures and
// leaves the verdict to the row above.
func (r *results) pipelinedServerRow(t *table) {
	const name = "PipelinedServer"
	one := r.get(name, "one-session-x")
	if !one.ok() {
		return
	}
	t.row("tools/call pipelined, the server alone (requests read from memory; one session, one core and two sessions in turn in each process)",
		fmt.Sprintf("one session %s a call; on one core %s; two sessions %s",
			r.perCall(name, "one-session-sec/call"), r.perCall(name, "one-core-sec/call"), r.perCall(name, "two-sessions-sec/call")),
		"—",
		fmt.Sprintf("one session %s its one-core rate; two sessions %s", summaryRatio(one.Summary).times(2), summaryRatio(r.get(name, "two-sessions-x").Summary).times(2)),
		"none: the row above's second goal, without the client, measured to a few percent",
		"—")
}

// pipelinedInTurnRow is the pipelined row's calls through its client, on
// both cores and on one, taking turns within each process
// (BenchmarkPipelinedInTurn): the row's second goal measured without the
// machine's moves from one process to the next, beside the row's own
// figure, and the two controls taking the same turns: two sessions at
// once, each through a client of its own (what one stream could give at
// most), and independent work on both cores against one (what the
// machine gave meanwhile). Like the server-alone row, it shows the
// figures and leaves the verdict to the pipelined row.
func (r *results) pipelinedInTurnRow(t *table) {
	const name = "PipelinedInTurn"
	both := r.get(name, "both-cores-x")
	if !both.ok() {
		return
	}
	mine := fmt.Sprintf("both cores %s a call; on one core %s", r.perCall(name, "both-cores-sec/call"), r.perCall(name, "one-core-sec/call"))
	ratios := fmt.Sprintf("%s its one-core rate", summaryRatio(both.Summary).times(2))
	if two := r.get(name, "two-sessions-x"); two.ok() {
		mine += fmt.Sprintf("; two sessions %s", r.perCall(name, "two-sessions-sec/call"))
		ratios += fmt.Sprintf("; two sessions %s", summaryRatio(two.Summary).times(2))
	}
	if work := r.get(name, "work-x"); work.ok() {
		ratios += fmt.Sprintf("; independent work on both cores %s its rate on one", summaryRatio(work.Summary).times(2))
	}
	t.row("tools/call pipelined through the client, both cores and one core in turn in each process (with two sessions and independent work as controls)",
		mine,
		"—",
		ratios,
		"none: the pipelined row's second goal, measured in turn",
		"—")
}

// perCall is the time a call a benchmark of turns reports as unit
// (x-ns/call, which benchfmt tidies to x-sec/call), the runs' median.
func (r *results) perCall(name, unit string) string { return ns(r.get(name, unit).Center * 1e9) }

// processRow is one tools/call at a time to the service as a process over
// real pipes, against a process that echoes each line: the latency a
// client waits, and the share of round trips over 30 µs, which the echo
// shows too (a core woken from sleep). No goal: it explains the tail.
func (r *results) processRow(t *table) {
	figures := func(name string) string {
		return fmt.Sprintf("p50 %s, p90 %s, p99 %s, %.0f%% over 30 µs",
			ns(r.get(name, "p50-sec").Center*1e9), ns(r.get(name, "p90-sec").Center*1e9),
			ns(r.get(name, "p99-sec").Center*1e9), r.get(name, "slow-%").Center)
	}
	const m, echo = "StdioProcess/impl=mcpgen", "StdioProcess/impl=line-echo"
	if !r.get(m, "p50-sec").ok() {
		return
	}
	t.row("tools/call to the service as a process, one at a time over real pipes",
		figures(m), "line echo "+figures(echo), "—", "none: the tail is the pipes' and the cores' (compare the echo)", "—")
}

// callLogRows are what the call log costs a call, within 10%: a service's
// logs on (JSON lines through the asynchronous sink) against none, for
// Session.Handle's tools/call and for the stdio row's. The verdict is
// BenchmarkCallLog's when it ran: the log on and off in turn on one
// session, within each process (cost-%, the median of a process's rounds,
// summarised over the processes); the rows with the log on and off in
// processes of their own (BenchmarkCallHandle, BenchmarkCall), whose time
// moves by 20% to 40% from one process to the next, are shown beside it.
func (r *results) callLogRows(t *table) {
	for _, row := range []struct{ title, off, on, inTurn string }{
		{"tools/call through Session.Handle, call log on against off", "CallHandle/log=off", "CallHandle/log=on", "CallLog/path=handle"},
		{"stdio tools/call one in flight, call log on against off", "Call/impl=mcpgen", "Call/impl=mcpgen-logged", "CallLog/path=stdio"},
	} {
		off, on := r.get(row.off, "sec/op"), r.get(row.on, "sec/op")
		paired := r.get(row.inTurn, "cost-%")
		if !paired.ok() && (!off.ok() || !on.ok()) {
			continue
		}
		var mcpgen, figure string
		var cost float64
		lost := r.get(row.on, "lost/op")
		if off.ok() && on.ok() {
			apart := r.perRound("sec/op", func(v ...float64) float64 { return 100 * (v[0]/v[1] - 1) }, row.on, row.off)
			mcpgen, figure, cost = fmt.Sprintf("on %s, off %s", dur(on), dur(off)), percent(apart), apart.center
		}
		goal := "the log costs ≤ 10%"
		if paired.ok() {
			// A session's log on and off in the same stretch of the
			// machine: the verdict's measure.
			inTurn := fmt.Sprintf("in turn on one session: on %s, off %s", r.perCall(row.inTurn, "log-on-sec/call"), r.perCall(row.inTurn, "log-off-sec/call"))
			inTurnFigure := percent(summaryRatio(paired.Summary)) + " in turn"
			if figure != "" {
				mcpgen += "; " + inTurn
				figure = inTurnFigure + "; " + figure + " in processes of their own"
			} else {
				mcpgen, figure = inTurn, inTurnFigure
			}
			cost, lost = paired.Center, r.get(row.inTurn, "lost/op")
			goal += ", in turn"
		}
		met := yes(cost <= 10)
		if lost.ok() {
			// The sink drops what its writer has no room for: a row
			// whose records were dropped wrote less than it claims.
			mcpgen += fmt.Sprintf("; records dropped %.2f%%", 100*lost.Center)
			goal += "; every record written"
			met += " " + yes(lost.Center == 0)
		}
		t.row(row.title, mcpgen, "—", figure, goal, met)
	}
}

// percent renders a cost in percent as "+9%" or, with its interval,
// "+9% (+2% to +14%)".
func percent(q ratio) string {
	s := fmt.Sprintf("%+.0f%%", q.center)
	if q.interval {
		s += fmt.Sprintf(" (%+.0f%% to %+.0f%%)", q.lo, q.hi)
	}
	return s
}

// httpName is the name of a BenchmarkHTTP result.
func httpName(impl, client string, clients int) string {
	return fmt.Sprintf("HTTP/impl=%s/client=%s/clients=%d", impl, client, clients)
}

// stdioServer is the server's part of a stdio tools/call in seconds (the
// call row's median less the pipe echo's), zero when not run.
func (r *results) stdioServer() float64 {
	m, echo := r.get("Call/impl=mcpgen", "sec/op"), r.get("Call/impl=pipe-echo", "sec/op")
	if !m.ok() || !echo.ok() {
		return 0
	}
	return m.Center - echo.Center
}

// httpAnchors are the servers the HTTP rows compare mcpgen with, for a
// client kind and a number of concurrent clients.
func httpAnchors(client string, clients int) []anchor {
	return []anchor{
		{"mcp-go", httpName("mcpgo", client, clients)},
		{"go-sdk", httpName("gosdk", client, clients)},
		{"go-sdk stateless", httpName("gosdk-stateless", client, clients)},
	}
}

// bestRate returns the anchor with the highest median calls/s.
func (r *results) bestRate(anchors []anchor) (anchor, stat) {
	var ba anchor
	var bs stat
	for _, a := range anchors {
		s := r.get(a.name, "calls/s")
		if s.ok() && (!bs.ok() || s.Center > bs.Center) {
			ba, bs = a, s
		}
	}
	return ba, bs
}

// httpFigures renders an HTTP result: median calls/s (with its interval),
// and the medians of the runs' p50 and p99 latencies (benchfmt tidies
// p50-ns into p50-sec).
func (r *results) httpFigures(name string) string {
	c := r.get(name, "calls/s")
	if !c.ok() {
		return "—"
	}
	return fmt.Sprintf("%s, p50 %s, p99 %s", rate(c), ns(r.get(name, "p50-sec").Center*1e9), ns(r.get(name, "p99-sec").Center*1e9))
}

// httpRows are tools/call over Streamable HTTP on loopback: with the raw
// client (what the server costs) against the goal, for the stateful and the
// stateless handler, sequential and with 8 and 32 concurrent clients (at
// least 2× the best anchor's calls/s sequentially, 2.5× concurrently); then
// the official SDK client's figures (what a user sees), which have no goal.
func (r *results) httpRows(t *table) {
	concurrency := []struct {
		clients int
		label   string
		goal    float64
	}{{1, "sequential", 2}, {8, "8 concurrent clients", 2.5}, {32, "32 concurrent clients", 2.5}}
	for _, c := range concurrency {
		ba, bs := r.bestRate(httpAnchors("raw", c.clients))
		floor := httpName("bare-post", "raw", c.clients)
		for _, impl := range []struct{ name, mode string }{{"mcpgen", "stateful"}, {"mcpgen-stateless", "stateless"}} {
			name := httpName(impl.name, "raw", c.clients)
			m := r.get(name, "calls/s")
			if !m.ok() {
				continue
			}
			q := r.perRound("calls/s", quotient, name, ba.name)
			ratios := q.times(1)
			var notes []string
			above := math.NaN() // mcpgen's time a call above the bare POST's, in seconds
			if f := r.get(floor, "calls/s"); f.ok() && bs.ok() {
				// Time per call above the bare POST's, as the pipe row's
				// "server alone"; none when a median is within the floor's.
				mine, theirs := 1/m.Center-1/f.Center, 1/bs.Center-1/f.Center
				above = mine
				if mine > 0 && theirs > 0 {
					notes = append(notes, fmt.Sprintf("server alone %.1f×", theirs/mine))
				} else {
					notes = append(notes, "server alone: not above the bare POST")
				}
			}
			if impl.mode == "stateless" {
				if sa := r.get(httpName("gosdk-stateless", "raw", c.clients), "calls/s"); sa.ok() {
					notes = append(notes, fmt.Sprintf("go-sdk stateless %.1f×", m.Center/sa.Center))
				}
			}
			if len(notes) > 0 {
				ratios += " (" + strings.Join(notes, "; ") + ")"
			}
			p99, anchorP50 := r.get(name, "p99-sec"), r.get(ba.name, "p50-sec")
			goals := fmt.Sprintf("≥ %g× the best anchor's calls/s; p99 < its p50 (%s against %s)", c.goal, ns(p99.Center*1e9), ns(anchorP50.Center*1e9))
			met := yes(bs.ok() && q.center >= c.goal) + " " + yes(anchorP50.ok() && p99.Center < anchorP50.Center)
			if stdio := r.stdioServer(); c.clients == 1 && stdio > 0 && !math.IsNaN(above) {
				goals += fmt.Sprintf("; time a call above the bare POST's within 15 µs of the stdio call's server part (%s against %s)", ns(above*1e9), ns(stdio*1e9))
				met += " " + yes(above-stdio <= 15e-6)
			}
			t.row(fmt.Sprintf("tools/call over Streamable HTTP, %s, raw client, %s", impl.mode, c.label),
				r.httpFigures(name),
				fmt.Sprintf("%s %s; bare POST %s", ba.label, r.httpFigures(ba.name), r.httpFigures(floor)),
				ratios, goals, met)
		}
	}
	for _, c := range concurrency {
		stateful, stateless := httpName("mcpgen", "sdk", c.clients), httpName("mcpgen-stateless", "sdk", c.clients)
		m := r.get(stateful, "calls/s")
		if !m.ok() {
			continue
		}
		ba, bs := r.bestRate(httpAnchors("sdk", c.clients))
		ratio := fmt.Sprintf("%.1f×", m.Center/bs.Center)
		if s := r.get(stateless, "calls/s"); s.ok() {
			ratio += fmt.Sprintf(" (stateless %.1f×)", s.Center/bs.Center)
		}
		t.row("tools/call over Streamable HTTP, official Go SDK client, "+c.label,
			fmt.Sprintf("stateful %s; stateless %s", r.httpFigures(stateful), r.httpFigures(stateless)),
			ba.label+" "+r.httpFigures(ba.name), ratio, "none: what a user sees", "—")
	}
}

// httpHandlerRows are the HTTP row's call through each handler in
// process, no connection (BenchmarkHTTPHandler): what the server itself
// costs a call, against mcp-go's handler, and above the bare handler's
// (reading the body, writing a fixed answer) beside the stdio call's
// server part. No goal of their own: they explain the loopback rows, whose
// clients, sockets and net/http serving take most of a call.
func (r *results) httpHandlerRows(t *table) {
	const anchorName, floor = "HTTPHandler/impl=mcpgo", "HTTPHandler/impl=bare-post"
	a, f := r.get(anchorName, "sec/op"), r.get(floor, "sec/op")
	for _, impl := range []struct{ name, mode string }{{"mcpgen", "stateful"}, {"mcpgen-stateless", "stateless"}} {
		name := "HTTPHandler/impl=" + impl.name
		m := r.get(name, "sec/op")
		if !m.ok() {
			continue
		}
		q := r.perRound("sec/op", quotient, anchorName, name)
		figure := dur(m)
		if f.ok() {
			above := r.perRound("sec/op", func(v ...float64) float64 { return v[0] - v[1] }, name, floor)
			figure += fmt.Sprintf("; %s above the bare handler's", ns(above.center*1e9))
			if stdio := r.stdioServer(); stdio > 0 {
				figure += fmt.Sprintf(" (the stdio call's server part: %s)", ns(stdio*1e9))
			}
		}
		t.row(fmt.Sprintf("tools/call through the HTTP handler in process, %s", impl.mode),
			figure, fmt.Sprintf("mcp-go %s; bare handler %s", dur(a), dur(f)),
			q.times(1), "none: the server's part of the HTTP rows", "—")
	}
}

func (r *results) listRows(t *table) {
	anchors := []anchor{{"mcp-go", "List/impl=mcp-go"}, {"go-sdk", "List/impl=go-sdk"}}
	ba, bs := r.best(anchors)
	for _, c := range []struct {
		view string
		goal float64
	}{{"warm", 100}, {"cold", 5}} {
		m := r.get("List/impl=mcpgen/view="+c.view, "sec/op")
		if !m.ok() {
			continue
		}
		q := r.perRound("sec/op", quotient, ba.name, "List/impl=mcpgen/view="+c.view)
		t.row(fmt.Sprintf("tools/list, 1,000 tools, principal's view %s", c.view), dur(m), ba.label+" "+dur(bs),
			q.times(0), fmt.Sprintf("≥ %g×", c.goal), yes(q.center >= c.goal))
	}
}

func (r *results) scaleRows(t *table) {
	var names []string
	for name := range r.samples {
		if strings.HasPrefix(name, "ListScale/") && strings.HasSuffix(name, "/view=warm") {
			names = append(names, strings.TrimSuffix(name, "/view=warm"))
		}
	}
	sort.Slice(names, func(i, j int) bool { return scaleOrder(names[i]) < scaleOrder(names[j]) })
	for _, n := range names {
		warm := r.get(n+"/view=warm", "sec/op")
		perTool := r.get(n+"/view=warm", "sec/tool") // benchfmt tidies ns/tool
		cold := r.get(n+"/view=cold", "sec/op")
		label := strings.NewReplacer("ListScale/", "", "estate=", "estate ", "/visible=", ", visible ").Replace(n)
		t.row("tools/list, 100 principals, "+label+" tools",
			fmt.Sprintf("warm %s (%s per visible tool); cold view %s", dur(warm), ns(perTool.Center*1e9), dur(cold)),
			"—", "—", "warm cost follows the visible tools, not the estate", "see curve")
	}
}

// pageRow is tools/list of a 5,000-tool estate in pages of 100, through
// Session.Handle and over Streamable HTTP: the first page, the middle one
// and the last, whose times should be the same.
func (r *results) pageRow(t *table) {
	for _, tr := range []struct{ name, label string }{{"none", "through Session.Handle"}, {"http", "over Streamable HTTP (stateless)"}} {
		base := "ListPages/transport=" + tr.name + "/page="
		first, middle, last := r.get(base+"first", "sec/op"), r.get(base+"middle", "sec/op"), r.get(base+"last", "sec/op")
		if !first.ok() || !last.ok() {
			continue
		}
		t.row("tools/list of 5,000 tools in pages of 100, by cursor, "+tr.label,
			fmt.Sprintf("first %s, middle %s, last %s", dur(first), dur(middle), dur(last)),
			"—", fmt.Sprintf("last/first %.2f", last.Center/first.Center),
			"a page's time does not grow with its place in the list", yes(last.Center <= 1.2*first.Center))
	}
}

// scaleOrder sorts the curve by estate, then view size.
func scaleOrder(name string) float64 {
	var e, v float64
	fmt.Sscanf(strings.NewReplacer("ListScale/estate=", "", "/visible=", " ").Replace(name), "%g %g", &e, &v)
	return e*1e6 + v
}

func (r *results) generateRows(t *table) {
	for _, n := range []int{100, 1000, 5000} {
		g := r.get(fmt.Sprintf("Generate/tools=%d", n), "sec/op")
		if !g.ok() {
			continue
		}
		gPer := r.get(fmt.Sprintf("Generate/tools=%d", n), "sec/version") // benchfmt tidies ns/version
		b := r.get(fmt.Sprintf("Build/tools=%d", n), "sec/op")
		build, ratio, met := "not run", "—", "—"
		if b.ok() {
			bPer := r.get(fmt.Sprintf("Build/tools=%d", n), "sec/version")
			build = fmt.Sprintf("go build %s (%s per version)", dur(b), ns(bPer.Center*1e9))
			if peak := r.get(fmt.Sprintf("Build/tools=%d", n), "peak-MiB"); peak.ok() {
				build += fmt.Sprintf(", peak memory %s", mebibytes(peak.Center))
			}
			ratio = fmt.Sprintf("generate = %.0f%% of build", 100*g.Center/b.Center)
			met = yes(g.Center < b.Center/4)
		}
		t.row(fmt.Sprintf("mcpgen generate, %d tools × 3 versions", n),
			fmt.Sprintf("%s (%s per version)", dur(g), ns(gPer.Center*1e9)), build, ratio,
			"generate < ¼ of go build; both linear (per-version cost flat)", met)
	}
}

// mebibytes writes a size given in MiB, in GiB from 1 GiB on.
func mebibytes(mib float64) string {
	if mib >= 1024 {
		return fmt.Sprintf("%.1f GiB", mib/1024)
	}
	return fmt.Sprintf("%.0f MiB", mib)
}

func (r *results) memoryRow(t *table) {
	name := "ResidentMemory"
	idle := r.get(name, "idle-KiB")
	if !idle.ok() {
		return
	}
	warm, after, growth := r.get(name, "warm-KiB"), r.get(name, "after-KiB"), r.get(name, "growth-KiB")
	grew := kib(growth.Center)
	if growth.n >= 6 && summaryRatio(growth.Summary).interval {
		// The resident set's growth moves by hundreds of KiB from one
		// process to the next: the median of six runs, with its interval.
		grew += fmt.Sprintf(" (%s to %s)", kib(growth.Lo), kib(growth.Hi))
	}
	t.row("bankpayments resident memory (stdio, 100,000 calls)",
		fmt.Sprintf("idle %s, peak over calls 10,000–30,000 %s, over 80,000–100,000 %s", kib(idle.Center), kib(warm.Center), kib(after.Center)),
		"—", "growth after warm-up "+grew,
		"no growth after warm-up (≤ 256 KiB)", yes(growth.Center <= 256))
}

func yes(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// dur renders a summarised time with its confidence interval.
func dur(s stat) string {
	if !s.ok() {
		return "—"
	}
	pm := math.Max(s.Hi-s.Center, s.Center-s.Lo)
	if s.n < 2 || pm == 0 || math.IsInf(pm, 0) || math.IsNaN(pm) {
		// Too few runs for a confidence interval (benchstat's needs six).
		return ns(s.Center * 1e9)
	}
	return fmt.Sprintf("%s ±%.0f%%", ns(s.Center*1e9), 100*pm/s.Center)
}

// ns renders nanoseconds in a readable unit (sec/op values are in
// seconds: callers multiply).
func ns(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.2f s", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.2f ms", v/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

// rate renders a summarised calls/s with its confidence interval.
func rate(s stat) string {
	if !s.ok() {
		return "—"
	}
	v := fmt.Sprintf("%s calls/s", thousands(s.Center))
	pm := math.Max(s.Hi-s.Center, s.Center-s.Lo)
	if s.n < 2 || pm == 0 || math.IsInf(pm, 0) || math.IsNaN(pm) {
		return v
	}
	return fmt.Sprintf("%s ±%.0f%%", v, 100*pm/s.Center)
}

// thousands renders a rounded number with comma separators.
func thousands(v float64) string {
	digits := fmt.Sprintf("%.0f", math.Abs(v))
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

func kib(v float64) string {
	if math.Abs(v) >= 1024 {
		return fmt.Sprintf("%.1f MiB", v/1024)
	}
	return fmt.Sprintf("%.0f KiB", v)
}
