// Package jsonsuite reads the official JSON Schema Test Suite (draft
// 2020-12, vendored at testdata/json-schema-test-suite) for the tests that
// run it: through the reference validator (runtime/schema) and through
// generated decoders (internal/jsonsuite/decoders). It holds what both
// need: the groups, the refusals the language documents, the suite
// verdicts the project deliberately does not follow, and the table of
// results per keyword file.
package jsonsuite

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Group is one group of the suite: a schema and its tests.
type Group struct {
	// File is the keyword file, relative to the draft's directory
	// ("ref.json", "optional/format/date.json").
	File        string
	Description string
	Schema      json.RawMessage
	Tests       []Test
}

// Test is one test of a group.
type Test struct {
	Description string
	Data        json.RawMessage
	Valid       bool
}

// Dir is the draft's directory, relative to a directory two levels below
// the repository's root (where go test runs a package's tests).
const Dir = "testdata/json-schema-test-suite/tests/draft2020-12"

// Load reads every group of the keyword files of the draft directory dir
// and, with optional, of optional/ and optional/format/, in file order.
func Load(dir string, optional bool) ([]Group, error) {
	patterns := []string{filepath.Join(dir, "*.json")}
	if optional {
		patterns = append(patterns, filepath.Join(dir, "optional", "*.json"), filepath.Join(dir, "optional", "format", "*.json"))
	}
	var out []Group
	for _, pat := range patterns {
		files, err := filepath.Glob(pat)
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var groups []Group
			if err := json.Unmarshal(data, &groups); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			rel, _ := filepath.Rel(dir, f)
			for i := range groups {
				groups[i].File = filepath.ToSlash(rel)
			}
			out = append(out, groups...)
		}
	}
	return out, nil
}

// deviations are the suite's verdicts this project deliberately does not
// follow, by file, group and test ("*" for all), each with the reason: the
// language's own rules (docs/decisions.md).
var deviations = []struct {
	file, group, test string
	reason            string
}{
	{"type.json", "integer type matches integers", "a float with zero fractional part is an integer",
		"an integer is written without a fraction or an exponent: 1.0 is refused, and Repair makes it 1"},
	{"optional/bignum.json", "integer", "*",
		"a typed integer is an int64: a value beyond it is refused rather than wrapped"},
	{"optional/ecmascript-regex.json", "*", "*",
		`patterns are Go's RE2, whose \s is ASCII whitespace (ECMA-262 adds Unicode spaces)`},
	{"format.json", "*", "*",
		"format is an assertion in the contract language: a contract that says email means an email"},
}

// Deviation returns why the verdict of a test may differ from the suite's,
// or "" when it must not. A number with a zero fraction or an exponent
// given where the suite expects an integer is the language's integer rule
// in any file.
func Deviation(file, group, test string, data json.RawMessage, valid bool) string {
	for _, d := range deviations {
		if d.file == file && (d.group == "*" || d.group == group) && (d.test == "*" || d.test == test) {
			return d.reason
		}
	}
	if valid && integralNotInteger(data) {
		return deviations[0].reason
	}
	return ""
}

// Judge is the outcome of one test whose data a validator found valid or
// not: Passed when that is the suite's verdict, Deviated when it differs
// for a documented reason (see Deviation), and Failed otherwise.
func Judge(g Group, tc Test, valid bool) Outcome {
	switch {
	case valid == tc.Valid:
		return Passed
	case Deviation(g.File, g.Description, tc.Description, tc.Data, tc.Valid) != "":
		return Deviated
	}
	return Failed
}

// integralNotInteger reports whether data is a number with an integral
// value but a fraction or an exponent (1.0, 1e308).
func integralNotInteger(data json.RawMessage) bool {
	s := strings.TrimSpace(string(data))
	if !schema.IsNumberLiteral(s) || schema.IsIntegerLiteral(s) {
		return false
	}
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mant, "-"), ".")
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		return true
	}
	// A fraction an exponent shifts into the integer part: 1.5e1.
	n := 0
	fmt.Sscan(exp, &n)
	return n >= len(frac) && whole != ""
}

// Documented reports whether a Parse error refuses a group for a reason
// the language documents: a keyword outside it, a reference out of the
// document, a format it does not assert, a pattern RE2 cannot compile.
func Documented(err error) bool {
	msg := err.Error()
	for _, why := range []string{"outside the contract language", "unknown keyword", "is not JSON Schema 2020-12",
		"not one the contract language asserts", "does not compile with Go's regexp", "leaves this document", "does not point at a schema"} {
		if strings.Contains(msg, why) {
			return true
		}
	}
	return false
}

// Outcome is what became of one group.
type Outcome int

const (
	Passed   Outcome = iota // every test's verdict is the suite's
	Refused                 // the schema is outside the language, as documented
	Deviated                // a verdict differs, for a reason in the deviations
	Failed                  // a verdict differs without one
)

// Table counts outcomes per keyword file, in the order files are met.
type Table struct {
	files []string
	rows  map[string]*[4]int
}

// Add counts one group's outcome.
func (t *Table) Add(file string, o Outcome) {
	if t.rows == nil {
		t.rows = map[string]*[4]int{}
	}
	if t.rows[file] == nil {
		t.rows[file] = new([4]int)
		t.files = append(t.files, file)
	}
	t.rows[file][o]++
}

// Count is the number of groups of every file with outcome o.
func (t *Table) Count(o Outcome) int {
	n := 0
	for _, r := range t.rows {
		n += r[o]
	}
	return n
}

// Write prints the table: one row per keyword file, then the totals.
func (t *Table) Write(w io.Writer) {
	fmt.Fprintf(w, "%-42s %6s %7s %8s %6s\n", "file", "passed", "refused", "deviated", "failed")
	var total [4]int
	for _, f := range t.files {
		r := t.rows[f]
		fmt.Fprintf(w, "%-42s %6d %7d %8d %6d\n", f, r[Passed], r[Refused], r[Deviated], r[Failed])
		for i := range total {
			total[i] += r[i]
		}
	}
	fmt.Fprintf(w, "%-42s %6d %7d %8d %6d\n", "total", total[Passed], total[Refused], total[Deviated], total[Failed])
}
