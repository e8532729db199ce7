package schema

import (
	"fmt"
	"regexp"
	"strings"
)

// Pattern is a compiled `pattern` (or a patternProperties key), unanchored,
// as JSON Schema's regular expressions are.
//
// Patterns run on Go's regexp package (RE2): matching takes time linear in
// the length of the string, whatever the pattern, so no argument can make a
// server backtrack for seconds. RE2 has no look-around. One form is common
// enough in real contracts to be taken anyway: look-aheads at the very
// start of an anchored pattern, which is how pydantic writes a decimal
// (`^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$`) and how password rules are written
// (`^(?=.*\d)(?=.*[a-z]).{8,}$`). A look-ahead at position 0 is a separate
// match at position 0, so
//
//	^(?=A)(?!B)REST
//
// matches s exactly when ^(?:A) matches s, ^(?:B) does not, and ^(?:REST)
// does: three RE2 matches, still linear. A look-ahead anywhere else, or a
// top-level alternative after the look-aheads (whose other branches the
// anchor would not cover), is refused with the position of the pattern.
type Pattern struct {
	// Source is the regular expression as written.
	Source string
	re     *regexp.Regexp
	ahead  []lookahead // leading look-aheads, each matched at position 0
	msg    string      // MsgPattern(Source), built once
	// fixed, when set, matches what re matches without the regexp
	// machine (see fixedShape).
	fixed *fixedShape
}

// lookahead is one leading (?=…) or (?!…), compiled anchored at the start.
type lookahead struct {
	re   *regexp.Regexp
	want bool // true for (?=…), false for (?!…)
}

// Message is the error of a string the pattern does not match.
func (p *Pattern) Message() string { return p.msg }

// MatchString reports whether s contains a match of the pattern.
func (p *Pattern) MatchString(s string) bool {
	for _, a := range p.ahead {
		if a.re.MatchString(s) != a.want {
			return false
		}
	}
	if p.fixed != nil {
		return p.fixed.match(s)
	}
	return p.re.MatchString(s)
}

// CompilePattern compiles a JSON Schema regular expression as the contract
// language takes it (see Pattern).
func CompilePattern(src string) (*Pattern, error) {
	if heads, rest, ok := splitLookaheads(src); ok {
		return compileLookaheads(src, heads, rest)
	}
	re, err := regexp.Compile(src)
	if err != nil {
		hint := ""
		if strings.Contains(src, "(?=") || strings.Contains(src, "(?!") {
			hint = "; look-aheads are taken only at the start of a pattern anchored with ^"
		} else if strings.Contains(src, "(?<=") || strings.Contains(src, "(?<!") {
			hint = "; look-behind is not taken: RE2 matches in linear time and has none"
		}
		return nil, fmt.Errorf("pattern %q does not compile with Go's regexp (RE2): %v%s", src, err, hint)
	}
	return &Pattern{Source: src, re: re, msg: MsgPattern(src), fixed: fixedShapeOf(src)}, nil
}

func compileLookaheads(src string, heads []string, rest string) (*Pattern, error) {
	if hasTopLevelAlternative(rest) {
		return nil, fmt.Errorf("pattern %q: the part after its look-aheads has a top-level |, which the leading ^ would not anchor; group it: ^(?=...)(?:a|b)", src)
	}
	p := &Pattern{Source: src, msg: MsgPattern(src)}
	for _, h := range heads {
		re, err := regexp.Compile("^(?:" + h[3:len(h)-1] + ")")
		if err != nil {
			return nil, fmt.Errorf("pattern %q: look-ahead %s does not compile with Go's regexp (RE2): %v", src, h, err)
		}
		p.ahead = append(p.ahead, lookahead{re: re, want: h[2] == '='})
	}
	re, err := regexp.Compile("^(?:" + rest + ")")
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not compile with Go's regexp (RE2) after its leading look-aheads: %v; look-aheads are taken only at the start", src, err)
	}
	p.re = re
	return p, nil
}

// splitLookaheads splits "^(?=A)(?!B)REST" into ["(?=A)", "(?!B)"] and
// "REST". ok is false unless the pattern starts with ^ and at least one
// look-ahead whose parentheses balance.
func splitLookaheads(src string) (heads []string, rest string, ok bool) {
	if !strings.HasPrefix(src, "^") {
		return nil, "", false
	}
	i := 1
	for strings.HasPrefix(src[i:], "(?=") || strings.HasPrefix(src[i:], "(?!") {
		end := closingParen(src, i)
		if end < 0 {
			return nil, "", false
		}
		heads = append(heads, src[i:end+1])
		i = end + 1
	}
	return heads, src[i:], len(heads) > 0
}

// closingParen returns the index of the parenthesis closing the group that
// opens at src[open], skipping escapes and character classes, or -1.
func closingParen(src string, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(src, i)
			if i < 0 {
				return -1
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// classEnd returns the index of the ] closing the character class that
// opens at src[open], or -1. A ] right after [ or [^ is a literal, as RE2
// reads it.
func classEnd(src string, open int) int {
	i := open + 1
	if i < len(src) && src[i] == '^' {
		i++
	}
	if i < len(src) && src[i] == ']' {
		i++
	}
	for ; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return -1
}

// hasTopLevelAlternative reports whether s has a | outside every group and
// character class.
func hasTopLevelAlternative(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if i = classEnd(s, i); i < 0 {
				return false // RE2 reports the unclosed class
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}
