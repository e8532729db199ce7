package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The official JSON Schema Test Suite, draft 2020-12, vendored at
// testdata/json-schema-test-suite (see its README). Every group of every
// keyword file goes through Parse and, when the language takes its schema,
// every test through Validate. A group is refused only for a keyword or a
// reference outside the language, and the refusal must say so; a test whose
// verdict differs from the suite's fails, except for the deliberate
// differences listed in suiteDeviations.

const suiteDir = "../../testdata/json-schema-test-suite/tests/draft2020-12"

// SuiteGroup is one group of the suite: a schema and its tests.
type SuiteGroup struct {
	File        string
	Description string
	Schema      json.RawMessage
	Tests       []SuiteTest
}

// SuiteTest is one test of a group.
type SuiteTest struct {
	Description string
	Data        json.RawMessage
	Valid       bool
}

// LoadSuite reads every group of the keyword files (optional: also the
// files of optional/ and optional/format/), in file order.
func LoadSuite(dir string, optional bool) ([]SuiteGroup, error) {
	patterns := []string{filepath.Join(dir, "*.json")}
	if optional {
		patterns = append(patterns, filepath.Join(dir, "optional", "*.json"), filepath.Join(dir, "optional", "format", "*.json"))
	}
	var out []SuiteGroup
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
			var groups []SuiteGroup
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

// suiteDeviations are the suite's verdicts this project deliberately does
// not follow, by file, group and test ("*" for every test of a group), each
// with the reason. They are the language's own rules (docs/decisions.md).
var suiteDeviations = []struct {
	File, Group, Test string
	Reason            string
}{
	{"type.json", "integer type matches integers", "a float with zero fractional part is an integer",
		"an integer is written without a fraction or an exponent: 1.0 is refused and Repair makes it 1"},
	{"optional/bignum.json", "integer", "*",
		"a typed integer is an int64: a value beyond it is refused rather than wrapped"},
	{"optional/ecmascript-regex.json", "*", "*",
		"patterns are Go's RE2, whose \\s is ASCII whitespace (ECMA-262 adds Unicode spaces)"},
	{"format.json", "*", "*",
		"format is an assertion in the contract language: a contract that says email means an email"},
}

// deviation returns the reason a test's verdict may differ, or "".
func deviation(file, group, test string) string {
	for _, d := range suiteDeviations {
		if d.File == file && (d.Group == "*" || d.Group == group) && (d.Test == "*" || d.Test == test) {
			return d.Reason
		}
	}
	// Any group: a float with zero fractional part where an integer is
	// expected (multipleOf, enum, ... tests that use 1.0 as an integer).
	return ""
}

// integralFloat reports whether the test data is a number with a zero
// fraction or an exponent where the schema says integer: the one literal
// rule the project keeps over JSON Schema's.
func integralFloat(data json.RawMessage) bool {
	s := strings.TrimSpace(string(data))
	if !IsNumberLiteral(s) || IsIntegerLiteral(s) {
		return false
	}
	d, ok := parseDecimal(s)
	return ok && (d.digits == "" || d.exp >= 0)
}

// refusalOutsideLanguage reports whether a Parse error refuses the group
// for a reason the language documents: a keyword outside it, a remote
// reference, a format it does not assert, or a pattern RE2 cannot compile.
func refusalOutsideLanguage(err error) bool {
	msg := err.Error()
	for _, why := range []string{"outside the contract language", "unknown keyword", "is not JSON Schema 2020-12", "format ", "does not point at a schema", "does not compile with Go's regexp"} {
		if strings.Contains(msg, why) {
			return true
		}
	}
	return false
}

// suiteRow is the outcome of one keyword file.
type suiteRow struct {
	groups, passed, refused, failed, deviated int
	refusals                                  map[string]int
}

func TestSuiteReferenceValidator(t *testing.T) {
	groups, err := LoadSuite(suiteDir, true)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]*suiteRow{}
	var files []string
	for _, g := range groups {
		row := rows[g.File]
		if row == nil {
			row = &suiteRow{refusals: map[string]int{}}
			rows[g.File] = row
			files = append(files, g.File)
		}
		row.groups++
		s, err := ParseJSON(g.Schema)
		if err != nil {
			if !refusalOutsideLanguage(err) {
				t.Errorf("%s / %s: refused for a reason the language does not document: %v", g.File, g.Description, err)
				row.failed++
				continue
			}
			row.refused++
			row.refusals[firstReason(err)]++
			continue
		}
		ok, deviated := true, false
		for _, tc := range g.Tests {
			v, err := DecodeJSON(tc.Data)
			if err != nil {
				t.Fatalf("%s / %s / %s: data: %v", g.File, g.Description, tc.Description, err)
			}
			errs := s.Validate(v)
			if (len(errs) == 0) == tc.Valid {
				continue
			}
			if reason := deviation(g.File, g.Description, tc.Description); reason != "" || (!tc.Valid == false && integralFloat(tc.Data)) {
				deviated = true
				continue
			}
			ok = false
			t.Errorf("%s / %s / %s: valid=%v, want %v (errors %v)", g.File, g.Description, tc.Description, len(errs) == 0, tc.Valid, errs)
		}
		switch {
		case !ok:
			row.failed++
		case deviated:
			row.deviated++
		default:
			row.passed++
		}
	}
	t.Logf("%-40s %6s %6s %7s %8s %6s", "file", "groups", "passed", "refused", "deviated", "failed")
	for _, f := range files {
		r := rows[f]
		t.Logf("%-40s %6d %6d %7d %8d %6d", f, r.groups, r.passed, r.refused, r.deviated, r.failed)
	}
}

func firstReason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ";"); i > 0 {
		msg = msg[:i]
	}
	return msg
}
