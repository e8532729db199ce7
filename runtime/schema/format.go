package schema

// The string formats the contract language asserts.
//
// JSON Schema 2020-12 makes "format" an annotation by default; a contract
// asserts it, so a contract that says "date" means a date. Each check here is
// a leaf: it looks at one string and says whether it is of the format. The
// generator emits calls to these functions by name, so they depend on nothing
// else in this package.
//
// They run on every tool call, on strings an attacker controls: each is a
// hand-written scanner, linear in len(s) (Punycode decoding is quadratic, but
// only over a label already bounded to 63 octets; IsRegex adds a binary
// search per repeated group name), and none allocates on the common valid
// path, but for the Unicode normalization of non-ASCII host names.
//
// The official JSON Schema Test Suite's optional/format files are the
// reference for what each format means where an RFC leaves room; the test
// file runs them all.

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// StringFormats lists every string format the contract language asserts,
// sorted. A format that is not here is not asserted: the generator refuses
// it rather than let it pass unchecked.
var StringFormats = func() []string {
	names := make([]string, 0, len(stringFormatChecks))
	for name := range stringFormatChecks {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}()

var stringFormatChecks = map[string]func(string) bool{
	"date":                  IsDate,
	"date-time":             IsDateTime,
	"time":                  IsTime,
	"duration":              IsDuration,
	"email":                 IsEmail,
	"idn-email":             IsIDNEmail,
	"hostname":              IsHostname,
	"idn-hostname":          IsIDNHostname,
	"ipv4":                  IsIPv4,
	"ipv6":                  IsIPv6,
	"uri":                   IsURI,
	"uri-reference":         IsURIReference,
	"iri":                   IsIRI,
	"iri-reference":         IsIRIReference,
	"uri-template":          IsURITemplate,
	"uuid":                  IsUUID,
	"regex":                 IsRegex,
	"json-pointer":          IsJSONPointer,
	"relative-json-pointer": IsRelativeJSONPointer,
}

// StringFormat returns the check of a string format the contract language
// asserts, by its name; ok is false for a format it does not assert.
func StringFormat(name string) (check func(string) bool, ok bool) {
	check, ok = stringFormatChecks[name]
	return check, ok
}

// ---------------------------------------------------------------------------
// Dates and times: RFC 3339 section 5.6.

func asciiDigit(c byte) bool { return '0' <= c && c <= '9' }

// dateTwoDigits reads s[i:i+2] as a decimal number; ok is false unless both
// bytes are ASCII digits (RFC 3339 section 5.6 DIGIT is %x30-39 only).
func dateTwoDigits(s string, i int) (n int, ok bool) {
	if i+2 > len(s) || !asciiDigit(s[i]) || !asciiDigit(s[i+1]) {
		return 0, false
	}
	return int(s[i]-'0')*10 + int(s[i+1]-'0'), true
}

// dateDaysIn is the number of days of month m (1-12) of year y in the proleptic
// Gregorian calendar, as RFC 3339 section 5.7 and Appendix C define it.
func dateDaysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// IsDate reports whether s is an RFC 3339 full-date (section 5.6):
// date-fullyear "-" date-month "-" date-mday, with the day checked against
// the month and leap years (section 5.7).
func IsDate(s string) bool {
	return len(s) == 10 && dateFull(s)
}

func dateFull(s string) bool {
	hi, ok1 := dateTwoDigits(s, 0)
	lo, ok2 := dateTwoDigits(s, 2)
	m, ok3 := dateTwoDigits(s, 5)
	d, ok4 := dateTwoDigits(s, 8)
	if !ok1 || !ok2 || !ok3 || !ok4 || s[4] != '-' || s[7] != '-' {
		return false
	}
	return 1 <= m && m <= 12 && 1 <= d && d <= dateDaysIn(hi*100+lo, m)
}

// IsTime reports whether s is an RFC 3339 full-time (section 5.6):
// partial-time time-offset, the offset required. "T" and "Z" may be lower
// case (section 5.6, NOTE). A leap second (second 60) is valid only where the
// time, moved to UTC by its offset, is 23:59:60, as section 5.7 allows it
// only at the end of a UTC day.
func IsTime(s string) bool {
	h, ok1 := dateTwoDigits(s, 0)
	m, ok2 := dateTwoDigits(s, 3)
	sec, ok3 := dateTwoDigits(s, 6)
	if !ok1 || !ok2 || !ok3 || s[2] != ':' || s[5] != ':' || h > 23 || m > 59 || sec > 60 {
		return false
	}
	i := 8
	if i < len(s) && s[i] == '.' { // time-secfrac = "." 1*DIGIT
		i++
		j := i
		for i < len(s) && asciiDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	if i >= len(s) {
		return false // time-offset is required
	}
	offset := 0 // minutes east of UTC
	switch s[i] {
	case 'Z', 'z':
		i++
	case '+', '-':
		oh, ok1 := dateTwoDigits(s, i+1)
		om, ok2 := dateTwoDigits(s, i+4)
		if !ok1 || !ok2 || s[i+3] != ':' || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if s[i] == '-' {
			offset = -offset
		}
		i += 6
	default:
		return false
	}
	if i != len(s) {
		return false
	}
	if sec == 60 {
		utc := ((h*60+m-offset)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

// IsDateTime reports whether s is an RFC 3339 date-time (section 5.6):
// full-date "T" full-time, "T" in either case (section 5.6, NOTE); the
// leap-second rule is that of IsTime.
func IsDateTime(s string) bool {
	return len(s) > 11 && dateFull(s[:10]) && (s[10] == 'T' || s[10] == 't') && IsTime(s[11:])
}

// IsDuration reports whether s is a duration of RFC 3339 Appendix A:
//
//	duration = "P" (dur-date / dur-time / dur-week)
//	dur-date = (dur-day / dur-month / dur-year) [dur-time]
//	dur-time = "T" (dur-hour / dur-minute / dur-second)
//
// Each unit takes 1*DIGIT (no sign, no fraction), units come in order
// (Y M D, then H M S), a run of units may skip none in its middle (a year
// with a day needs the month), and weeks stand alone.
func IsDuration(s string) bool {
	if len(s) < 3 || s[0] != 'P' {
		return false
	}
	i := 1
	// number reads 1*DIGIT at i and returns the unit letter after it.
	number := func() (unit byte, ok bool) {
		j := i
		for i < len(s) && asciiDigit(s[i]) {
			i++
		}
		if i == j || i == len(s) {
			return 0, false
		}
		unit = s[i]
		i++
		return unit, true
	}
	if s[i] != 'T' {
		// dur-date or dur-week: the units seen must be a contiguous run of
		// "YMD", or a lone "W".
		const order = "YMD"
		last := -1 // index in order of the last unit seen
		for i < len(s) && s[i] != 'T' {
			unit, ok := number()
			if !ok {
				return false
			}
			if unit == 'W' {
				return last == -1 && i == len(s)
			}
			k := -1
			for n := range len(order) {
				if order[n] == unit {
					k = n
				}
			}
			if k < 0 || (last >= 0 && k != last+1) {
				return false
			}
			last = k
		}
		if i == len(s) {
			return true
		}
	}
	// dur-time: "T" followed by a contiguous run of "HMS".
	i++ // the 'T'
	if i == len(s) {
		return false
	}
	const order = "HMS"
	last := -1
	for i < len(s) {
		unit, ok := number()
		if !ok {
			return false
		}
		k := -1
		for n := range len(order) {
			if order[n] == unit {
				k = n
			}
		}
		if k < 0 || (last >= 0 && k != last+1) {
			return false
		}
		last = k
	}
	return true
}

// ---------------------------------------------------------------------------
// UUID, IP addresses, JSON Pointers.

// hexVals is the value of each hexadecimal digit, in either case, and -1
// for every other byte: a lookup rather than three comparisons, which
// was most of IsUUID's cost (a uuid is 32 digits).
var hexVals = func() (t [256]int8) {
	for c := range t {
		t[c] = -1
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = int8(c - '0')
	}
	for c := byte('a'); c <= 'f'; c++ {
		t[c], t[c-'a'+'A'] = int8(c-'a')+10, int8(c-'a')+10
	}
	return t
}()

// asciiHexVal is the value of the hexadecimal digit c, or -1.
func asciiHexVal(c byte) int { return int(hexVals[c]) }

// asciiHex reports whether c is a hexadecimal digit.
func asciiHex(c byte) bool { return hexVals[c] >= 0 }

// IsUUID reports whether s is the textual form of a UUID (RFC 9562 section
// 4): 8-4-4-4-12 hexadecimal digits in either case. Any version and variant
// nibble is accepted: the format names the syntax, and RFC 9562 section 4.1
// and 4.2 leave values for future use.
func IsUUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	// Every other byte a digit: a dash is let through only where one
	// was checked for.
	const dashes = 1<<8 | 1<<13 | 1<<18 | 1<<23
	for i := range 36 {
		if hexVals[s[i]] < 0 && dashes>>i&1 == 0 {
			return false
		}
	}
	return true
}

// IsIPv4 reports whether s is a dotted-quad IPv4 address, the
// IPv4address of RFC 3986 section 3.2.2 (dec-octet): four decimal numbers
// 0-255 without leading zeros, which some parsers read as octal.
func IsIPv4(s string) bool {
	n, ok := ipv4Prefix(s)
	return ok && n == len(s)
}

// ipv4Prefix reads a dec-octet dotted quad at the start of s and returns its
// length.
func ipv4Prefix(s string) (n int, ok bool) {
	i := 0
	for part := range 4 {
		if part > 0 {
			if i >= len(s) || s[i] != '.' {
				return 0, false
			}
			i++
		}
		j := i
		v := 0
		for i < len(s) && asciiDigit(s[i]) && i-j < 3 {
			v = v*10 + int(s[i]-'0')
			i++
		}
		if i == j || v > 255 || (s[j] == '0' && i-j > 1) {
			return 0, false
		}
	}
	return i, true
}

// IsIPv6 reports whether s is an IPv6 address in a text form of RFC 4291
// section 2.2: eight groups of 1-4 hex digits, one "::" standing for one or
// more zero groups, and an optional dotted quad (IsIPv4) in the last 32 bits.
// A zone ("%eth0") or a prefix length ("/64") is not part of an address.
func IsIPv6(s string) bool {
	groups := 0
	elided := false
	i := 0
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		elided = true
		i = 2
		if i == len(s) {
			return true
		}
	}
	for {
		// A group, or the dotted quad that ends the address.
		j := i
		for i < len(s) && asciiHex(s[i]) && i-j < 5 {
			i++
		}
		if i < len(s) && s[i] == '.' {
			n, ok := ipv4Prefix(s[j:])
			if !ok || j+n != len(s) {
				return false
			}
			groups += 2
			break
		}
		if i == j || i-j > 4 {
			return false
		}
		groups++
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return false
		}
		i++
		if i < len(s) && s[i] == ':' {
			if elided {
				return false
			}
			elided = true
			i++
			if i == len(s) {
				break
			}
		} else if i == len(s) {
			return false // a trailing single colon
		}
		if groups > 8 {
			return false
		}
	}
	if elided {
		return groups <= 7
	}
	return groups == 8
}

// IsJSONPointer reports whether s is a JSON Pointer (RFC 6901 section 3):
// empty, or "/"-prefixed reference tokens in which "~" appears only as the
// escapes "~0" and "~1".
func IsJSONPointer(s string) bool {
	return s == "" || (s[0] == '/' && pointerTokens(s))
}

func pointerTokens(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
				return false
			}
			i++
		}
	}
	return utf8.ValidString(s)
}

