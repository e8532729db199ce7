package reliability

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "write the measured figures to testdata/figures.json and render docs/reliability.md from them")

const (
	figuresFile = "testdata/figures.json"
	reportFile  = "../docs/reliability.md"
)

// The areas of the report, in the order it lists them.
var areas = []string{"Bad input", "Fuzzing", "Faults", "Load", "Security"}

// figure is one row of the report: what was tried, how many inputs or
// calls the test made, what it asserts of each, and the command that runs
// it. Count is how many inputs or calls the recording test counted as it
// checked them: each is counted once its own assertions held, so a figure
// never says more than what was checked (and the test fails unless every
// one it sent held). Held is written by hand beside the test's
// assertions: it says what they check, it is not itself measured.
// Command is filled in by record (from the test's name) and by
// measureFuzzTargets.
type figure struct {
	ID      string `json:"id"`
	Area    string `json:"area"`
	Tried   string `json:"tried"`
	Count   int    `json:"count"`
	Unit    string `json:"unit"`
	Held    string `json:"held"`
	Command string `json:"command"`
}

var measured struct {
	sync.Mutex
	rows map[string]figure
}

// record adds a row to this run's figures. A test records only after its
// checks, so a failing test records what it tried but the run fails.
func record(t testing.TB, f figure) {
	t.Helper()
	if !slices.Contains(areas, f.Area) {
		t.Fatalf("figure %s: unknown area %q", f.ID, f.Area)
	}
	test, _, _ := strings.Cut(t.Name(), "/")
	f.Command = "go test ./reliability -run '^" + test + "$'"
	t.Logf("figure %s: %d %s — %s", f.ID, f.Count, f.Unit, f.Held)
	measured.Lock()
	defer measured.Unlock()
	if measured.rows == nil {
		measured.rows = map[string]figure{}
	}
	measured.rows[f.ID] = f // -count=N records the same row N times
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 {
		if err := reconcile(); err != nil {
			fmt.Fprintln(os.Stderr, "reliability figures:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// reconcile compares this run's figures with the committed ones, or with
// -update writes them and renders the report. Runs with -short measure
// smaller counts and are not compared.
func reconcile() error {
	fullRun := flag.Lookup("test.run").Value.String() == ""
	if *update {
		if testing.Short() || !fullRun {
			return errors.New("-update needs a full run: no -short, no -run")
		}
		fuzz, err := measureFuzzTargets()
		if err != nil {
			return err
		}
		rows := append(sortedRows(measured.rows), fuzz...)
		data, err := json.MarshalIndent(rows, "", "\t")
		if err != nil {
			return err
		}
		if err := os.WriteFile(figuresFile, append(data, '\n'), 0o644); err != nil {
			return err
		}
		measured, err := loadMeasured()
		if err != nil {
			return err
		}
		return os.WriteFile(reportFile, render(rows, measured), 0o644)
	}
	if testing.Short() {
		return nil
	}
	committed, err := loadFigures()
	if err != nil {
		return err
	}
	byID := map[string]figure{}
	for _, f := range committed {
		byID[f.ID] = f
	}
	var stale []string
	for id, f := range measured.rows {
		if byID[id] != f {
			stale = append(stale, fmt.Sprintf("%s: measured %+v, committed %+v", id, f, byID[id]))
		}
	}
	if fullRun {
		for _, f := range committed {
			if _, ok := measured.rows[f.ID]; !ok && f.Area != "Fuzzing" {
				stale = append(stale, f.ID+": committed but no longer measured")
			}
		}
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		return fmt.Errorf("%s differs from this run; run `go test ./reliability -update` and commit the result:\n%s",
			figuresFile, strings.Join(stale, "\n"))
	}
	return nil
}

func loadFigures() ([]figure, error) {
	data, err := os.ReadFile(figuresFile)
	if err != nil {
		return nil, err
	}
	var rows []figure
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("%s: %v", figuresFile, err)
	}
	return rows, nil
}

func sortedRows(m map[string]figure) []figure {
	rows := make([]figure, 0, len(m))
	for _, f := range m {
		rows = append(rows, f)
	}
	slices.SortFunc(rows, func(a, b figure) int { return strings.Compare(a.ID, b.ID) })
	return rows
}

// TestReportIsTheRenderingOfTheFigures: the committed report is exactly
// what the committed figures render to.
func TestReportIsTheRenderingOfTheFigures(t *testing.T) {
	if *update || *measure {
		t.Skip("-update and -measure render the report after the run")
	}
	rows, err := loadFigures()
	if err != nil {
		t.Fatal(err)
	}
	measured, err := loadMeasured()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatal(err)
	}
	if want := render(rows, measured); !bytes.Equal(got, want) {
		t.Errorf("%s is not the rendering of %s; run `go test ./reliability -update`", reportFile, figuresFile)
	}
}

// render writes the report: one table per area, rows in figure id order,
// then the measured figures of the built service.
func render(rows []figure, measured measuredRun) []byte {
	var b bytes.Buffer
	b.WriteString(`# Reliability and security

What the server was put through, how many inputs or calls, and what the test checks of each,
with the command that runs it. The tests of [` + "`reliability`" + `](../reliability) and the fuzz targets
record each row in ` + "`reliability/testdata/figures.json`" + `, and this page is rendered from that file by
` + "`go test ./reliability -update`" + ` (do not edit it by hand); ` + "`make test`" + ` fails when a full run of
the package records other rows than the committed ones.

What each column is: **How many** is the number of inputs, calls or requests the test
checked, each counted once its assertions held, and for the fuzz targets the inputs of their
checked-in corpus that ran; **What the test checks** is written beside the
test's assertions and says what they hold each of those to: the test fails if any one is not
answered so. It is a description of the checks, not a measurement; the measured costs are in
[Measured](#measured).

The tests run the bank's generated package (` + "`examples/bankpayments/bank`" + `, the sample estate
of ` + "`manifests/`" + `) with the race detector, on loopback only. Fuzz targets run their seed corpora
in ` + "`make test`" + `; ` + "`make fuzz`" + ` runs each one longer (` + "`FUZZTIME`" + `, 30s by default).
`)
	for _, area := range areas {
		var in []figure
		for _, f := range rows {
			if f.Area == area {
				in = append(in, f)
			}
		}
		if len(in) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n| What was tried | How many | What the test checks | Command |\n|---|---:|---|---|\n", area)
		for _, f := range in {
			fmt.Fprintf(&b, "| %s | %d %s | %s | `%s` |\n", cell(f.Tried), f.Count, f.Unit, cell(f.Held), cell(f.Command))
		}
	}
	if len(measured.Rows) > 0 {
		b.WriteString(`
## Measured

What one caller's requests cost the built service (` + "`examples/bankpayments`" + `, built without the
race detector, on loopback): each figure below is the measure of one run of

` + "```sh\n" + measureCommand + "\n```" + `

with ` + measured.GoVersion + ` on ` + strconv.Itoa(measured.Cores) + ` cores, which writes ` + "`reliability/testdata/measured.json`" + ` and renders this page. Peak RSS is
the process's high-water mark (VmHWM) before and after one request, on a fresh process, the median
of three; CPU time is every thread's (` + "`/proc/PID/task/*/schedstat`" + `). No test asserts these
figures; the tests above hold the behaviour.

| What was measured | Figure |
|---|---|
`)
		for _, m := range measured.Rows {
			fmt.Fprintf(&b, "| %s | %s |\n", cell(m.What), cell(m.Figure))
		}
	}
	b.WriteString(limits)
	return b.Bytes()
}

// limits is what the tests show does not hold, or holds only with help.
const limits = `
## Limits

- **A stdio client must read as it writes.** A session has at most ` + "`Options.MaxInFlight`" + ` requests
  in flight (64 by default) and reads no further until an answer is written. A client that writes
  all its requests before it reads any answer waits forever once the answers fill its pipe; one
  that has that many requests waiting for its own answers (sampling, elicitation) must not send
  another request before it answers them.
- **A handler's deadline is the request's context.** Without ` + "`Options.CallTimeout`" + ` a call has no
  deadline of its own; a handler that ignores its context is answered when the context ends
  (cancellation, shutdown), and keeps its goroutine until it returns. Over HTTP it also keeps its
  connection (the answer says ` + "`Connection: close`" + `, so the client sends nothing more on it) and
  its place among its caller's requests in flight; a graceful shutdown then ends at its
  ` + "`ShutdownTimeout`" + `, every request answered.
- **HTTP shutdown does not cancel requests in flight.** ` + "`mcphttp.Server`" + ` waits up to its
  ` + "`ShutdownTimeout`" + ` for them; a handler that waits on its context is answered within that time
  only with ` + "`Options.CallTimeout`" + ` set below it (as the shutdown test does).
- **HTTP has no write timeout.** A client that never reads holds one connection, its goroutine and
  a place among its caller's requests in flight until it closes the connection or the server
  shuts down.
- **Many callers together can still fill the server.** The bounds on requests in flight, streams
  and sessions keep its memory within a multiple of them, and each caller's share keeps one
  caller from taking every place; callers who flood together, each within their share, make the
  others wait and then answer them 503, as the measured flood shows.

## Reproducing

` + "```sh" + `
make test                          # everything above, with the race detector
make fuzz                          # each fuzz target for FUZZTIME (30s)
go test ./reliability -update      # measure again and re-render this page
` + "```" + `

and, for the measured section, without the race detector (a few minutes on two cores):

` + "```sh\n" + measureCommand + "\n```" + `
`

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// measureFuzzTargets runs the checked-in corpus of every fuzz target the
// Makefile lists and counts its inputs; what each target checks is the
// first paragraph of its doc comment.
func measureFuzzTargets() ([]figure, error) {
	targets, err := makefileFuzzTargets()
	if err != nil {
		return nil, err
	}
	var rows []figure
	for _, target := range targets {
		pkg, fn, _ := strings.Cut(target, ":")
		dir := filepath.Join("..", pkg)
		doc, err := fuzzDoc(dir, fn)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^"+fn+"$", ".")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("%s: %v\n%s", target, err, out)
		}
		seeds := len(regexp.MustCompile(`(?m)^\s*--- PASS: `+fn+`/`).FindAll(out, -1))
		if seeds == 0 {
			return nil, fmt.Errorf("%s: no seed input ran", target)
		}
		rows = append(rows, figure{
			ID: "fuzz " + target, Area: "Fuzzing",
			Tried: "`" + fn + "` (`" + strings.TrimPrefix(pkg, "./") + "`)",
			Count: seeds, Unit: "seed inputs", Held: doc,
			Command: "go test " + pkg + " -run '^" + fn + "$'",
		})
	}
	return rows, nil
}

// makefileFuzzTargets reads FUZZ_TARGETS from the Makefile.
func makefileFuzzTargets() ([]string, error) {
	data, err := os.ReadFile("../Makefile")
	if err != nil {
		return nil, err
	}
	m := regexp.MustCompile(`(?m)^FUZZ_TARGETS = ((?:.*\\\n)*.*)$`).FindSubmatch(data)
	if m == nil {
		return nil, errors.New("Makefile: no FUZZ_TARGETS")
	}
	return strings.Fields(strings.ReplaceAll(string(m[1]), "\\\n", " ")), nil
}

// fuzzDoc returns the first paragraph of the doc comment of the fuzz
// function fn in dir's test files, without the function's own name; for a
// target without one, what running its seeds shows at the least.
func fuzzDoc(dir, fn string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			return "", err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != fn {
				continue
			}
			if fd.Doc == nil {
				return "no seed input made it panic or fail (the target is not documented)", nil
			}
			para, _, _ := strings.Cut(fd.Doc.Text(), "\n\n")
			para = strings.Join(strings.Fields(para), " ")
			return strings.TrimPrefix(para, fn+" "), nil
		}
	}
	return "", fmt.Errorf("%s: no documented %s", dir, fn)
}
