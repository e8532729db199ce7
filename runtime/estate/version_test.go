package estate

import (
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, s := range []string{"0.0.0", "1.0.0", "1.2.3", "10.20.30"} {
		v, err := ParseVersion(s)
		if err != nil {
			t.Errorf("ParseVersion(%q): %v", s, err)
			continue
		}
		if v.String() != s || v.IsZero() {
			t.Errorf("ParseVersion(%q) = %q (zero %v)", s, v, v.IsZero())
		}
	}
	v := MustParseVersion("4.5.6")
	if v.Major() != 4 || v.Minor() != 5 || v.Patch() != 6 {
		t.Errorf("4.5.6 parts = %d %d %d", v.Major(), v.Minor(), v.Patch())
	}
	for _, s := range []string{"", "1", "1.0", "v1.0.0", "01.0.0", "1.00.0", " 1.0.0", "1.0.0 ",
		"1.0.0-rc.1", "1.0.0+build.5", "1.0.0.0", "1.x.0", "-1.0.0", "a.b.c"} {
		_, err := ParseVersion(s)
		if err == nil {
			t.Errorf("ParseVersion(%q) accepted", s)
			continue
		}
		if !strings.Contains(err.Error(), `"`+s+`"`) {
			t.Errorf("ParseVersion(%q) error does not name the text: %v", s, err)
		}
	}
}

func TestMustParseVersionPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParseVersion(\"1.0\") did not panic")
		}
	}()
	MustParseVersion("1.0")
}

func TestVersionCompare(t *testing.T) {
	// Ascending; numeric, not lexical (1.10.0 > 1.9.0).
	order := []string{"0.0.1", "0.1.0", "1.0.0", "1.0.1", "1.9.0", "1.10.0", "2.0.0", "10.0.0"}
	for i, a := range order {
		for j, b := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := MustParseVersion(a).Compare(MustParseVersion(b)); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
	var zero Version
	if !zero.IsZero() || zero.String() != "" {
		t.Errorf("zero Version: IsZero %v, String %q", zero.IsZero(), zero)
	}
	if zero.Compare(MustParseVersion("0.0.0")) != -1 || MustParseVersion("0.0.0").Compare(zero) != 1 || zero.Compare(zero) != 0 {
		t.Error("the zero Version must sort before every valid version")
	}
}

func TestConstraint(t *testing.T) {
	tests := []struct {
		constraint string
		match      []string
		noMatch    []string
	}{
		{"^1.0.0", []string{"1.0.0", "1.0.1", "1.9.9"}, []string{"0.9.9", "2.0.0"}},
		{"^1.2.0", []string{"1.2.0", "1.3.0"}, []string{"1.1.9", "2.0.0"}},
		{"~1.2.0", []string{"1.2.0", "1.2.7"}, []string{"1.1.0", "1.3.0"}},
		{"1.0.0", []string{"1.0.0"}, []string{"1.0.1", "0.9.0", "1.1.0"}},
		{"*", []string{"0.0.0", "1.0.0", "99.0.0"}, nil},
		{">=1.2, <2", []string{"1.2.0", "1.9.0"}, []string{"1.1.0", "2.0.0"}},
		{"^1.0.0 || ^3.0.0", []string{"1.5.0", "3.1.0"}, []string{"2.0.0", "4.0.0"}},
		// Major 0: the caret stays within the minor (library semantics).
		{"^0.2.3", []string{"0.2.3", "0.2.9"}, []string{"0.2.2", "0.3.0", "1.0.0"}},
		// A pre-release bound: release versions compare normally.
		{">=1.0.0-rc.1", []string{"1.0.0", "2.0.0"}, []string{"0.9.0"}},
	}
	for _, tt := range tests {
		c, err := ParseConstraint(tt.constraint)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", tt.constraint, err)
			continue
		}
		if c.String() != tt.constraint {
			t.Errorf("String() = %q, want %q", c.String(), tt.constraint)
		}
		for _, v := range tt.match {
			if !c.Check(MustParseVersion(v)) {
				t.Errorf("%q should accept %s", tt.constraint, v)
			}
		}
		for _, v := range tt.noMatch {
			if c.Check(MustParseVersion(v)) {
				t.Errorf("%q should refuse %s", tt.constraint, v)
			}
		}
		if c.Check(Version{}) {
			t.Errorf("%q accepted the zero Version", tt.constraint)
		}
	}
	for _, s := range []string{"", "latest", "^", "1.0.0.0", ">>1.0.0"} {
		if _, err := ParseConstraint(s); err == nil {
			t.Errorf("ParseConstraint(%q) accepted", s)
		}
	}
	var all Constraint
	if !all.Check(MustParseVersion("7.1.2")) || all.String() != "*" {
		t.Errorf("zero Constraint: Check 7.1.2 = %v, String %q", all.Check(MustParseVersion("7.1.2")), all)
	}
}