// IsRelativeJSONPointer reports whether s is a Relative JSON Pointer of the
// draft that JSON Schema 2020-12 names: a non-negative integer without
// leading zeros, then "#" or a JSON Pointer. (The index manipulation,
// "0+1/x", came in a later draft and is not accepted.)
func IsRelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && asciiDigit(s[i]) {
		i++
	}
	if i == 0 || (s[0] == '0' && i > 1) {
		return false
	}
	rest := s[i:]
	return rest == "#" || IsJSONPointer(rest)
}

// ---------------------------------------------------------------------------
// URIs and IRIs: RFC 3986 section 3 and 4, RFC 3987 section 2.2.

// uriClass bits classify ASCII bytes for the URI grammar of RFC 3986.
const (
	uriUnreserved      = 1 << iota // ALPHA DIGIT "-" "." "_" "~" (section 2.3)
	uriSubDelim                    // "!" "$" "&" "'" "(" ")" "*" "+" "," ";" "=" (section 2.2)
	uriSchemeChar                  // ALPHA DIGIT "+" "-" "." (section 3.1), after the first
	uriTemplateLiteral             // ASCII a URI Template literal takes (RFC 6570 section 2.1)
)

var uriClass = func() (t [128]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= uriUnreserved | uriSchemeChar
		t[c-'a'+'A'] |= uriUnreserved | uriSchemeChar
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= uriUnreserved | uriSchemeChar
	}
	for _, c := range "-._~" {
		t[c] |= uriUnreserved
	}
	for _, c := range "!$&'()*+,;=" {
		t[c] |= uriSubDelim
	}
	for _, c := range "+-." {
		t[c] |= uriSchemeChar
	}
	// Any printable ASCII but SP, DQUOTE, "%" (pct-encoded is scanned on its
	// own), "<", ">", "\", "^", "`", "{", "|", "}"; "'" is taken (see
	// IsURITemplate).
	for c := '!'; c < 0x7F; c++ {
		if !strings.ContainsRune("\"%<>\\^`{|}", c) {
			t[c] |= uriTemplateLiteral
		}
	}
	return t
}()

// iriUCSChar reports whether r is a ucschar of RFC 3987 section 2.2, the
// non-ASCII characters an IRI may hold anywhere a URI holds unreserved.
func iriUCSChar(r rune) bool {
	switch {
	case 0xA0 <= r && r <= 0xD7FF, 0xF900 <= r && r <= 0xFDCF, 0xFDF0 <= r && r <= 0xFFEF:
		return true
	case 0xE1000 <= r && r <= 0xEFFFD:
		return true
	case 0x10000 <= r && r <= 0xDFFFD:
		return r&0xFFFF <= 0xFFFD // each plane but its last two code points
	}
	return false
}

// iriPrivate reports whether r is an iprivate of RFC 3987 section 2.2,
// allowed in an IRI's query only.
func iriPrivate(r rune) bool {
	return 0xE000 <= r && r <= 0xF8FF || 0xF0000 <= r && r <= 0xFFFFD || 0x100000 <= r && r <= 0x10FFFD
}

// uriScanner scans the parts of a URI or IRI reference; iri admits the
// non-ASCII characters of RFC 3987.
type uriScanner struct {
	s   string
	iri bool
}

// span returns the end of the run of characters at i that are unreserved,
// pct-encoded, sub-delims or in extra (ASCII), or, in an IRI, ucschar (and
// iprivate when private is set). ok is false on a malformed percent-encoding
// or invalid UTF-8.
func (u uriScanner) span(i int, extra string, private bool) (end int, ok bool) {
	s := u.s
	for i < len(s) {
		c := s[i]
		switch {
		case c < utf8.RuneSelf:
			if uriClass[c]&(uriUnreserved|uriSubDelim) != 0 {
				i++
				continue
			}
			if c == '%' {
				if i+2 >= len(s) || !asciiHex(s[i+1]) || !asciiHex(s[i+2]) {
					return i, false
				}
				i += 3
				continue
			}
			if asciiIn(extra, c) {
				i++
				continue
			}
			return i, true
		case u.iri:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return i, false
			}
			if !iriUCSChar(r) && !(private && iriPrivate(r)) {
				return i, true
			}
			i += n
		default:
			return i, true
		}
	}
	return i, true
}

func asciiIn(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// reference checks s as a URI (absolute, or any reference when relative is
// set) of RFC 3986 section 3 / 4.1, or an IRI of RFC 3987 section 2.2.
func (u uriScanner) reference(relative bool) bool {
	s := u.s
	i := 0
	// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
	hasScheme := false
	if len(s) > 0 && s[0] < utf8.RuneSelf && ('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		j := 1
		for j < len(s) && s[j] < utf8.RuneSelf && uriClass[s[j]]&uriSchemeChar != 0 {
			j++
		}
		if j < len(s) && s[j] == ':' {
			hasScheme = true
			i = j + 1
		}
	}
	if !hasScheme && !relative {
		return false
	}
	// hier-part / relative-part.
	if len(s)-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		end, ok := u.authority(i + 2)
		if !ok {
			return false
		}
		i = end
	}
	// The path: segments of pchar separated by "/". Without a scheme and an
	// authority, a first segment must not hold ":" (path-noscheme, section
	// 4.2), or it would read as a scheme.
	firstSegment := i == 0
	for {
		end, ok := u.span(i, ":@", false)
		if !ok {
			return false
		}
		if firstSegment {
			for k := i; k < end; k++ {
				if s[k] == ':' {
					return false
				}
			}
			firstSegment = false
		}
		i = end
		if i < len(s) && s[i] == '/' {
			i++
			continue
		}
		break
	}
	if i < len(s) && s[i] == '?' {
		end, ok := u.span(i+1, ":@/?", true)
		if !ok {
			return false
		}
		i = end
	}
	if i < len(s) && s[i] == '#' {
		end, ok := u.span(i+1, ":@/?", false)
		if !ok {
			return false
		}
		i = end
	}
	return i == len(s)
}

// authority scans authority = [ userinfo "@" ] host [ ":" port ] (RFC 3986
// section 3.2) from i and returns where it ends.
func (u uriScanner) authority(i int) (end int, ok bool) {
	s := u.s
	// userinfo may hold ":" and so cannot be told from host:port until an
	// "@" is seen; neither holds "@", so at most one "@" is in authority.
	j, ok := u.span(i, ":", false)
	if !ok {
		return 0, false
	}
	if j < len(s) && s[j] == '@' {
		i = j + 1
	}
	if i < len(s) && s[i] == '[' {
		// IP-literal = "[" ( IPv6address / IPvFuture ) "]" (section 3.2.2)
		k := i + 1
		for k < len(s) && s[k] != ']' {
			k++
		}
		if k == len(s) || !uriIPLiteral(s[i+1:k]) {
			return 0, false
		}
		i = k + 1
	} else {
		// reg-name = *( unreserved / pct-encoded / sub-delims ), which takes
		// IPv4address too: "999.999.999.999" is a valid reg-name.
		i, ok = u.span(i, "", false)
		if !ok {
			return 0, false
		}
	}
	if i < len(s) && s[i] == ':' {
		i++
		for i < len(s) && asciiDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' {
		return 0, false
	}
	return i, true
}

// uriIPLiteral reports whether s (inside the brackets) is an IPv6address or
// an IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ).
func uriIPLiteral(s string) bool {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		i := 1
		for i < len(s) && asciiHex(s[i]) {
			i++
		}
		if i == 1 || i == len(s) || s[i] != '.' || i+1 == len(s) {
			return false
		}
		for _, c := range []byte(s[i+1:]) {
			if c >= utf8.RuneSelf || (uriClass[c]&(uriUnreserved|uriSubDelim) == 0 && c != ':') {
				return false
			}
		}
		return true
	}
	return IsIPv6(s)
}

// IsURI reports whether s is a URI of RFC 3986 section 3: a scheme, then
// hier-part, query and fragment, all in ASCII with "%" only as pct-encoded.
func IsURI(s string) bool { return uriScanner{s: s}.reference(false) }

// IsURIReference reports whether s is a URI-reference of RFC 3986 section
// 4.1: a URI or a relative reference (the empty string among them).
func IsURIReference(s string) bool { return uriScanner{s: s}.reference(true) }

// IsIRI reports whether s is an IRI of RFC 3987 section 2.2: a URI that may
// also hold ucschar, and iprivate in its query.
func IsIRI(s string) bool { return uriScanner{s: s, iri: true}.reference(false) }

// IsIRIReference reports whether s is an IRI-reference of RFC 3987 section
// 2.2.
func IsIRIReference(s string) bool { return uriScanner{s: s, iri: true}.reference(true) }

