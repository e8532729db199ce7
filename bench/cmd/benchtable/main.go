// Command benchtable reads the output of the bench module's benchmarks (go
// test -bench -count=N, any number of files) and prints one Markdown table:
// for each row of the performance issue, mcpgen's median, the best anchor's
// median, their ratio, the goal and whether it is met. Medians and their 95%
// confidence intervals are benchstat's (golang.org/x/perf/benchmath).
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
	"sort"
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
	sample := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
	return stat{benchmath.AssumeNothing.Summary(sample, 0.95), len(vals)}
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
	t := &table{w: w}
	t.header()
	r.decodeRows(t)
	r.callRow(t)
	r.pipelinedRow(t)
	r.processRow(t)
	r.callLogRows(t)
	r.httpRows(t)
	r.listRows(t)
	r.scaleRows(t)
	r.pageRow(t)
	r.generateRows(t)
	r.memoryRow(t)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times are medians of the runs (± the 95% confidence interval, as benchstat computes it);")
	fmt.Fprintln(w, "ratios divide the best anchor's median by mcpgen's. A row without results was not run.")
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
		ratio := bs.Center / m.Center
		goals = append(goals, fmt.Sprintf("≥ %g× the best validating anchor", c.goal))
		met = append(met, yes(ratio >= c.goal))
		if san := r.get(base+"santhosh-tekuri", "sec/op"); san.ok() && ba.label != "santhosh-tekuri/jsonschema" {
			goals = append(goals, fmt.Sprintf("≥ 10× santhosh (%.1f×)", san.Center/m.Center))
			met = append(met, yes(san.Center/m.Center >= 10))
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
			fmt.Sprintf("%.1f×", ratio), strings.Join(goals, "; "), strings.Join(met, " "))
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
	server := (bs.Center - echo.Center) / (m.Center - echo.Center)
	t.row("tools/call through the server over an in-process pipe",
		fmt.Sprintf("%s, %g allocs (server alone %s)", dur(m), allocs.Center, ns((m.Center-echo.Center)*1e9)),
		fmt.Sprintf("%s %s (server alone %s); pipe echo %s", ba.label, dur(bs), ns((bs.Center-echo.Center)*1e9), dur(echo)),
		fmt.Sprintf("%.1f× (server alone %.1f×)", bs.Center/m.Center, server),
		fmt.Sprintf("≥ 10× server alone; ≤ 20 allocs (%g)", allocs.Center),
		yes(server >= 10)+" "+yes(allocs.Center <= 20))
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
	ratio, cores := bs.Center/m.Center, one.Center/m.Center
	t.row("tools/call pipelined over an in-process pipe (32 requests a write)",
		fmt.Sprintf("%s a call; on one core %s", dur(m), dur(one)),
		ba.label+" "+dur(bs),
		fmt.Sprintf("%.1f× (%.2f× its one-core rate)", ratio, cores),
		"≥ 3× the best anchor; ≥ 1.6× mcpgen's one-core rate",
		yes(bs.ok() && ratio >= 3)+" "+yes(one.ok() && cores >= 1.6))
}

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
// Session.Handle's tools/call and for the stdio row's.
func (r *results) callLogRows(t *table) {
	for _, row := range []struct{ title, off, on string }{
		{"tools/call through Session.Handle, call log on against off", "CallHandle/log=off", "CallHandle/log=on"},
		{"stdio tools/call one in flight, call log on against off", "Call/impl=mcpgen", "Call/impl=mcpgen-logged"},
	} {
		off, on := r.get(row.off, "sec/op"), r.get(row.on, "sec/op")
		if !off.ok() || !on.ok() {
			continue
		}
		cost := on.Center/off.Center - 1
		t.row(row.title, fmt.Sprintf("on %s, off %s", dur(on), dur(off)), "—",
			fmt.Sprintf("%+.0f%%", cost*100), "the log costs ≤ 10%", yes(cost <= 0.10))
	}
}

// httpName is the name of a BenchmarkHTTP result.
func httpName(impl, client string, clients int) string {
	return fmt.Sprintf("HTTP/impl=%s/client=%s/clients=%d", impl, client, clients)
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
			ratio, ratios := m.Center/bs.Center, fmt.Sprintf("%.1f×", m.Center/bs.Center)
			var notes []string
			if f := r.get(floor, "calls/s"); f.ok() && bs.ok() {
				// Time per call above the bare POST's, as the pipe row's
				// "server alone"; none when a median is within the floor's.
				mine, theirs := 1/m.Center-1/f.Center, 1/bs.Center-1/f.Center
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
			t.row(fmt.Sprintf("tools/call over Streamable HTTP, %s, raw client, %s", impl.mode, c.label),
				r.httpFigures(name),
				fmt.Sprintf("%s %s; bare POST %s", ba.label, r.httpFigures(ba.name), r.httpFigures(floor)),
				ratios,
				fmt.Sprintf("≥ %g× the best anchor's calls/s; p99 < its p50 (%s against %s)", c.goal, ns(p99.Center*1e9), ns(anchorP50.Center*1e9)),
				yes(bs.ok() && ratio >= c.goal)+" "+yes(anchorP50.ok() && p99.Center < anchorP50.Center))
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
		ratio := bs.Center / m.Center
		t.row(fmt.Sprintf("tools/list, 1,000 tools, principal's view %s", c.view), dur(m), ba.label+" "+dur(bs),
			fmt.Sprintf("%.0f×", ratio), fmt.Sprintf("≥ %g×", c.goal), yes(ratio >= c.goal))
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
	t.row("bankpayments resident memory (stdio, 100,000 calls)",
		fmt.Sprintf("idle %s, after 10,000 calls %s, after 100,000 %s", kib(idle.Center), kib(warm.Center), kib(after.Center)),
		"—", fmt.Sprintf("growth after warm-up %s", kib(growth.Center)),
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
