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
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

func main() {
	bin := flag.String("test", "", "the test binary (go test -c)")
	bench := flag.String("bench", "", "the benchmarks to run, as -test.bench takes them")
	benchtime := flag.String("benchtime", "1s", "each row's -test.benchtime")
	count := flag.Int("count", 10, "how many times each row runs, each in a process of its own")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchrun -test BINARY -bench PATTERN [-benchtime D] [-count N] [-- ARGS for the binary]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *bin == "" || *bench == "" || *count < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*bin, *bench, *benchtime, *count, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

func run(bin, pattern, benchtime string, count int, extra []string) error {
	rows, err := list(bin, pattern, extra)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no benchmark matches %q", pattern)
	}
	fmt.Fprintf(os.Stderr, "benchrun: %d rows × %d runs, one process each\n", len(rows), count)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for round := range count {
		for i := range rows {
			row := rows[(i+round)%len(rows)]
			args := append([]string{"-test.run", "^$", "-test.bench", exact(row), "-test.benchtime", benchtime, "-test.count", "1", "-test.benchmem"}, extra...)
			cmd := exec.Command(bin, args...)
			cmd.Stderr = os.Stderr
			res, err := cmd.Output()
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