// IsURITemplate reports whether s is a URI Template of RFC 6570 section
// 2: literals and {expressions} of level 4. Two choices the RFC leaves:
//
//   - "'" is accepted in a literal. The ABNF of section 2.1 leaves it out,
//     but it is a sub-delims character of RFC 3986 that section 2.1's prose
//     lets through, and the official suite accepts it.
//   - The operators section 2.2 reserves for future extensions
//     ("=" "," "!" "@" "|") are refused: a template using one has no
//     expansion (section 3.2.1).
func IsURITemplate(s string) bool {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '{':
			end, ok := templateExpression(s, i+1)
			if !ok {
				return false
			}
			i = end
		case c == '%':
			if i+2 >= len(s) || !asciiHex(s[i+1]) || !asciiHex(s[i+2]) {
				return false
			}
			i += 3
		case c < utf8.RuneSelf:
			if uriClass[c]&uriTemplateLiteral == 0 {
				return false
			}
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 || !iriUCSChar(r) && !iriPrivate(r) {
				return false
			}
			i += n
		}
	}
	return true
}

// templateExpression scans an expression of RFC 6570 section 2.2 after its
// "{" and returns the index after its "}":
//
//	expression = "{" [ operator ] variable-list "}"
//	varspec    = varname [ ":" max-length / "*" ]
//	varname    = varchar *( ["."] varchar )
func templateExpression(s string, i int) (end int, ok bool) {
	if i < len(s) && asciiIn("+#./;?&", s[i]) {
		i++
	}
	for {
		// varname
		n := 0
		for {
			if i < len(s) && s[i] == '%' {
				if i+2 >= len(s) || !asciiHex(s[i+1]) || !asciiHex(s[i+2]) {
					return 0, false
				}
				i += 3
			} else if i < len(s) && templateVarchar(s[i]) {
				i++
			} else if n > 0 && i < len(s) && s[i] == '.' {
				i++ // a "." between varchars: a varchar must follow
				n = 0
				continue
			} else {
				break
			}
			n++
		}
		if n == 0 {
			return 0, false
		}
		// modifier-level4
		if i < len(s) && s[i] == '*' {
			i++
		} else if i < len(s) && s[i] == ':' {
			i++
			j := i
			for i < len(s) && asciiDigit(s[i]) {
				i++
			}
			// max-length = %x31-39 0*3DIGIT, a positive integer < 10000
			if i == j || s[j] == '0' || i-j > 4 {
				return 0, false
			}
		}
		if i >= len(s) {
			return 0, false
		}
		switch s[i] {
		case ',':
			i++
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// templateVarchar reports whether c is a varchar of RFC 6570 section 2.3 other
// than pct-encoded: ALPHA / DIGIT / "_".
func templateVarchar(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || asciiDigit(c) || c == '_'
}

// ---------------------------------------------------------------------------
// E-mail addresses: RFC 5321 section 4.1.2, RFC 6531 section 3.3.

// mailAtext reports whether c is an ASCII atext of RFC 5322 section 3.2.3,
// which RFC 5321 section 4.1.2 uses for Atom.
func mailAtext(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || asciiDigit(c) || asciiIn("!#$%&'*+-/=?^_`{|}~", c)
}

// IsEmail reports whether s is a Mailbox of RFC 5321 section 4.1.2:
// Local-part "@" ( Domain / address-literal ). The local part is a
// Dot-string or a Quoted-string of at most 64 octets (section 4.5.3.1.1);
// the domain is a hostname (IsHostname) or an address literal, "[" IPv4 "]"
// or "[IPv6:" IPv6 "]" (section 4.1.3; a General-address-literal needs a
// standardized tag, and none is registered, so it is refused). The whole
// fits a reverse-path of 256 octets with its angle brackets (section
// 4.5.3.1.3).
func IsEmail(s string) bool { return mailIsMailbox(s, false) }

// IsIDNEmail reports whether s is a Mailbox of RFC 6531 section 3.3: as
// IsEmail, but atext and qtextSMTP also take any non-ASCII character
// (UTF8-non-ascii), and a sub-domain may be a U-label. The domain is put in
// NFC before it is checked as an internationalized hostname: RFC 5891
// section 5.2 has a lookup take the domain to NFC, and the official suite
// accepts a domain that is not in NFC. The local part is left as it is.
func IsIDNEmail(s string) bool { return mailIsMailbox(s, true) }

func mailIsMailbox(s string, idn bool) bool {
	if len(s) > 254 || len(s) == 0 {
		return false
	}
	i := 0
	if s[0] == '"' {
		// Quoted-string = DQUOTE *QcontentSMTP DQUOTE
		i = 1
		for {
			if i >= len(s) {
				return false
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			switch {
			case c == '\\': // quoted-pairSMTP = %d92 %d32-126
				if i+1 >= len(s) || s[i+1] < 32 || s[i+1] > 126 {
					return false
				}
				i += 2
			case 32 <= c && c <= 126: // qtextSMTP: %d32-33 / %d35-91 / %d93-126
				i++
			case c >= utf8.RuneSelf && idn:
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && n == 1 {
					return false
				}
				i += n
			default:
				return false
			}
		}
	} else {
		// Dot-string = Atom *("." Atom), Atom = 1*atext
		atomStart := 0
		for i < len(s) && s[i] != '@' {
			c := s[i]
			switch {
			case c == '.':
				if i == atomStart {
					return false
				}
				i++
				atomStart = i
			case mailAtext(c):
				i++
			case c >= utf8.RuneSelf && idn:
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && n == 1 {
					return false
				}
				i += n
			default:
				return false
			}
		}
		if i == atomStart {
			return false
		}
	}
	if i > 64 || i >= len(s) || s[i] != '@' {
		return false
	}
	domain := s[i+1:]
	if len(domain) > 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		lit := domain[1 : len(domain)-1]
		if len(lit) > 5 && lit[0]|0x20 == 'i' && lit[1]|0x20 == 'p' && lit[2]|0x20 == 'v' && lit[3] == '6' && lit[4] == ':' {
			return IsIPv6(lit[5:])
		}
		return IsIPv4(lit)
	}
	if idn {
		return hostDomain(norm.NFC.String(domain), false, true)
	}
	return IsHostname(domain)
}

// ---------------------------------------------------------------------------
// Host names: RFC 1123 section 2.1, and IDNA2008 (RFC 5890-5893).

// IsHostname reports whether s is a host name of RFC 1123 section 2.1:
// dot-separated labels of letters, digits and hyphens, none starting or
// ending with a hyphen, each of 1 to 63 octets, at most 253 octets in all
// (the 255 octets of a name in DNS, RFC 1035 section 2.3.4, less the length
// octets of the first label and of the root). No trailing dot.
//
// A label starting with "xn--" (any case) is an A-label and must be one by
// IDNA2008 (RFC 5890 section 2.3.2.1, RFC 5891 sections 5.3 and 5.4): put
// in lower case, it must decode as Punycode (RFC 3492) to a valid U-label
// (see IsIDNHostname) that encodes back to the same label. So a name whose A-labels decode to
// right-to-left text is held to the Bidi rule of RFC 5893 as a whole.
func IsHostname(s string) bool {
	return hostDomain(s, false, false)
}

// IsIDNHostname reports whether s is an internationalized host name of RFC
// 5890 section 2.3.2.3: labels that are LDH labels (as IsHostname, A-labels
// included) or U-labels, separated by "." or by U+3002, U+FF0E or U+FF61,
// which RFC 3490 section 3.1 counts as dots too. A U-label (RFC 5890
// section 2.3.2.1, RFC 5891 section 4.2) must be
//
//   - in NFC;
//   - made of code points that RFC 5892 section 3 derives as PVALID, or as
//     CONTEXTJ or CONTEXTO with their rule of RFC 5892 Appendix A holding;
//   - without a hyphen at either end or in both the third and fourth
//     positions (RFC 5891 section 4.2.3.1);
//   - without a combining mark first (RFC 5891 section 4.2.3.2);
//   - short enough that its A-label has at most 63 octets;
//
// and if any label holds right-to-left text, every label must satisfy the
// Bidi rule of RFC 5893 section 2. The whole, counted in A-labels, has at
// most 253 octets.
//
// No mapping (RFC 5895) is done: a U-label with an upper-case letter is not
// a U-label. The Unicode data is that of the Go release and of
// golang.org/x/text (norm, cases, bidi), both Unicode 15.0.0; the joining
// types are Unicode 15.0.0's. These checks allocate only on non-ASCII
// labels.
func IsIDNHostname(s string) bool {
	return hostDomain(s, true, true)
}

// hostDomain checks a host name; idnDots admits the dots of RFC 3490
// section 3.1 as separators, and ulabels admits U-labels.
func hostDomain(s string, idnDots, ulabels bool) bool {
	if s == "" {
		return false
	}
	total := -1 // octets of the name in A-labels, with the dots between
	rtl, bidiOK := false, true
	start := 0
	for i := 0; i <= len(s); {
		// Find the end of the label that starts at start.
		sep := 0
		if i < len(s) {
			c := s[i]
			switch {
			case c == '.':
				sep = 1
			case idnDots && c == 0xE3 && i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0x82: // U+3002
				sep = 3
			case idnDots && c == 0xEF && i+2 < len(s) && (s[i+1] == 0xBC && s[i+2] == 0x8E || s[i+1] == 0xBD && s[i+2] == 0xA1): // U+FF0E, U+FF61
				sep = 3
			default:
				i++
				continue
			}
		}
		label := s[start:i]
		var info hostLabel
		if allASCII(label) {
			info = hostLDHLabel(label)
		} else if ulabels {
			info = idnaULabel(label)
		}
		if !info.ok {
			return false
		}
		total += info.alen + 1
		if total > 253 {
			return false
		}
		rtl = rtl || info.rtl
		bidiOK = bidiOK && info.bidiOK
		if i == len(s) {
			break
		}
		i += sep
		start = i
		if i == len(s) {
			return false // a trailing dot: an empty last label
		}
	}
	return total <= 253 && (!rtl || bidiOK)
}

func allASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hostLabel is what hostDomain needs of a label: whether it is valid, the
// length of its A-label form, whether it holds right-to-left text, and
// whether it satisfies the Bidi rule of RFC 5893 section 2.
type hostLabel struct {
	ok, rtl, bidiOK bool
	alen            int
}

// hostLDHLabel checks an ASCII label: LDH, 1 to 63 octets, no hyphen at
// either end (RFC 1123 section 2.1, RFC 952), and a valid A-label if it
// starts with "xn--".
func hostLDHLabel(label string) hostLabel {
	if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return hostLabel{}
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if !('a' <= c|0x20 && c|0x20 <= 'z' || asciiDigit(c) || c == '-') {
			return hostLabel{}
		}
	}
	if len(label) >= 4 && label[0]|0x20 == 'x' && label[1]|0x20 == 'n' && label[2] == '-' && label[3] == '-' {
		return idnaALabel(label)
	}
	// An LDH label is left to right: letters are L, digits EN, "-" ES. In a
	// Bidi domain name it must start with a letter (RFC 5893 section 2,
	// rule 1); it cannot end with a hyphen, so rule 6 holds.
	return hostLabel{ok: true, alen: len(label), bidiOK: 'a' <= label[0]|0x20 && label[0]|0x20 <= 'z'}
}

// idnaMaxULabel bounds the code points of a U-label: its A-label is "xn--", then
// at least one octet per code point, within 63 octets.
const idnaMaxULabel = 59

// idnaALabel checks an A-label (RFC 5891 sections 5.3 and 5.4, RFC 5890
// section 2.3.2.1): the Punycode after "xn--", in lower case, must decode
// to a valid U-label that is not all ASCII and that encodes back to the
// same Punycode.
func idnaALabel(label string) hostLabel {
	// RFC 5891 section 5.3 has an A-label put in lower case first: DNS
	// ignores the case of LDH octets.
	var lower [63]byte
	for i := 4; i < len(label); i++ {
		lower[i-4] = label[i] | 0x20 // LDH octets: |0x20 folds only letters
	}
	var buf [idnaMaxULabel + 4]rune
	runes, ok := punyDecode(string(lower[:len(label)-4]), buf[:0])
	if !ok || len(runes) == 0 || len(runes) > idnaMaxULabel {
		return hostLabel{}
	}
	var enc [64]byte
	again, ok := punyEncode(runes, enc[:0])
	if !ok || len(again) != len(label)-4 {
		return hostLabel{}
	}
	if string(again) != string(lower[:len(label)-4]) {
		return hostLabel{}
	}
	var u [4 * (idnaMaxULabel + 4)]byte
	n := 0
	for _, r := range runes {
		n += utf8.EncodeRune(u[n:], r)
	}
	if !norm.NFC.IsNormal(u[:n]) {
		return hostLabel{}
	}
	info := idnaULabelRunes(runes)
	info.alen = len(label)
	return info
}

// idnaULabel checks a non-ASCII label as a U-label.
func idnaULabel(label string) hostLabel {
	if !utf8.ValidString(label) || !norm.NFC.IsNormalString(label) {
		return hostLabel{}
	}
	var buf [idnaMaxULabel + 1]rune
	runes := buf[:0]
	for _, r := range label {
		if len(runes) == idnaMaxULabel {
			return hostLabel{}
		}
		runes = append(runes, r)
	}
	info := idnaULabelRunes(runes)
	if !info.ok {
		return info
	}
	var enc [64]byte
	a, ok := punyEncode(runes, enc[:0])
	if !ok || len(a)+4 > 63 {
		return hostLabel{}
	}
	info.alen = len(a) + 4
	return info
}

// idnaULabelRunes checks the code points of a U-label (RFC 5891 section
// 4.2.3 and 4.2.4), and the Bidi rule of RFC 5893 section 2 for the label;
// it leaves alen to the caller.
func idnaULabelRunes(r []rune) hostLabel {
	if len(r) == 0 || r[0] == '-' || r[len(r)-1] == '-' || len(r) >= 4 && r[2] == '-' && r[3] == '-' {
		return hostLabel{}
	}
	if unicode.In(r[0], unicode.Mn, unicode.Mc, unicode.Me) {
		return hostLabel{}
	}
	nonASCII := false
	for i, c := range r {
		if c >= utf8.RuneSelf {
			nonASCII = true
		}
		switch idnaProperty(c) {
		case idnaPVALID:
		case idnaCONTEXTJ:
			if !idnaContextJ(r, i) {
				return hostLabel{}
			}
		case idnaCONTEXTO:
			if !idnaContextO(r, i) {
				return hostLabel{}
			}
		default:
			return hostLabel{}
		}
	}
	if !nonASCII {
		return hostLabel{} // an all-ASCII "U-label" is an LDH label in disguise
	}
	rtl, bidiOK := idnaBidiRule(r)
	return hostLabel{ok: true, rtl: rtl, bidiOK: bidiOK}
}

// The IDNA2008 derived property values of RFC 5892 section 2.
const (
	idnaDISALLOWED = iota
	idnaPVALID
	idnaCONTEXTJ
	idnaCONTEXTO
)

// idnaProperty derives the IDNA2008 property of a code point by the rules
// of RFC 5892 section 3, from the Unicode data of the Go release and of
// golang.org/x/text. UNASSIGNED code points come out DISALLOWED: no
// unassigned code point is in LetterDigits.
func idnaProperty(r rune) int {
	// F: Exceptions (RFC 5892 section 2.6).
	switch {
	case r == 0x00DF, r == 0x03C2, r == 0x06FD, r == 0x06FE, r == 0x0F0B, r == 0x3007:
		return idnaPVALID
	case r == 0x00B7, r == 0x0375, r == 0x05F3, r == 0x05F4, r == 0x30FB,
		0x0660 <= r && r <= 0x0669, 0x06F0 <= r && r <= 0x06F9:
		return idnaCONTEXTO
	case r == 0x0640, r == 0x07FA, r == 0x302E, r == 0x302F, 0x3031 <= r && r <= 0x3035, r == 0x303B:
		return idnaDISALLOWED
	}
	// G: BackwardCompatible is empty. K: LDH.
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' {
			return idnaPVALID
		}
		return idnaDISALLOWED
	}
	// H: JoinControl.
	if r == 0x200C || r == 0x200D {
		return idnaCONTEXTJ
	}
	// A: LetterDigits, after B, C, D and I have been taken out.
	if !unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lo, unicode.Nd, unicode.Lm, unicode.Mn, unicode.Mc) {
		return idnaDISALLOWED
	}
	// C: IgnorableProperties (Default_Ignorable_Code_Point; White_Space and
	// Noncharacter_Code_Point are not in LetterDigits).
	if unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
		return idnaDISALLOWED
	}
	// D: IgnorableBlocks: Combining Diacritical Marks for Symbols, Musical
	// Symbols, Ancient Greek Musical Notation.
	if 0x20D0 <= r && r <= 0x20FF || 0x1D100 <= r && r <= 0x1D24F {
		return idnaDISALLOWED
	}
	// I: OldHangulJamo, Hangul_Syllable_Type L, V or T.
	if 0x1100 <= r && r <= 0x11FF || 0xA960 <= r && r <= 0xA97C || 0xD7B0 <= r && r <= 0xD7C6 || 0xD7CB <= r && r <= 0xD7FB {
		return idnaDISALLOWED
	}
	// B: Unstable, toNFKC(toCaseFold(toNFKC(cp))) != cp.
	if idnaUnstable(r) {
		return idnaDISALLOWED
	}
	return idnaPVALID
}

