package main

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestPerRoundPairsTheRounds: a ratio is taken round by round, so a slow
// round slows both sides of it; the ratio of the medians would not see
// that the two rows moved together.
func TestPerRoundPairsTheRounds(t *testing.T) {
	r := &results{samples: map[string]map[string][]float64{
		// The anchor is always ten times mcpgen, in rounds of very
		// different speeds.
		"anchor": {"sec/op": {10, 20, 40, 10, 80, 10, 20, 10, 30}},
		"mcpgen": {"sec/op": {1, 2, 4, 1, 8, 1, 2, 1, 3}},
		// A row run fewer times than the others.
		"other": {"sec/op": {3, 5}},
	}}
	q := r.perRound("sec/op", quotient, "anchor", "mcpgen")
	if q.center != 10 || !q.interval || q.lo != 10 || q.hi != 10 {
		t.Errorf("paired: %+v, want 10× with an interval of 10 to 10", q)
	}
	// Unpaired, the medians' ratio, with no interval (20 over 4).
	q = r.perRound("sec/op", quotient, "anchor", "other")
	if want := 5.0; q.interval || math.Abs(q.center-want) > 1e-9 {
		t.Errorf("unpaired: %+v, want %g with no interval", q, want)
	}
	// The figure may be any function of the rows' results: the
	// differences are 9, 18, 36, 9, 72, 9, 18, 9 and 27.
	q = r.perRound("sec/op", func(v ...float64) float64 { return v[0] - v[1] }, "anchor", "mcpgen")
	if q.center != 18 {
		t.Errorf("difference: %+v, want a median of 18", q)
	}
}

func TestRatioTimes(t *testing.T) {
	for _, tc := range []struct {
		q      ratio
		digits int
		want   string
	}{
		{ratio{center: 9.96, lo: 9.02, hi: 10.31, interval: true}, 2, "9.96× (9.02–10.31)"},
		{ratio{center: 511.4, lo: 480, hi: 531, interval: true}, 0, "511× (480–531)"},
		{ratio{center: 1.5}, 1, "1.5×"},
	} {
		if got := tc.q.times(tc.digits); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.q, got, tc.want)
		}
	}
}

// TestCallLogRowsSayWhatWasDropped: a row with the log on that dropped
// records says how many, and misses the goal of writing every one.
func TestCallLogRowsSayWhatWasDropped(t *testing.T) {
	for _, tc := range []struct {
		lost []float64
		want string
	}{
		{[]float64{0, 0, 0}, "records dropped 0.00% | — | +9% | the log costs ≤ 10%; every record written | ✓ ✓ |"},
		{[]float64{0.01, 0.005, 0.02}, "records dropped 1.00% | — | +9% | the log costs ≤ 10%; every record written | ✓ ✗ |"},
	} {
		r := &results{samples: map[string]map[string][]float64{
			"CallHandle/log=off": {"sec/op": {1e-6, 2e-6, 1e-6}},
			"CallHandle/log=on":  {"sec/op": {1.09e-6, 2.18e-6, 1.09e-6}, "lost/op": tc.lost},
		}}
		var out strings.Builder
		r.callLogRows(&table{w: &out})
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("lost %v: the row is\n%s\nwant it to hold %q", tc.lost, out.String(), tc.want)
		}
	}
}

