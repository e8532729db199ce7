package schema_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonsuite"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestSuiteReferenceValidator runs the official JSON Schema Test Suite,
// draft 2020-12 with its optional files, through the reference validator.
// A group is refused only for a reason the language documents (a keyword
// or reference outside it, a format it does not assert), and every verdict
// is the suite's but for the deliberate differences jsonsuite lists. The
// table (go test -v -run TestSuiteReferenceValidator) shows each keyword
// file: groups passed, refused, deviated, failed.
func TestSuiteReferenceValidator(t *testing.T) {
	groups, err := jsonsuite.Load("../../"+jsonsuite.Dir, true)
	if err != nil {
		t.Fatal(err)
	}
	var table jsonsuite.Table
	for _, g := range groups {
		s, err := schema.ParseJSON(g.Schema)
		if err != nil {
			if !jsonsuite.Documented(err) {
				t.Errorf("%s / %s: refused for a reason the language does not document: %v", g.File, g.Description, err)
				table.Add(g.File, jsonsuite.Failed)
				continue
			}
			table.Add(g.File, jsonsuite.Refused)
			continue
		}
		outcome := jsonsuite.Passed
		for _, tc := range g.Tests {
			v, err := schema.DecodeJSON(tc.Data)
			if err != nil {
				t.Fatalf("%s / %s / %s: data: %v", g.File, g.Description, tc.Description, err)
			}
			errs := s.Validate(v)
			o := jsonsuite.Judge(g, tc, errs == nil)
			outcome = max(outcome, o)
			if o == jsonsuite.Failed {
				t.Errorf("%s / %s / %s: valid=%v, want %v (errors %v)", g.File, g.Description, tc.Description, errs == nil, tc.Valid, errs)
			}
		}
		table.Add(g.File, outcome)
	}
	var b strings.Builder
	table.Write(&b)
	t.Logf("the reference validator on the JSON Schema Test Suite, draft 2020-12:\n%s", b.String())
	if table.Count(jsonsuite.Passed) < 300 {
		t.Errorf("only %d groups passed", table.Count(jsonsuite.Passed))
	}
}