// idnaScratch is the state idnaUnstable needs: a case folder (which may
// not be shared between goroutines) and buffers, pooled because they would
// escape to the heap through golang.org/x/text's interfaces on every call.
type idnaScratch struct {
	fold       cases.Caser
	cp         [utf8.UTFMax]byte
	b1, b2, b3 [64]byte
}

var idnaScratchPool = sync.Pool{New: func() any { return &idnaScratch{fold: cases.Fold()} }}

// idnaUnstable reports whether r changes under
// toNFKC(toCaseFold(toNFKC(r))), the Unstable category of RFC 5892
// section 2.2 (full case folding).
func idnaUnstable(r rune) bool {
	if 0x13A0 <= r && r <= 0x13F5 {
		// Cherokee capitals: since Unicode 8.0 CaseFolding.txt folds the
		// small letters to them, so they are stable; the Fold of
		// golang.org/x/text v0.14.0 maps them the other way.
		return false
	}
	w := idnaScratchPool.Get().(*idnaScratch)
	defer idnaScratchPool.Put(w)
	n := utf8.EncodeRune(w.cp[:], r)
	s1 := norm.NFKC.Append(w.b1[:0], w.cp[:n]...)
	w.fold.Reset()
	m, _, err := w.fold.Transform(w.b2[:], s1, true)
	s2 := w.b2[:m]
	if err != nil {
		s2 = w.fold.Bytes(s1)
	}
	s3 := norm.NFKC.Append(w.b3[:0], s2...)
	return string(s3) != string(w.cp[:n])
}

// idnaContextJ applies the CONTEXTJ rules of RFC 5892 Appendix A.1 and A.2 to
// r[i], a ZERO WIDTH NON-JOINER or JOINER.
func idnaContextJ(r []rune, i int) bool {
	if i > 0 && idnaCombiningClass(r[i-1]) == 9 { // Virama
		return true
	}
	if r[i] == 0x200D {
		return false
	}
	// ZWNJ: (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
	j := i - 1
	for j >= 0 && joiningType(r[j]) == joinT {
		j--
	}
	if j < 0 {
		return false
	}
	if jt := joiningType(r[j]); jt != joinL && jt != joinD {
		return false
	}
	k := i + 1
	for k < len(r) && joiningType(r[k]) == joinT {
		k++
	}
	if k == len(r) {
		return false
	}
	jt := joiningType(r[k])
	return jt == joinR || jt == joinD
}

