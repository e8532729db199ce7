package schema_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// pydanticDecimal is the pattern pydantic v2 writes for a Decimal field
// with two decimal places: digits with at most one point, and not made of
// signs and points alone.
const pydanticDecimal = `^(?!^[-+.]*$)[+-]?0*\d*\.?\d{0,2}0*$`

func TestLeadingLookaheadsMatchAsTheyWouldInECMAScript(t *testing.T) {
	cases := []struct {
		pattern string
		matches map[string]bool
	}{
		{pydanticDecimal, map[string]bool{
			"12.50": true, "-3": true, "+0.1": true, "007": true, ".5": true,
			"": false, "-": false, "+.": false, ".": false, "1.234": false, "1.2.3": false, "abc": false,
		}},
		{`^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$`, map[string]bool{
			"Passw0rdX": true, "password1": false, "PASSWORD1": false, "Pass1": false, "Password": false,
		}},
		// The look-ahead looks at the whole string from position 0, and
		// the rest is unanchored at the end: "ab" then anything.
		{`^(?!abc)ab`, map[string]bool{"abd": true, "ab": true, "abcd": false, "xab": false}},
		// Parentheses, escapes and classes inside a look-ahead.
		{`^(?=(a|b)\)[)(])x?`, map[string]bool{"a))": true, "b)(x": true, "a)": false, "c))": false}},
		// A group holding an alternative after the look-ahead.
		{`^(?!x)(?:a|b)$`, map[string]bool{"a": true, "b": true, "x": false, "ab": false}},
	}
	for _, c := range cases {
		p, err := schema.CompilePattern(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		for s, want := range c.matches {
			if got := p.MatchString(s); got != want {
				t.Errorf("%s matching %q = %v, want %v", c.pattern, s, got, want)
			}
		}
	}
}

func TestPatternsRE2CannotRunAreRefusedWithAHint(t *testing.T) {
	cases := map[string]string{
		`a(?=b)`:           "look-aheads are taken only at the start of a pattern anchored with ^",
		`(?=a)b`:           "look-aheads are taken only at the start of a pattern anchored with ^",
		`^(?=a)b(?!c)`:     "after its leading look-aheads",
		`(?<=a)b`:          "look-behind is not taken",
		`^(?!a)b|c`:        "top-level |",
		`^(?=a(?<=b))c`:    "look-ahead (?=a(?<=b)) does not compile",
		`^(?=a`:            "does not compile with Go's regexp",
		`(a`:               "does not compile with Go's regexp",
		`^(?=[a)b`:         "does not compile with Go's regexp",
		`^(?!a)[b|c)`:      "does not compile",
		`^(?!a)(b|c)|[|]d`: "top-level |",
	}
	for src, want := range cases {
		_, err := schema.CompilePattern(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CompilePattern(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}

func TestLookaheadPatternsReachValidationAndAreServedAsWritten(t *testing.T) {
	doc := `{"type":"object","properties":{"amount":{"type":"string","pattern":` + quote(pydanticDecimal) + `}}}`
	s, err := schema.ParseJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	errs, err := s.ValidateJSON([]byte(`{"amount":"+."}`))
	if err != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "does not match pattern") {
		t.Fatalf("errors = %v, want one pattern error", errs)
	}
	if errs, _ := s.ValidateJSON([]byte(`{"amount":"10.25"}`)); len(errs) != 0 {
		t.Fatalf("a decimal was refused: %v", errs)
	}
	if got := s.Property("amount").Pattern().Source; got != pydanticDecimal {
		t.Fatalf("source = %q, want it as written", got)
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

func FuzzCompilePattern(f *testing.F) {
	for _, s := range []string{pydanticDecimal, `^(?=.*\d).{8,}$`, `^(?!a)(b|c)`, `^(?=[)]`, `^(?=\)`, `a|b`} {
		f.Add(s, "ab1")
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		p, err := schema.CompilePattern(src)
		if err != nil {
			return
		}
		got := p.MatchString(s) // must not panic
		// Where RE2 takes the pattern as it is, it is RE2's answer.
		if re, err := regexp.Compile(src); err == nil && re.MatchString(s) != got {
			t.Fatalf("%q matching %q = %v, RE2 says %v", src, s, got, !got)
		}
	})
}