// TestCallLogRowsJudgeInTurn: with the log on and off measured in turn on
// one session, the row's verdict is that measure's (the median of the
// processes' costs), and the rows of processes of their own are shown
// beside it; the records dropped are the in-turn run's.
func TestCallLogRowsJudgeInTurn(t *testing.T) {
	r := &results{samples: map[string]map[string][]float64{
		"CallHandle/log=off": {"sec/op": {1e-6, 2e-6, 1e-6}},
		"CallHandle/log=on":  {"sec/op": {1.2e-6, 2.4e-6, 1.2e-6}, "lost/op": {0.5, 0.5, 0.5}},
		"CallLog/path=handle": {
			"cost-%":           {4, 6, 5, 3, 7, 5},
			"log-on-sec/call":  {5.2e-6, 5.2e-6, 5.2e-6, 5.2e-6, 5.2e-6, 5.2e-6},
			"log-off-sec/call": {5e-6, 5e-6, 5e-6, 5e-6, 5e-6, 5e-6},
			"lost/op":          {0, 0, 0, 0, 0, 0},
		},
		"CallLog/path=stdio": {"cost-%": {11, 12, 13}, "lost/op": {0, 0, 0}},
	}}
	var out strings.Builder
	r.callLogRows(&table{w: &out})
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(rows) != 2 {
		t.Fatalf("the rows are\n%s", out.String())
	}
	for i, want := range []string{
		"on 1.20 µs, off 1.00 µs; in turn on one session: on 5.20 µs, off 5.00 µs; records dropped 0.00% | — | +5% (+3% to +7%) in turn; +20% in processes of their own | the log costs ≤ 10%, in turn; every record written | ✓ ✓ |",
		"| +12% in turn | the log costs ≤ 10%, in turn; every record written | ✗ ✓ |",
	} {
		if !strings.Contains(rows[i], want) {
			t.Errorf("row %d is\n%s\nwant it to hold %q", i, rows[i], want)
		}
	}
}

// TestPipelinedRowReadsTwoSessions: the pipelined row holds one session's
// rate against the one-core rate and, when measured, two sessions' rate
// as well: the ceiling the machine gives both cores.
func TestPipelinedRowReadsTwoSessions(t *testing.T) {
	samples := map[string]map[string][]float64{
		"CallPipelined/impl=mcpgen":          {"sec/op": {2e-6, 2e-6, 2e-6}},
		"CallPipelined/impl=mcpgen-one-core": {"sec/op": {3e-6, 3e-6, 3e-6}},
		"CallPipelined/impl=mcp-go":          {"sec/op": {30e-6, 30e-6, 30e-6}},
	}
	var out strings.Builder
	(&results{samples: samples}).pipelinedRow(&table{w: &out})
	if row := out.String(); !strings.Contains(row, "(1.50× its one-core rate)") || strings.Contains(row, "two sessions") {
		t.Errorf("without two sessions the row is\n%s", row)
	}
	samples["CallPipelined/impl=mcpgen-two-sessions"] = map[string][]float64{"sec/op": {1.5e-6, 1.5e-6, 1.5e-6}}
	out.Reset()
	(&results{samples: samples}).pipelinedRow(&table{w: &out})
	if row := out.String(); !strings.Contains(row, "(1.50× its one-core rate; two sessions 2.00×)") || !strings.Contains(row, "two sessions 1.50 µs") {
		t.Errorf("with two sessions the row is\n%s", row)
	}
}

// TestStallLine: the machine's stalls are the median share of the runs
// and the longest of all of them, alone and with every core busy.
func TestStallLine(t *testing.T) {
	all := "CoreStalls/busy=" + strconv.Itoa(runtime.NumCPU())
	r := &results{samples: map[string]map[string][]float64{
		"CoreStalls/busy=1": {"stalled-%": {0.1, 0.3, 0.2}, "longest-ms": {1.1, 1.3, 1.2}},
		all:                 {"stalled-%": {1.5, 2.5, 3.5}, "longest-ms": {4, 100.2, 3}},
	}}
	var out strings.Builder
	r.stallLine(&out)
	want := "lost 0.20% of its time to gaps over 100 µs alone (the longest 1.3 ms), 2.50% with every core busy (the longest 100.2 ms)"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the line is\n%s\nwant it to hold %q", out.String(), want)
	}
}