// idnaContextO applies the CONTEXTO rules of RFC 5892 Appendix A.3 to A.9 to
// r[i].
func idnaContextO(r []rune, i int) bool {
	switch c := r[i]; {
	case c == 0x00B7: // MIDDLE DOT: between two "l"
		return i > 0 && r[i-1] == 'l' && i+1 < len(r) && r[i+1] == 'l'
	case c == 0x0375: // GREEK LOWER NUMERAL SIGN: before Greek
		return i+1 < len(r) && unicode.Is(unicode.Greek, r[i+1])
	case c == 0x05F3, c == 0x05F4: // HEBREW GERESH, GERSHAYIM: after Hebrew
		return i > 0 && unicode.Is(unicode.Hebrew, r[i-1])
	case c == 0x30FB: // KATAKANA MIDDLE DOT: with Hiragana, Katakana or Han
		for _, d := range r {
			if unicode.In(d, unicode.Hiragana, unicode.Katakana, unicode.Han) {
				return true
			}
		}
		return false
	case 0x0660 <= c && c <= 0x0669: // ARABIC-INDIC DIGITS: not with extended ones
		for _, d := range r {
			if 0x06F0 <= d && d <= 0x06F9 {
				return false
			}
		}
		return true
	case 0x06F0 <= c && c <= 0x06F9: // EXTENDED ARABIC-INDIC DIGITS: not with plain ones
		for _, d := range r {
			if 0x0660 <= d && d <= 0x0669 {
				return false
			}
		}
		return true
	}
	return false
}

// idnaCombiningClass is the Canonical_Combining_Class of r.
func idnaCombiningClass(r rune) uint8 {
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	return norm.NFC.Properties(b[:n]).CCC()
}

// idnaBidiRule reports whether the label r holds right-to-left text (a
// character of Bidi class R, AL or AN: RFC 5893 section 1.4), and whether it
// satisfies the six conditions of the Bidi rule of RFC 5893 section 2.
func idnaBidiRule(r []rune) (rtl, ok bool) {
	class := func(c rune) bidi.Class {
		if c < utf8.RuneSelf {
			switch {
			case asciiDigit(byte(c)):
				return bidi.EN
			case c == '-':
				return bidi.ES
			}
			return bidi.L
		}
		p, _ := bidi.LookupRune(c)
		return p.Class()
	}
	first := class(r[0])
	ok = first == bidi.L || first == bidi.R || first == bidi.AL // rule 1
	last := bidi.NSM                                            // the class of the last character that is not NSM
	hasEN, hasAN := false, false
	for _, c := range r {
		k := class(c)
		switch k {
		case bidi.R, bidi.AL:
			rtl = true
			if first == bidi.L {
				ok = false // rule 5
			}
		case bidi.AN:
			rtl, hasAN = true, true
			if first == bidi.L {
				ok = false // rule 5
			}
		case bidi.EN:
			hasEN = true
		case bidi.L:
			if first != bidi.L {
				ok = false // rule 2
			}
		case bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
		default:
			ok = false // rules 2 and 5
		}
		if k != bidi.NSM {
			last = k
		}
	}
	if first == bidi.L {
		ok = ok && (last == bidi.L || last == bidi.EN) // rule 6
	} else {
		ok = ok && (last == bidi.R || last == bidi.AL || last == bidi.EN || last == bidi.AN) && !(hasEN && hasAN) // rules 3, 4
	}
	return rtl, ok
}

// Joining types (Unicode's ArabicShaping.txt) that the ZWNJ rule of RFC
// 5892 Appendix A.1 tells apart.
const (
	joinU = iota // non-joining, and join-causing (C), which the rule ignores
	joinL
	joinD
	joinR
	joinT
)

// joiningType is the Joining_Type of r.
func joiningType(r rune) int {
	lo, hi := 0, len(joiningRanges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch e := joiningRanges[m]; {
		case r < e.lo:
			hi = m
		case r > e.hi:
			lo = m + 1
		default:
			return int(e.jt)
		}
	}
	// Unlisted: Mn, Me and Cf are transparent, but for these few.
	switch {
	case r == 0x1E94B:
		return joinT
	case 0x0600 <= r && r <= 0x0605, r == 0x06DD, r == 0x0890, r == 0x0891, r == 0x08E2, r == 0x180E,
		r == 0x200C, r == 0x200D, 0x2066 <= r && r <= 0x2069, r == 0x110BD, r == 0x110CD:
		return joinU
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return joinT
	}
	return joinU
}

// joiningRanges lists the code points of Joining_Type L, D and R, from
// DerivedJoiningType.txt of Unicode 15.0.0.
var joiningRanges = [...]struct {
	lo, hi rune
	jt     uint8
}{
	{0x0620, 0x0620, joinD}, {0x0622, 0x0625, joinR}, {0x0626, 0x0626, joinD}, {0x0627, 0x0627, joinR},
	{0x0628, 0x0628, joinD}, {0x0629, 0x0629, joinR}, {0x062A, 0x062E, joinD}, {0x062F, 0x0632, joinR},
	{0x0633, 0x063F, joinD}, {0x0641, 0x0647, joinD}, {0x0648, 0x0648, joinR}, {0x0649, 0x064A, joinD},
	{0x066E, 0x066F, joinD}, {0x0671, 0x0673, joinR}, {0x0675, 0x0677, joinR}, {0x0678, 0x0687, joinD},
	{0x0688, 0x0699, joinR}, {0x069A, 0x06BF, joinD}, {0x06C0, 0x06C0, joinR}, {0x06C1, 0x06C2, joinD},
	{0x06C3, 0x06CB, joinR}, {0x06CC, 0x06CC, joinD}, {0x06CD, 0x06CD, joinR}, {0x06CE, 0x06CE, joinD},
	{0x06CF, 0x06CF, joinR}, {0x06D0, 0x06D1, joinD}, {0x06D2, 0x06D3, joinR}, {0x06D5, 0x06D5, joinR},
	{0x06EE, 0x06EF, joinR}, {0x06FA, 0x06FC, joinD}, {0x06FF, 0x06FF, joinD}, {0x0710, 0x0710, joinR},
	{0x0712, 0x0714, joinD}, {0x0715, 0x0719, joinR}, {0x071A, 0x071D, joinD}, {0x071E, 0x071E, joinR},
	{0x071F, 0x0727, joinD}, {0x0728, 0x0728, joinR}, {0x0729, 0x0729, joinD}, {0x072A, 0x072A, joinR},
	{0x072B, 0x072B, joinD}, {0x072C, 0x072C, joinR}, {0x072D, 0x072E, joinD}, {0x072F, 0x072F, joinR},
	{0x074D, 0x074D, joinR}, {0x074E, 0x0758, joinD}, {0x0759, 0x075B, joinR}, {0x075C, 0x076A, joinD},
	{0x076B, 0x076C, joinR}, {0x076D, 0x0770, joinD}, {0x0771, 0x0771, joinR}, {0x0772, 0x0772, joinD},
	{0x0773, 0x0774, joinR}, {0x0775, 0x0777, joinD}, {0x0778, 0x0779, joinR}, {0x077A, 0x077F, joinD},
	{0x07CA, 0x07EA, joinD}, {0x0840, 0x0840, joinR}, {0x0841, 0x0845, joinD}, {0x0846, 0x0847, joinR},
	{0x0848, 0x0848, joinD}, {0x0849, 0x0849, joinR}, {0x084A, 0x0853, joinD}, {0x0854, 0x0854, joinR},
	{0x0855, 0x0855, joinD}, {0x0856, 0x0858, joinR}, {0x0860, 0x0860, joinD}, {0x0862, 0x0865, joinD},
	{0x0867, 0x0867, joinR}, {0x0868, 0x0868, joinD}, {0x0869, 0x086A, joinR}, {0x0870, 0x0882, joinR},
	{0x0886, 0x0886, joinD}, {0x0889, 0x088D, joinD}, {0x088E, 0x088E, joinR}, {0x08A0, 0x08A9, joinD},
	{0x08AA, 0x08AC, joinR}, {0x08AE, 0x08AE, joinR}, {0x08AF, 0x08B0, joinD}, {0x08B1, 0x08B2, joinR},
	{0x08B3, 0x08B8, joinD}, {0x08B9, 0x08B9, joinR}, {0x08BA, 0x08C8, joinD}, {0x1807, 0x1807, joinD},
	{0x1820, 0x1878, joinD}, {0x1887, 0x18A8, joinD}, {0x18AA, 0x18AA, joinD}, {0xA840, 0xA871, joinD},
	{0xA872, 0xA872, joinL}, {0x10AC0, 0x10AC4, joinD}, {0x10AC5, 0x10AC5, joinR}, {0x10AC7, 0x10AC7, joinR},
	{0x10AC9, 0x10ACA, joinR}, {0x10ACD, 0x10ACD, joinL}, {0x10ACE, 0x10AD2, joinR}, {0x10AD3, 0x10AD6, joinD},
	{0x10AD7, 0x10AD7, joinL}, {0x10AD8, 0x10ADC, joinD}, {0x10ADD, 0x10ADD, joinR}, {0x10ADE, 0x10AE0, joinD},
	{0x10AE1, 0x10AE1, joinR}, {0x10AE4, 0x10AE4, joinR}, {0x10AEB, 0x10AEE, joinD}, {0x10AEF, 0x10AEF, joinR},
	{0x10B80, 0x10B80, joinD}, {0x10B81, 0x10B81, joinR}, {0x10B82, 0x10B82, joinD}, {0x10B83, 0x10B85, joinR},
	{0x10B86, 0x10B88, joinD}, {0x10B89, 0x10B89, joinR}, {0x10B8A, 0x10B8B, joinD}, {0x10B8C, 0x10B8C, joinR},
	{0x10B8D, 0x10B8D, joinD}, {0x10B8E, 0x10B8F, joinR}, {0x10B90, 0x10B90, joinD}, {0x10B91, 0x10B91, joinR},
	{0x10BA9, 0x10BAC, joinR}, {0x10BAD, 0x10BAE, joinD}, {0x10D00, 0x10D00, joinL}, {0x10D01, 0x10D21, joinD},
	{0x10D22, 0x10D22, joinR}, {0x10D23, 0x10D23, joinD}, {0x10F30, 0x10F32, joinD}, {0x10F33, 0x10F33, joinR},
	{0x10F34, 0x10F44, joinD}, {0x10F51, 0x10F53, joinD}, {0x10F54, 0x10F54, joinR}, {0x10F70, 0x10F73, joinD},
	{0x10F74, 0x10F75, joinR}, {0x10F76, 0x10F81, joinD}, {0x10FB0, 0x10FB0, joinD}, {0x10FB2, 0x10FB3, joinD},
	{0x10FB4, 0x10FB6, joinR}, {0x10FB8, 0x10FB8, joinD}, {0x10FB9, 0x10FBA, joinR}, {0x10FBB, 0x10FBC, joinD},
	{0x10FBD, 0x10FBD, joinR}, {0x10FBE, 0x10FBF, joinD}, {0x10FC1, 0x10FC1, joinD}, {0x10FC2, 0x10FC3, joinR},
	{0x10FC4, 0x10FC4, joinD}, {0x10FC9, 0x10FC9, joinR}, {0x10FCA, 0x10FCA, joinD}, {0x10FCB, 0x10FCB, joinL},
	{0x1E900, 0x1E943, joinD},
}

