// Command benchrun runs each row of a benchmark in a process of its own.
//
// In one `go test -bench` process the rows run one after another, and a
// row's clock carries what the rows before it left: the collector's work on
// their garbage, a heap grown to their size, caches they filled. Measured
// that way, an anchor whose code had not changed moved by a quarter between
// two test binaries. benchrun lists the leaf benchmarks a pattern selects
// (one quick run), then runs every leaf -count times, each time in a fresh
// process, visiting the leaves in a rotated order each round, and appends
// the results (the usual benchmark format) to standard output for benchstat
// and benchtable.
//
//	benchrun -test ./bench.test -bench '^BenchmarkDecode$' -benchtime 100ms -count 10 > out/decode.txt
//
// With -instructions N it counts instead of timing: each row runs under
// valgrind's cachegrind, at N and at 5N iterations, and the difference of
// the two counts, divided by 4N, is what one iteration executes (what the
// process does besides, its start and the row's setup, is the same in
// both and cancels): instructions/op and mispredicts/op (cachegrind's
// branch predictor, a simple model of a real one). A count does not move
// with the machine's load, so on a machine whose times vary by a quarter
// from one process to the next it tells a change of a few percent in a
// single run of each binary, where timing needs dozens. It is not a
// time: a cache miss or a collection costs time and few instructions.
// The rows run with GOMAXPROCS=1 and, unless -gogc says otherwise,
// GOGC=off, so that no collector runs beside them (its work follows the
// heap and the clock, not the row's code: the allocations, which
// -benchmem counts, say what the row leaves it), asynchronous preemption
// off, and AVX-512 and RDTSCP off (valgrind runs neither). Rows that
// allocate gigabytes in 5N iterations need a smaller N.
//
// With -gogc 100 the collector runs as it would, and the count includes
// what a row's allocations cost it (marking, write barriers), on one
// core, where its share is larger than on two: a change in what a row
// allocates is counted that way. Such a count moves with where the
// collector's cycles fall (one every few tens of thousands of iterations
// of a small row): by up to a fifth between two runs of one binary at
// -instructions 20000, so compare the medians of several.
//
//	benchrun -test ./bench.test -bench '^BenchmarkDecode$/.*/impl=mcpgen$' -instructions 20000 -count 1 > out/instructions.txt
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	bin := flag.String("test", "", "the test binary (go test -c)")
	bench := flag.String("bench", "", "the benchmarks to run, as -test.bench takes them")
	benchtime := flag.String("benchtime", "1s", "each row's -test.benchtime")
	count := flag.Int("count", 10, "how many times each row runs, each in a process of its own")
	instructions := flag.Int("instructions", 0, "count instructions under cachegrind, the difference of N and 5N iterations, instead of timing")
	gogc := flag.String("gogc", "off", "GOGC for the rows -instructions counts: off counts the row's code alone, 100 the collector's work its allocations cause as well")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchrun -test BINARY -bench PATTERN [-benchtime D | -instructions N [-gogc G]] [-count N] [-- ARGS for the binary]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *bin == "" || *bench == "" || *count < 1 || *instructions < 0 {
		flag.Usage()
		os.Exit(2)
	}
	measure := timed(*benchtime)
	if *instructions > 0 {
		if _, err := exec.LookPath("valgrind"); err != nil {
			fmt.Fprintln(os.Stderr, "benchrun: -instructions runs valgrind, which is not installed (Debian: apt-get install valgrind)")
			os.Exit(1)
		}
		measure = counted(*instructions, *gogc)
	}
	if err := run(*bin, *bench, measure, *count, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

// measurement runs one row of bin, selected by the pattern row, and
// returns its results in the benchmark format.
type measurement func(bin, row string, extra []string) ([]byte, error)

// timed runs the row for benchtime, -benchmem on.
func timed(benchtime string) measurement {
	return func(bin, row string, extra []string) ([]byte, error) {
		args := append([]string{"-test.run", "^$", "-test.bench", row, "-test.benchtime", benchtime, "-test.count", "1", "-test.benchmem"}, extra...)
		cmd := exec.Command(bin, args...)
		cmd.Stderr = os.Stderr
		return cmd.Output()
	}
}

// counted runs the row under cachegrind at n and 5n iterations and gives
// the difference per iteration (see the command's doc).
func counted(n int, gogc string) measurement {
	return func(bin, row string, extra []string) ([]byte, error) {
		var at [2]counts
		var name string
		for i, iters := range []int{n, 5 * n} {
			args := append([]string{"--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes", "--cachegrind-out-file=/dev/null",
				bin, "-test.run", "^$", "-test.bench", row, "-test.benchtime", fmt.Sprintf("%dx", iters), "-test.count", "1"}, extra...)
			cmd := exec.Command("valgrind", args...)
			cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC="+gogc, "GODEBUG="+godebug(os.Getenv("GODEBUG")))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			res, err := cmd.Output()
			if err != nil {
				return nil, fmt.Errorf("%v\n%s%s", err, res, stderr.Bytes())
			}
			if at[i], err = parseCounts(stderr.Bytes()); err != nil {
				return nil, err
			}
			ran := names(res)
			if len(ran) != 1 {
				return nil, fmt.Errorf("the run at %d iterations gave %d results, not one:\n%s", iters, len(ran), res)
			}
			name = ran[0]
		}
		d := float64(4 * n)
		line := fmt.Sprintf("%s-1\t%d\t%.1f instructions/op\t%.2f mispredicts/op\n",
			name, 4*n, (at[1].instructions-at[0].instructions)/d, (at[1].mispredicts-at[0].mispredicts)/d)
		return []byte(line), nil
	}
}

// godebug is GODEBUG for a row counted under cachegrind: what it was, with
// asynchronous preemption (a signal), AVX-512 and RDTSCP (which valgrind
// does not run) off.
func godebug(was string) string {
	const ours = "asyncpreemptoff=1,cpu.avx512f=off,cpu.rdtscp=off"
	if was == "" {
		return ours
	}
	return was + "," + ours
}

// counts are what cachegrind counted over a whole process.
type counts struct{ instructions, mispredicts float64 }

var (
	irefs       = regexp.MustCompile(`I\s+refs:\s+([\d,]+)`)
	mispredicts = regexp.MustCompile(`Mispredicts:\s+([\d,]+)`)
)

// parseCounts reads the summary cachegrind writes to standard error.
func parseCounts(summary []byte) (counts, error) {
	var c counts
	for _, f := range []struct {
		re  *regexp.Regexp
		dst *float64
	}{{irefs, &c.instructions}, {mispredicts, &c.mispredicts}} {
		m := f.re.FindSubmatch(summary)
		if m == nil {
			return c, fmt.Errorf("cachegrind wrote no %q count:\n%s", f.re, summary)
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(string(m[1]), ",", ""), 64)
		if err != nil {
			return c, err
		}
		*f.dst = v
	}
	return c, nil
}

func run(bin, pattern string, measure measurement, count int, extra []string) error {
	rows, err := list(bin, pattern, extra)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no benchmark matches %q", pattern)
	}
	fmt.Fprintf(os.Stderr, "benchrun: %d rows × %d runs, each in processes of its own\n", len(rows), count)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for round := range count {
		for i := range rows {
			row := rows[(i+round)%len(rows)]
			res, err := measure(bin, exact(row), extra)
			if err != nil {
				return fmt.Errorf("%s: %v\n%s", row, err, res)
			}
			if _, err := out.Write(res); err != nil {
				return err
			}
		}
		fmt.Fprintf(os.Stderr, "benchrun: round %d of %d done\n", round+1, count)
	}
	return nil
}

// list returns the names of the leaf benchmarks pattern selects, in the
// order they run, from one run of each at one iteration.
func list(bin, pattern string, extra []string) ([]string, error) {
	cmd := exec.Command(bin, append([]string{"-test.run", "^$", "-test.bench", pattern, "-test.benchtime", "1x"}, extra...)...)
	cmd.Stderr = os.Stderr
	res, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing %q: %v\n%s", pattern, err, res)
	}
	return names(res), nil
}

var procs = regexp.MustCompile(`-\d+$`)

// names reads the benchmark names of a result file, without the
// GOMAXPROCS suffix, each once.
func names(res []byte) []string {
	var out []string
	seen := map[string]bool{}
	for line := range bytes.Lines(res) {
		f := strings.Fields(string(line))
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := procs.ReplaceAllString(f[0], "")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// exact is the -test.bench pattern that selects row alone: each element
// of its name anchored and quoted.
func exact(row string) string {
	parts := strings.Split(row, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
