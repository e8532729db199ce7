package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// classifyCase is one row of testdata/classify_cases.json. The expected
// class and reasons were written by hand from the rule "does the new
// contract accept everything the old one accepted?", not produced by the
// code under test.
type classifyCase struct {
	Description string          `json:"description"`
	Direction   string          `json:"direction"`
	Old         json.RawMessage `json:"old"`
	New         json.RawMessage `json:"new"`
	Class       Class           `json:"class"`
	Changes     []struct {
		Rule  string `json:"rule"`
		Path  string `json:"path"`
		Where string `json:"where"` // checked where given: inside $defs
		Class Class  `json:"class"`
	} `json:"changes"`
}

func TestClassifyCases(t *testing.T) {
	data, err := os.ReadFile("testdata/classify_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Cases []classifyCase }
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 60 {
		t.Fatalf("the table has %d cases, want at least 60", len(table.Cases))
	}
	for _, tc := range table.Cases {
		t.Run(tc.Description, func(t *testing.T) {
			old, err := ParseJSON(tc.Old)
			if err != nil {
				t.Fatalf("old: %v", err)
			}
			new, err := ParseJSON(tc.New)
			if err != nil {
				t.Fatalf("new: %v", err)
			}
			dir := Input
			if tc.Direction == "output" {
				dir = Output
			}
			got := Classify(old, new, dir)
			var want, have []string
			for _, c := range tc.Changes {
				want = append(want, fmt.Sprintf("%s %s %s", c.Class, c.Rule, c.Path))
			}
			for i, c := range got.Changes {
				have = append(have, fmt.Sprintf("%s %s %s", c.Class, c.Rule, c.Path))
				if i < len(tc.Changes) && tc.Changes[i].Where != "" && c.Where.String() != tc.Changes[i].Where {
					t.Errorf("%s at %s is located at %s, want %s", c.Rule, c.Path, c.Where, tc.Changes[i].Where)
				}
				if c.Text == "" {
					t.Errorf("%s at %s has no text", c.Rule, c.Path)
				}
			}
			if got.Class != tc.Class || strings.Join(have, "\n") != strings.Join(want, "\n") {
				t.Errorf("class %s, want %s\nchanges:\n  %s\nwant:\n  %s", got.Class, tc.Class,
					strings.Join(have, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// TestClassifyRequiredAsymmetry: adding a required property is
// breaking, removing one is not; narrowing an enum is breaking, widening one
// is not. Each pair is classified in both orders.
func TestClassifyRequiredAsymmetry(t *testing.T) {
	pairs := []struct {
		name          string
		a, b          string
		forward, back Class
	}{
		{"required", `{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}`,
			`{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}`, Major, Minor},
		{"enum", `{"enum":["AED","USD","EUR"]}`, `{"enum":["AED"]}`, Major, Minor},
		{"bound", `{"type":"integer"}`, `{"type":"integer","minimum":1}`, Major, Minor},
	}
	for _, p := range pairs {
		a, b := MustParseJSON(p.a), MustParseJSON(p.b)
		if got := Classify(a, b, Input).Class; got != p.forward {
			t.Errorf("%s: a→b is %s, want %s", p.name, got, p.forward)
		}
		if got := Classify(b, a, Input).Class; got != p.back {
			t.Errorf("%s: b→a is %s, want %s", p.name, got, p.back)
		}
		// The output direction is the mirror image.
		if got := Classify(a, b, Output).Class; got != p.back {
			t.Errorf("%s output: a→b is %s, want %s", p.name, got, p.back)
		}
	}
}

func TestClassNames(t *testing.T) {
	for c := None; c <= Major; c++ {
		got, ok := ParseClass(c.String())
		if !ok || got != c {
			t.Errorf("ParseClass(%q) = %v, %v", c.String(), got, ok)
		}
	}
	if _, ok := ParseClass("huge"); ok {
		t.Error("ParseClass accepted an unknown name")
	}
	b, _ := json.Marshal(Diff{Class: Minor})
	if !strings.Contains(string(b), `"class":"minor"`) {
		t.Errorf("Diff marshals as %s", b)
	}
}
