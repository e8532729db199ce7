package check

import (
	"fmt"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/gen/manifest"
)

// lintCases is the lint's corpus: for every rule, contracts that break it
// and near misses that must not, each one property's schema. A new rule
// comes with its cases (TestLintCorpusCoversEveryRule insists).
var lintCases = []struct {
	schema string
	want   []string // the rules that fire, in order; none for a sound schema
}{
	{`{type: string, minimum: 3}`, []string{LintTypeMismatch}},
	{`{type: integer, minLength: 1, pattern: '^1'}`, []string{LintTypeMismatch, LintTypeMismatch}},
	{`{type: array, properties: {a: {type: string}}}`, []string{LintTypeMismatch}},
	{`{type: [string, integer], minimum: 3, maxLength: 2}`, nil},
	{`{minimum: 3}`, nil}, // no type: the bound applies to the numbers among the values
	{`{type: integer, minimum: 20000, maximum: 10000}`, []string{LintBoundsUnsatisfiable}},
	{`{type: integer, minimum: 5, maximum: 5}`, nil},
	{`{type: number, exclusiveMinimum: 5, maximum: 5}`, []string{LintBoundsUnsatisfiable}},
	{`{type: number, minimum: 5, exclusiveMaximum: 5}`, []string{LintBoundsUnsatisfiable}},
	{`{type: string, minLength: 4, maxLength: 3}`, []string{LintBoundsUnsatisfiable}},
	{`{type: array, minItems: 5, maxItems: 2}`, []string{LintBoundsUnsatisfiable}},
	{`{type: object, minProperties: 2, maxProperties: 1}`, []string{LintBoundsUnsatisfiable}},
	{`{type: string, enum: []}`, []string{LintEnumEmpty}},
	{`{type: string, enum: [AED, 7]}`, []string{LintEnumType}},
	{`{type: number, enum: [1, 2.5]}`, nil},
	{`{type: integer, enum: [1, "2"]}`, []string{LintEnumType}},
	{`{type: string, enum: [a, b], const: c}`, []string{LintConstOutsideEnum}},
	{`{type: string, enum: [a, b], const: b}`, nil},
	{`{type: integer, minimum: 1, default: 0}`, []string{LintDefaultInvalid}},
	{`{type: integer, minimum: 1, default: 1}`, nil},
	{`{type: string, enum: [a, b], default: c}`, []string{LintDefaultInvalid}},
	{`{type: string, maxLength: 3, examples: [abc, abcd]}`, []string{LintExampleInvalid}},
	{`{type: array, items: {type: integer, minimum: 2, maximum: 1}}`, []string{LintBoundsUnsatisfiable}},
	{`{anyOf: [{type: string, minimum: 1}, {type: integer}]}`, []string{LintTypeMismatch}},
}

func lintVersion(t *testing.T, property string) *manifest.Version {
	t.Helper()
	doc := fmt.Sprintf(`name: t.lint
versions:
  - version: 1.0.0
    description: Lint.
    sideEffect: read
    dataClassification: internal
    owner: team
    inputSchema:
      type: object
      properties:
        p: %s
`, property)
	est, err := manifest.LoadFS(fstest.MapFS{"t.lint.yaml": {Data: []byte(doc)}}, "m")
	if err != nil {
		t.Fatalf("%s: %v", property, err)
	}
	return est.Tools[0].Versions[0]
}

func TestLint(t *testing.T) {
	for _, c := range lintCases {
		fs := Lint(lintVersion(t, c.schema))
		var got []string
		for _, f := range fs {
			got = append(got, f.Rule)
			// Every finding points into the manifest, at or past the
			// property's line (line 11), and is an error.
			if f.Pos.File != "m/t.lint.yaml" || f.Pos.Line < 11 || f.Pos.Col < 1 || f.Level != Error {
				t.Errorf("%s: %s at %v, level %s", c.schema, f.Rule, f.Pos, f.Level)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.schema, got, c.want)
		}
	}
}

func TestLintCorpusCoversEveryRule(t *testing.T) {
	for rule := range lintHelp {
		if !slices.ContainsFunc(lintCases, func(c struct {
			schema string
			want   []string
		}) bool {
			return slices.Contains(c.want, rule)
		}) {
			t.Errorf("lint rule %s has no case in lintCases", rule)
		}
	}
}