// Punycode, RFC 3492 section 5 and 6.
const (
	punyBase        = 36
	punyTMin        = 1
	punyTMax        = 26
	punySkew        = 38
	punyDamp        = 700
	punyInitialBias = 72
	punyInitialN    = 128
	punyMaxInt      = 1<<31 - 1 // RFC 3492 section 6.4: overflow past 32 bits is an error
)

func punyAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}

func punyThreshold(k, bias int) int {
	switch {
	case k <= bias:
		return punyTMin
	case k >= bias+punyTMax:
		return punyTMax
	}
	return k - bias
}

// punyDecode decodes Punycode (RFC 3492 section 6.2) and appends the code
// points to out. Its work is quadratic in len(s), so callers bound s (a
// label has at most 63 octets).
func punyDecode(s string, out []rune) ([]rune, bool) {
	start := 0
	for j := len(s) - 1; j >= 0; j-- {
		if s[j] == '-' {
			for k := range j {
				if s[k] >= utf8.RuneSelf {
					return nil, false
				}
				out = append(out, rune(s[k]))
			}
			start = j + 1
			break
		}
	}
	n, i, bias := punyInitialN, 0, punyInitialBias
	for in := start; in < len(s); {
		oldi, w := i, 1
		for k := punyBase; ; k += punyBase {
			if in >= len(s) {
				return nil, false
			}
			digit := -1
			switch c := s[in] | 0x20; {
			case 'a' <= c && c <= 'z':
				digit = int(c - 'a')
			case '0' <= s[in] && s[in] <= '9':
				digit = int(s[in]-'0') + 26
			}
			in++
			if digit < 0 || digit > (punyMaxInt-i)/w {
				return nil, false
			}
			i += digit * w
			t := punyThreshold(k, bias)
			if digit < t {
				break
			}
			if w > punyMaxInt/(punyBase-t) {
				return nil, false
			}
			w *= punyBase - t
		}
		count := len(out) + 1
		bias = punyAdapt(i-oldi, count, oldi == 0)
		if i/count > punyMaxInt-n {
			return nil, false
		}
		n += i / count
		i %= count
		if n > unicode.MaxRune || 0xD800 <= n && n <= 0xDFFF {
			return nil, false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	return out, true
}

// punyEncode encodes code points as Punycode (RFC 3492 section 6.3),
// appending to out; lower-case digits, as A-labels are written.
func punyEncode(r []rune, out []byte) ([]byte, bool) {
	b := 0
	for _, c := range r {
		if c < punyInitialN {
			out = append(out, byte(c))
			b++
		}
	}
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := punyInitialN, 0, punyInitialBias
	for h < len(r) {
		m := punyMaxInt
		for _, c := range r {
			if int(c) >= n && int(c) < m {
				m = int(c)
			}
		}
		if m-n > (punyMaxInt-delta)/(h+1) {
			return nil, false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, c := range r {
			if int(c) < n {
				delta++
				if delta > punyMaxInt {
					return nil, false
				}
			}
			if int(c) == n {
				q := delta
				for k := punyBase; ; k += punyBase {
					t := punyThreshold(k, bias)
					if q < t {
						break
					}
					out = append(out, punyDigit(t+(q-t)%(punyBase-t)))
					q = (q - t) / (punyBase - t)
				}
				out = append(out, punyDigit(q))
				bias = punyAdapt(delta, h+1, h == b)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return out, true
}

func punyDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// ---------------------------------------------------------------------------
// Regular expressions: ECMA-262 pattern syntax.

// IsRegex reports whether s is a valid ECMA-262 regular expression pattern,
// as a JavaScript engine parses the source of new RegExp(s, "u"): the
// grammar of ECMA-262 section 22.2.1 with the UnicodeMode parameter, and its
// early errors (section 22.2.1.1). The edition followed is ECMAScript 2025,
// so modifier groups "(?i:...)" and a group name used twice in alternatives
// that cannot both match are valid.
//
// Deviations, chosen on purpose:
//
//   - Unicode mode (the "u" flag), not the Annex B grammar that a pattern
//     without flags gets in a web browser. Annex B accepts nearly any
//     string (an unknown escape "\a" reads as "a", a lone "]" or "{" as a
//     character) so "valid" would say little; the official suite expects
//     "\a" to be refused, as Unicode mode does. The "v" flag's class set
//     syntax is not accepted.
//   - Go's regexp/syntax is not used: it refuses what ECMA-262 accepts
//     (lookaround, backreferences, "[]", "[^]", "\cA", "\k<n>") and
//     accepts what ECMA-262 refuses ("(?i)", "(?P<n>", "\z"). So a pattern that IsRegex accepts may still not
//     compile with Go's regexp: this format checks the contract's syntax,
//     it does not promise a Go matcher.
//   - Property names and values in "\p{...}" are those of Unicode 15.0.0
//     (PropertyValueAliases.txt), as the Go release's tables.
//
// The scan is iterative (no recursion on nesting), linear in len(s) but for
// a binary search per repeated group name.
func IsRegex(s string) bool {
	p := regexParser{s: s}
	return p.parse()
}

type regexLevel struct {
	open int // the event at which the group opened
	pm   int // the latest "|" event at this level or any outer one
	kind byte
}

type regexParser struct {
	s       string
	i       int
	groups  int // capturing groups
	maxBack int // the largest decimal back reference
	events  int // "(" and "|" seen so far
	// The open levels, the pattern's own first: in the fixed array while
	// few, so that a pattern of common depth allocates nothing.
	depth    int
	shallow  [8]regexLevel
	deep     []regexLevel
	canQuant bool     // the last term is an atom a quantifier may follow
	refs     []string // names that \k refers to
	// The event at which each group name was last defined: in few (a
	// fixed array, no allocation), then in nameAt.
	few    [4]regexName
	nFew   int
	nameAt map[string]int
}

type regexName struct {
	name string
	at   int
}

// lastName returns the event at which name was last defined, and records
// that it is now defined at event at.
func (p *regexParser) lastName(name string, at int) (prev int, seen bool) {
	for i := range p.nFew {
		if p.few[i].name == name {
			prev = p.few[i].at
			p.few[i].at = at
			return prev, true
		}
	}
	if p.nFew < len(p.few) {
		p.few[p.nFew] = regexName{name, at}
		p.nFew++
		return 0, false
	}
	if p.nameAt == nil {
		p.nameAt = make(map[string]int)
	}
	prev, seen = p.nameAt[name]
	p.nameAt[name] = at
	return prev, seen
}

// hasName reports whether a group is named name.
func (p *regexParser) hasName(name string) bool {
	for i := range p.nFew {
		if p.few[i].name == name {
			return true
		}
	}
	_, ok := p.nameAt[name]
	return ok
}

func (p *regexParser) level(k int) *regexLevel {
	if k < len(p.shallow) {
		return &p.shallow[k]
	}
	return &p.deep[k-len(p.shallow)]
}

func (p *regexParser) push(l regexLevel) {
	if p.depth < len(p.shallow) {
		p.shallow[p.depth] = l
	} else {
		p.deep = append(p.deep[:p.depth-len(p.shallow)], l)
	}
	p.depth++
}

const (
	regexLevelPattern = iota
	regexLevelGroup
	regexLevelLook
)

func (p *regexParser) parse() bool {
	s := p.s
	p.push(regexLevel{open: 0, kind: regexLevelPattern})
	for p.i < len(s) {
		c := s[p.i]
		switch c {
		case '|':
			p.events++
			l := p.level(p.depth - 1)
			l.pm = p.events
			p.canQuant = false
			p.i++
		case '(':
			if !p.openGroup() {
				return false
			}
		case ')':
			if p.depth == 1 {
				return false
			}
			kind := p.level(p.depth - 1).kind
			p.depth--
			p.canQuant = kind != regexLevelLook // assertions take no quantifier in Unicode mode
			p.i++
		case '^', '$':
			p.canQuant = false
			p.i++
		case '*', '+', '?', '{':
			if !p.canQuant || !p.quantifier() {
				return false
			}
			p.canQuant = false
		case '[':
			if !p.class() {
				return false
			}
			p.canQuant = true
		case '\\':
			if !p.atomEscape() {
				return false
			}
		case ']', '}':
			return false // SyntaxCharacters, not PatternCharacters, in Unicode mode
		default:
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRuneInString(s[p.i:])
				if r == utf8.RuneError && n == 1 {
					return false
				}
				p.i += n
			} else {
				p.i++
			}
			p.canQuant = true
		}
	}
	if p.depth != 1 || p.maxBack > p.groups {
		return false
	}
	for _, name := range p.refs {
		if !p.hasName(name) {
			return false
		}
	}
	return true
}

// openGroup scans "(" and what opens the group: a capturing group, a named
// one, "(?:", a modifier group, or a lookaround.
func (p *regexParser) openGroup() bool {
	s := p.s
	p.events++
	level := regexLevel{open: p.events, pm: p.level(p.depth - 1).pm, kind: regexLevelGroup}
	p.i++
	if p.i < len(s) && s[p.i] == '?' {
		p.i++
		switch {
		case p.i < len(s) && (s[p.i] == '=' || s[p.i] == '!'):
			level.kind = regexLevelLook
			p.i++
		case p.i+1 < len(s) && s[p.i] == '<' && (s[p.i+1] == '=' || s[p.i+1] == '!'):
			level.kind = regexLevelLook
			p.i += 2
		case p.i < len(s) && s[p.i] == '<':
			p.i++
			name, ok := p.groupName()
			if !ok || !p.defineName(name) {
				return false
			}
			p.groups++
		default:
			// "(?:" or modifiers: (? ims [- ims] : ), no flag twice, and
			// not "(?-:".
			seen := 0
			dash := false
			n := 0
			for p.i < len(s) && s[p.i] != ':' {
				bit := 0
				switch s[p.i] {
				case 'i':
					bit = 1
				case 'm':
					bit = 2
				case 's':
					bit = 4
				case '-':
					if dash {
						return false
					}
					dash = true
					p.i++
					continue
				default:
					return false
				}
				if seen&bit != 0 {
					return false
				}
				seen |= bit
				n++
				p.i++
			}
			if p.i == len(s) || dash && n == 0 {
				return false
			}
			p.i++
		}
	} else {
		p.groups++
	}
	p.push(level)
	p.canQuant = false
	return true
}

// defineName records a capturing group name. A name may come twice only if
// the two groups can never both take part in a match: they lie in different
// alternatives of a disjunction that holds both (ECMA-262 section 22.2.1.1).
// Given that every earlier pair passed, comparing with the previous group of
// the same name suffices: the two are apart if some disjunction still open
// that was opened before that group has seen a "|" since.
func (p *regexParser) defineName(name string) bool {
	prev, seen := p.lastName(name, p.events)
	if !seen {
		return true
	}
	// The deepest open level that opened before prev.
	lo, hi := 0, p.depth
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.level(m).open < prev {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo > 0 && p.level(lo-1).pm > prev
}

// groupName scans RegExpIdentifierName ">" after "<" and returns the name's
// value (escapes decoded).
func (p *regexParser) groupName() (string, bool) {
	s := p.s
	start := p.i
	var decoded []byte // set once an escape is met
	first := true
	for {
		if p.i >= len(s) {
			return "", false
		}
		if s[p.i] == '>' {
			break
		}
		at := p.i
		var r rune
		if s[p.i] == '\\' {
			if p.i+1 >= len(s) || s[p.i+1] != 'u' {
				return "", false
			}
			p.i += 2
			var ok bool
			if r, ok = p.unicodeEscape(); !ok {
				return "", false
			}
			if decoded == nil {
				decoded = append([]byte{}, s[start:at]...)
			}
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(s[p.i:])
			if r == utf8.RuneError && n == 1 {
				return "", false
			}
			p.i += n
		}
		if first && !regexIDStart(r) || !first && !regexIDContinue(r) {
			return "", false
		}
		first = false
		if decoded != nil {
			decoded = utf8.AppendRune(decoded, r)
		}
	}
	if first {
		return "", false // an empty name
	}
	name := s[start:p.i]
	if decoded != nil {
		name = string(decoded)
	}
	p.i++ // '>'
	return name, true
}

// regexIDStart: ID_Start, "$" or "_" (IdentifierStartChar).
func regexIDStart(r rune) bool {
	if r == '$' || r == '_' {
		return true
	}
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// regexIDContinue: ID_Continue, "$", ZWNJ or ZWJ (IdentifierPartChar).
func regexIDContinue(r rune) bool {
	if regexIDStart(r) || r == 0x200C || r == 0x200D {
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// unicodeEscape scans what follows "\u" in Unicode mode: "{" CodePoint "}",
// or four hex digits, a lead surrogate taking a "\u" trail surrogate after
// it into one code point.
func (p *regexParser) unicodeEscape() (rune, bool) {
	s := p.s
	if p.i < len(s) && s[p.i] == '{' {
		p.i++
		v := 0
		j := p.i
		for p.i < len(s) && asciiHex(s[p.i]) {
			v = v*16 + asciiHexVal(s[p.i])
			if v > unicode.MaxRune {
				return 0, false
			}
			p.i++
		}
		if p.i == j || p.i >= len(s) || s[p.i] != '}' {
			return 0, false
		}
		p.i++
		return rune(v), true
	}
	v, ok := p.hex4(p.i)
	if !ok {
		return 0, false
	}
	p.i += 4
	if 0xD800 <= v && v <= 0xDBFF && p.i+1 < len(s) && s[p.i] == '\\' && s[p.i+1] == 'u' {
		if t, ok := p.hex4(p.i + 2); ok && 0xDC00 <= t && t <= 0xDFFF {
			p.i += 6
			return rune((v-0xD800)<<10 + (t - 0xDC00) + 0x10000), true
		}
	}
	return rune(v), true
}

func (p *regexParser) hex4(i int) (int, bool) {
	if i+4 > len(p.s) {
		return 0, false
	}
	v := 0
	for k := i; k < i+4; k++ {
		d := asciiHexVal(p.s[k])
		if d < 0 {
			return 0, false
		}
		v = v*16 + d
	}
	return v, true
}

// quantifier scans a QuantifierPrefix and its optional "?"; "{" must open
// a whole {n}, {n,} or {n,m}, with n <= m.
func (p *regexParser) quantifier() bool {
	s := p.s
	if s[p.i] == '{' {
		p.i++
		lo, ok := p.digits()
		if !ok {
			return false
		}
		if p.i < len(s) && s[p.i] == ',' {
			p.i++
			if p.i < len(s) && s[p.i] != '}' {
				hi, ok := p.digits()
				if !ok || regexCompareDigits(lo, hi) > 0 {
					return false
				}
			}
		}
		if p.i >= len(s) || s[p.i] != '}' {
			return false
		}
	}
	p.i++
	if p.i < len(s) && s[p.i] == '?' {
		p.i++
	}
	return true
}

// digits scans DecimalDigits and returns them.
func (p *regexParser) digits() (string, bool) {
	j := p.i
	for p.i < len(p.s) && asciiDigit(p.s[p.i]) {
		p.i++
	}
	return p.s[j:p.i], p.i > j
}

// regexCompareDigits compares two decimal numbers of any length.
func regexCompareDigits(a, b string) int {
	for len(a) > 1 && a[0] == '0' {
		a = a[1:]
	}
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	switch {
	case len(a) != len(b):
		return len(a) - len(b)
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// atomEscape scans "\" AtomEscape outside a class: a back reference, a
// class escape, a character escape, "\k<name>", or the assertions \b \B.
func (p *regexParser) atomEscape() bool {
	s := p.s
	if p.i+1 >= len(s) {
		return false
	}
	c := s[p.i+1]
	switch {
	case c == 'b' || c == 'B':
		p.i += 2
		p.canQuant = false
		return true
	case '1' <= c && c <= '9':
		p.i++
		d, _ := p.digits()
		v := 0
		for k := 0; k < len(d); k++ {
			if v <= len(s) { // past len(s) it exceeds any group count
				v = v*10 + int(d[k]-'0')
			}
		}
		p.maxBack = max(p.maxBack, v)
		p.canQuant = true
		return true
	case c == 'k':
		p.i += 2
		if p.i >= len(s) || s[p.i] != '<' {
			return false
		}
		p.i++
		name, ok := p.groupName()
		if !ok {
			return false
		}
		p.refs = append(p.refs, name)
		p.canQuant = true
		return true
	}
	_, _, ok := p.classEscape(false)
	p.canQuant = ok
	return ok
}

// classEscape scans "\" and an escape that is a CharacterEscape or a
// CharacterClassEscape, or in a class (inClass) also "\b" and "\-". It
// returns the escape's code point, or isClass for \d, \p{...} and such.
func (p *regexParser) classEscape(inClass bool) (r rune, isClass, ok bool) {
	s := p.s
	if p.i+1 >= len(s) {
		return 0, false, false
	}
	c := s[p.i+1]
	p.i += 2
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return 0, true, true
	case 'p', 'P':
		return 0, true, p.property()
	case 'f':
		return '\f', false, true
	case 'n':
		return '\n', false, true
	case 'r':
		return '\r', false, true
	case 't':
		return '\t', false, true
	case 'v':
		return '\v', false, true
	case 'c':
		if p.i < len(s) && 'a' <= s[p.i]|0x20 && s[p.i]|0x20 <= 'z' {
			p.i++
			return rune(s[p.i-1] % 32), false, true
		}
		return 0, false, false
	case '0':
		if p.i < len(s) && asciiDigit(s[p.i]) {
			return 0, false, false
		}
		return 0, false, true
	case 'x':
		if p.i+2 <= len(s) && asciiHex(s[p.i]) && asciiHex(s[p.i+1]) {
			p.i += 2
			return rune(asciiHexVal(s[p.i-2])*16 + asciiHexVal(s[p.i-1])), false, true
		}
		return 0, false, false
	case 'u':
		r, ok := p.unicodeEscape()
		return r, false, ok
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/':
		return rune(c), false, true // IdentityEscape in Unicode mode
	case 'b':
		return '\b', false, inClass
	case '-':
		return '-', false, inClass
	}
	return 0, false, false
}

// property scans "{" UnicodePropertyValueExpression "}" after \p or \P.
func (p *regexParser) property() bool {
	s := p.s
	if p.i >= len(s) || s[p.i] != '{' {
		return false
	}
	p.i++
	j := p.i
	eq := -1
	for p.i < len(s) && s[p.i] != '}' {
		c := s[p.i]
		switch {
		case c == '=' && eq < 0:
			eq = p.i
		case templateVarchar(c):
		default:
			return false
		}
		p.i++
	}
	if p.i >= len(s) {
		return false
	}
	expr := s[j:p.i]
	p.i++
	if eq < 0 {
		return regexInSorted(ecmaGeneralCategories, expr) || regexInSorted(ecmaBinaryProperties, expr)
	}
	name, value := s[j:eq], s[eq+1:p.i-1]
	switch name {
	case "General_Category", "gc":
		return regexInSorted(ecmaGeneralCategories, value)
	case "Script", "sc", "Script_Extensions", "scx":
		return regexInSorted(ecmaScripts, value)
	}
	return false
}

func regexInSorted(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

// class scans a CharacterClass, "[" ... "]". In Unicode mode a range may
// not have a class escape at either end, and its ends must be in order.
func (p *regexParser) class() bool {
	s := p.s
	p.i++ // '['
	if p.i < len(s) && s[p.i] == '^' {
		p.i++
	}
	for {
		if p.i >= len(s) {
			return false
		}
		if s[p.i] == ']' {
			p.i++
			return true
		}
		lo, loClass, ok := p.classAtom()
		if !ok {
			return false
		}
		if p.i+1 < len(s) && s[p.i] == '-' && s[p.i+1] != ']' {
			p.i++
			hi, hiClass, ok := p.classAtom()
			if !ok || loClass || hiClass || lo > hi {
				return false
			}
		}
	}
}

// classAtom scans one ClassAtom.
func (p *regexParser) classAtom() (r rune, isClass, ok bool) {
	s := p.s
	switch c := s[p.i]; {
	case c == '\\':
		return p.classEscape(true)
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRuneInString(s[p.i:])
		if r == utf8.RuneError && n == 1 {
			return 0, false, false
		}
		p.i += n
		return r, false, true
	default:
		p.i++
		return rune(c), false, true
	}
}

// ecmaBinaryProperties are the binary property names and aliases of
// ECMA-262's table of binary Unicode properties (section 22.2.2.9),
// sorted.
var ecmaBinaryProperties = []string{
	"AHex", "ASCII", "ASCII_Hex_Digit", "Alpha", "Alphabetic", "Any", "Assigned", "Bidi_C",
	"Bidi_Control", "Bidi_M", "Bidi_Mirrored", "CI", "CWCF", "CWCM", "CWKCF", "CWL", "CWT", "CWU",
	"Case_Ignorable", "Cased", "Changes_When_Casefolded", "Changes_When_Casemapped",
	"Changes_When_Lowercased", "Changes_When_NFKC_Casefolded", "Changes_When_Titlecased",
	"Changes_When_Uppercased", "DI", "Dash", "Default_Ignorable_Code_Point", "Dep", "Deprecated",
	"Dia", "Diacritic", "EBase", "EComp", "EMod", "EPres", "Emoji", "Emoji_Component",
	"Emoji_Modifier", "Emoji_Modifier_Base", "Emoji_Presentation", "Ext", "ExtPict",
	"Extended_Pictographic", "Extender", "Gr_Base", "Gr_Ext", "Grapheme_Base", "Grapheme_Extend",
	"Hex", "Hex_Digit", "IDC", "IDS", "IDSB", "IDST", "IDS_Binary_Operator", "IDS_Trinary_Operator",
	"ID_Continue", "ID_Start", "Ideo", "Ideographic", "Join_C", "Join_Control", "LOE",
	"Logical_Order_Exception", "Lower", "Lowercase", "Math", "NChar", "Noncharacter_Code_Point",
	"Pat_Syn", "Pat_WS", "Pattern_Syntax", "Pattern_White_Space", "QMark", "Quotation_Mark", "RI",
	"Radical", "Regional_Indicator", "SD", "STerm", "Sentence_Terminal", "Soft_Dotted", "Term",
	"Terminal_Punctuation", "UIdeo", "Unified_Ideograph", "Upper", "Uppercase", "VS",
	"Variation_Selector", "White_Space", "XIDC", "XIDS", "XID_Continue", "XID_Start", "space",
}

// ecmaGeneralCategories and ecmaScripts are the values and aliases of
// General_Category and Script in PropertyValueAliases.txt of Unicode
// 15.0.0, sorted, as ECMA-262 takes them (section 22.2.2.9).
var ecmaGeneralCategories = []string{
	"C", "Cased_Letter", "Cc", "Cf", "Close_Punctuation", "Cn", "Co", "Combining_Mark",
	"Connector_Punctuation", "Control", "Cs", "Currency_Symbol", "Dash_Punctuation", "Decimal_Number",
	"Enclosing_Mark", "Final_Punctuation", "Format", "Initial_Punctuation", "L", "LC", "Letter",
	"Letter_Number", "Line_Separator", "Ll", "Lm", "Lo", "Lowercase_Letter", "Lt", "Lu", "M", "Mark",
	"Math_Symbol", "Mc", "Me", "Mn", "Modifier_Letter", "Modifier_Symbol", "N", "Nd", "Nl", "No",
	"Nonspacing_Mark", "Number", "Open_Punctuation", "Other", "Other_Letter", "Other_Number",
	"Other_Punctuation", "Other_Symbol", "P", "Paragraph_Separator", "Pc", "Pd", "Pe", "Pf", "Pi",
	"Po", "Private_Use", "Ps", "Punctuation", "S", "Sc", "Separator", "Sk", "Sm", "So",
	"Space_Separator", "Spacing_Mark", "Surrogate", "Symbol", "Titlecase_Letter", "Unassigned",
	"Uppercase_Letter", "Z", "Zl", "Zp", "Zs", "cntrl", "digit", "punct",
}
var ecmaScripts = []string{
	"Adlam", "Adlm", "Aghb", "Ahom", "Anatolian_Hieroglyphs", "Arab", "Arabic", "Armenian", "Armi",
	"Armn", "Avestan", "Avst", "Bali", "Balinese", "Bamu", "Bamum", "Bass", "Bassa_Vah", "Batak",
	"Batk", "Beng", "Bengali", "Bhaiksuki", "Bhks", "Bopo", "Bopomofo", "Brah", "Brahmi", "Brai",
	"Braille", "Bugi", "Buginese", "Buhd", "Buhid", "Cakm", "Canadian_Aboriginal", "Cans", "Cari",
	"Carian", "Caucasian_Albanian", "Chakma", "Cham", "Cher", "Cherokee", "Chorasmian", "Chrs",
	"Common", "Copt", "Coptic", "Cpmn", "Cprt", "Cuneiform", "Cypriot", "Cypro_Minoan", "Cyrillic",
	"Cyrl", "Deseret", "Deva", "Devanagari", "Diak", "Dives_Akuru", "Dogr", "Dogra", "Dsrt", "Dupl",
	"Duployan", "Egyp", "Egyptian_Hieroglyphs", "Elba", "Elbasan", "Elym", "Elymaic", "Ethi",
	"Ethiopic", "Geor", "Georgian", "Glag", "Glagolitic", "Gong", "Gonm", "Goth", "Gothic", "Gran",
	"Grantha", "Greek", "Grek", "Gujarati", "Gujr", "Gunjala_Gondi", "Gurmukhi", "Guru", "Han",
	"Hang", "Hangul", "Hani", "Hanifi_Rohingya", "Hano", "Hanunoo", "Hatr", "Hatran", "Hebr",
	"Hebrew", "Hira", "Hiragana", "Hluw", "Hmng", "Hmnp", "Hrkt", "Hung", "Imperial_Aramaic",
	"Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Ital", "Java", "Javanese",
	"Kaithi", "Kali", "Kana", "Kannada", "Katakana", "Katakana_Or_Hiragana", "Kawi", "Kayah_Li",
	"Khar", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khmr", "Khoj", "Khojki", "Khudawadi",
	"Kits", "Knda", "Kthi", "Lana", "Lao", "Laoo", "Latin", "Latn", "Lepc", "Lepcha", "Limb", "Limbu",
	"Lina", "Linb", "Linear_A", "Linear_B", "Lisu", "Lyci", "Lycian", "Lydi", "Lydian", "Mahajani",
	"Mahj", "Maka", "Makasar", "Malayalam", "Mand", "Mandaic", "Mani", "Manichaean", "Marc",
	"Marchen", "Masaram_Gondi", "Medefaidrin", "Medf", "Meetei_Mayek", "Mend", "Mende_Kikakui",
	"Merc", "Mero", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao", "Mlym", "Modi", "Mong",
	"Mongolian", "Mro", "Mroo", "Mtei", "Mult", "Multani", "Myanmar", "Mymr", "Nabataean",
	"Nag_Mundari", "Nagm", "Nand", "Nandinagari", "Narb", "Nbat", "New_Tai_Lue", "Newa", "Nko",
	"Nkoo", "Nshu", "Nushu", "Nyiakeng_Puachue_Hmong", "Ogam", "Ogham", "Ol_Chiki", "Olck",
	"Old_Hungarian", "Old_Italic", "Old_North_Arabian", "Old_Permic", "Old_Persian", "Old_Sogdian",
	"Old_South_Arabian", "Old_Turkic", "Old_Uyghur", "Oriya", "Orkh", "Orya", "Osage", "Osge", "Osma",
	"Osmanya", "Ougr", "Pahawh_Hmong", "Palm", "Palmyrene", "Pau_Cin_Hau", "Pauc", "Perm", "Phag",
	"Phags_Pa", "Phli", "Phlp", "Phnx", "Phoenician", "Plrd", "Prti", "Psalter_Pahlavi", "Qaac",
	"Qaai", "Rejang", "Rjng", "Rohg", "Runic", "Runr", "Samaritan", "Samr", "Sarb", "Saur",
	"Saurashtra", "Sgnw", "Sharada", "Shavian", "Shaw", "Shrd", "Sidd", "Siddham", "SignWriting",
	"Sind", "Sinh", "Sinhala", "Sogd", "Sogdian", "Sogo", "Sora", "Sora_Sompeng", "Soyo", "Soyombo",
	"Sund", "Sundanese", "Sylo", "Syloti_Nagri", "Syrc", "Syriac", "Tagalog", "Tagb", "Tagbanwa",
	"Tai_Le", "Tai_Tham", "Tai_Viet", "Takr", "Takri", "Tale", "Talu", "Tamil", "Taml", "Tang",
	"Tangsa", "Tangut", "Tavt", "Telu", "Telugu", "Tfng", "Tglg", "Thaa", "Thaana", "Thai", "Tibetan",
	"Tibt", "Tifinagh", "Tirh", "Tirhuta", "Tnsa", "Toto", "Ugar", "Ugaritic", "Unknown", "Vai",
	"Vaii", "Vith", "Vithkuqi", "Wancho", "Wara", "Warang_Citi", "Wcho", "Xpeo", "Xsux", "Yezi",
	"Yezidi", "Yi", "Yiii", "Zanabazar_Square", "Zanb", "Zinh", "Zyyy", "Zzzz",
}