// TestPipelinedServerRow: the server-alone row shows each configuration's
// time a call and the ratios the benchmark took in each run, summarised
// over the runs, and no verdict; it is absent when not run.
func TestPipelinedServerRow(t *testing.T) {
	var out strings.Builder
	(&results{samples: map[string]map[string][]float64{}}).pipelinedServerRow(&table{w: &out})
	if out.Len() != 0 {
		t.Errorf("not run, the row is\n%s", out.String())
	}
	r := &results{samples: map[string]map[string][]float64{
		"PipelinedServer": {
			"one-session-sec/call":  {2000e-9, 2100e-9, 1900e-9, 2000e-9, 2050e-9, 1950e-9},
			"one-core-sec/call":     {2400e-9, 2500e-9, 2300e-9, 2400e-9, 2450e-9, 2350e-9},
			"two-sessions-sec/call": {1300e-9, 1400e-9, 1200e-9, 1300e-9, 1350e-9, 1250e-9},
			"one-session-x":         {1.2, 1.21, 1.19, 1.2, 1.22, 1.18},
			"two-sessions-x":        {1.8, 1.85, 1.75, 1.8, 1.9, 1.7},
		},
	}}
	r.pipelinedServerRow(&table{w: &out})
	row := out.String()
	for _, want := range []string{"one session 2.00 µs a call; on one core 2.40 µs; two sessions 1.30 µs", "one session 1.20× (", "two sessions 1.80× (", "| — |"} {
		if !strings.Contains(row, want) {
			t.Errorf("the row is\n%s\nwant it to hold %q", row, want)
		}
	}
}

// TestPipelinedInTurnRow: the in-turn row shows both configurations' time
// a call and the ratio summarised over the runs, the controls' ratios when
// they ran, and no verdict; it is absent when not run.
func TestPipelinedInTurnRow(t *testing.T) {
	var out strings.Builder
	(&results{samples: map[string]map[string][]float64{}}).pipelinedInTurnRow(&table{w: &out})
	if out.Len() != 0 {
		t.Errorf("not run, the row is\n%s", out.String())
	}
	samples := map[string][]float64{
		"both-cores-sec/call": {2000e-9, 2100e-9, 1900e-9, 2000e-9, 2050e-9, 1950e-9},
		"one-core-sec/call":   {2800e-9, 2900e-9, 2700e-9, 2800e-9, 2850e-9, 2750e-9},
		"both-cores-x":        {1.4, 1.45, 1.35, 1.4, 1.5, 1.3},
	}
	row := func() string {
		out.Reset()
		(&results{samples: map[string]map[string][]float64{"PipelinedInTurn": samples}}).pipelinedInTurnRow(&table{w: &out})
		return out.String()
	}
	without := row()
	for _, want := range []string{"both cores 2.00 µs a call; on one core 2.80 µs |", "| 1.40× (", "one-core rate |", "| — |"} {
		if !strings.Contains(without, want) {
			t.Errorf("without the controls, the row is\n%s\nwant it to hold %q", without, want)
		}
	}
	samples["two-sessions-sec/call"] = []float64{1600e-9, 1700e-9, 1500e-9, 1600e-9, 1650e-9, 1550e-9}
	samples["two-sessions-x"] = []float64{1.7, 1.75, 1.65, 1.7, 1.8, 1.6}
	samples["work-x"] = []float64{1.9, 1.95, 1.85, 1.9, 2.0, 1.8}
	with := row()
	for _, want := range []string{"on one core 2.80 µs; two sessions 1.60 µs |", "| 1.40× (", "; two sessions 1.70× (", "; independent work on both cores 1.90× (", "| — |"} {
		if !strings.Contains(with, want) {
			t.Errorf("with the controls, the row is\n%s\nwant it to hold %q", with, want)
		}
	}
}

// The memory row gives the growth's median, and its interval once there
// are runs enough for one; the goal is judged by the median.
func TestMemoryRow(t *testing.T) {
	row := func(growth ...float64) string {
		var out strings.Builder
		r := &results{samples: map[string]map[string][]float64{"ResidentMemory": {
			"idle-KiB": {14000}, "warm-KiB": {19500}, "after-KiB": {19700}, "growth-KiB": growth,
		}}}
		r.memoryRow(&table{w: &out})
		return out.String()
	}
	if got := row(156, 484, 684); !strings.Contains(got, "growth after warm-up 484 KiB |") || !strings.Contains(got, "| ✗ |") {
		t.Errorf("three runs: %s", got)
	}
	got := row(184, 128, 72, 536, 268, 128)
	if !strings.Contains(got, "growth after warm-up 156 KiB (") || !strings.Contains(got, "| ✓ |") {
		t.Errorf("six runs: %s", got)
	}
}
