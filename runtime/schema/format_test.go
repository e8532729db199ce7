package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// formatSuiteDir holds the official suite's format files, vendored at the
// root of the repository.
var formatSuiteDir = filepath.Join("..", "..", "testdata", "json-schema-test-suite", "tests", "draft2020-12", "optional", "format")

// formatsLeftOut are the formats the suite tests that StringFormat does not
// assert; each must be absent from StringFormats. "unknown" is the suite's
// name for a format nobody knows.
var formatsLeftOut = map[string]bool{"unknown": true}

// allFormatChecks names every check function, asserted or not, so that the
// tests reach them all.
var allFormatChecks = map[string]func(string) bool{
	"date": IsDate, "date-time": IsDateTime, "time": IsTime, "duration": IsDuration,
	"email": IsEmail, "idn-email": IsIDNEmail, "hostname": IsHostname, "idn-hostname": IsIDNHostname,
	"ipv4": IsIPv4, "ipv6": IsIPv6, "uri": IsURI, "uri-reference": IsURIReference,
	"iri": IsIRI, "iri-reference": IsIRIReference, "uri-template": IsURITemplate,
	"uuid": IsUUID, "regex": IsRegex, "json-pointer": IsJSONPointer,
	"relative-json-pointer": IsRelativeJSONPointer,
}

type formatSuiteGroup struct {
	Description string `json:"description"`
	Schema      struct {
		Format string `json:"format"`
	} `json:"schema"`
	Tests []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// TestFormatSuite runs every group of every optional/format file of the
// official suite: each test whose data is a string goes through the check
// of the group's format, which must agree with "valid". Data of another
// type is out of scope: a string format ignores it.
func TestFormatSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(formatSuiteDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files in %s: %v", formatSuiteDir, err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var groups []formatSuiteGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		passed, total, skipped := 0, 0, 0
		for _, g := range groups {
			name := g.Schema.Format
			seen[name] = true
			check, ok := StringFormat(name)
			if !ok {
				if !formatsLeftOut[name] {
					t.Errorf("%s: format %q is neither asserted nor listed as left out", filepath.Base(file), name)
				}
				skipped += len(g.Tests)
				continue
			}
			for _, tc := range g.Tests {
				var data string
				if len(tc.Data) == 0 || tc.Data[0] != '"' || json.Unmarshal(tc.Data, &data) != nil {
					skipped++ // not a string
					continue
				}
				total++
				if got := check(data); got != tc.Valid {
					t.Errorf("%s: %s / %s: %q: got %v, want %v", filepath.Base(file), g.Description, tc.Description, data, got, tc.Valid)
					continue
				}
				passed++
			}
		}
		t.Logf("%-28s %3d/%3d passed (%d not strings or not asserted)", filepath.Base(file), passed, total, skipped)
	}
	for name := range formatsLeftOut {
		if _, ok := StringFormat(name); ok {
			t.Errorf("format %q is listed as left out but asserted", name)
		}
	}
	for _, name := range StringFormats {
		if !seen[name] {
			t.Errorf("asserted format %q has no file in the suite", name)
		}
	}
}

// TestFormatRegistry checks StringFormat and StringFormats agree, are
// sorted, and give the functions the generator calls by name.
func TestFormatRegistry(t *testing.T) {
	if !sort.StringsAreSorted(StringFormats) {
		t.Errorf("StringFormats not sorted: %v", StringFormats)
	}
	if len(StringFormats) != len(allFormatChecks) {
		t.Errorf("StringFormats has %d names, want %d", len(StringFormats), len(allFormatChecks))
	}
	for _, name := range StringFormats {
		check, ok := StringFormat(name)
		want := allFormatChecks[name]
		if !ok || want == nil {
			t.Errorf("StringFormat(%q) = _, %v; known %v", name, ok, want != nil)
			continue
		}
		// The same function: compare on inputs that tell the checks apart.
		for _, probe := range formatProbes {
			if check(probe) != want(probe) {
				t.Errorf("StringFormat(%q) is not Is<%s>: they differ on %q", name, name, probe)
			}
		}
	}
	for _, name := range []string{"", "int32", "int64", "float", "double", "Date", "unknown", "binary"} {
		if _, ok := StringFormat(name); ok {
			t.Errorf("StringFormat(%q) is asserted", name)
		}
	}
	for _, list := range [][]string{ecmaBinaryProperties, ecmaGeneralCategories, ecmaScripts} {
		if !sort.StringsAreSorted(list) {
			t.Errorf("property list not sorted: %v", list[:3])
		}
	}
}

var formatProbes = []string{
	"", "2020-01-01", "2020-01-01T00:00:00Z", "00:00:00Z", "P1D", "a@b.c", "a.b", "1.2.3.4", "::1",
	"http://x", "x", "x:", "{x}", "00000000-0000-0000-0000-000000000000", "/a", "0/a", "(", "[", "a..b",
}

// formatCase is one hand-written case: the check of format on in must be
// want. Each cites the rule that decides it.
type formatCase struct {
	format string
	in     string
	want   bool
}

var formatCases = []formatCase{
	// RFC 3339 section 5.6/5.7.
	{"date", "2000-02-29", true}, // divisible by 400
	{"date", "1900-02-29", false},
	{"date", "2024-02-29", true},
	{"date", "0000-01-01", true}, // date-fullyear = 4DIGIT
	{"date", "9999-12-31", true},
	{"date", "2020-1-01", false},
	{"date", "2020-01-01T", false},
	{"time", "23:59:60.5Z", true},
	{"time", "00:00:00.Z", false},                // time-secfrac = "." 1*DIGIT
	{"time", "00:00:00+00:00:00", false},         // time-numoffset has no seconds
	{"time", "00:00:00+0000", false},             // the colon is required
	{"time", "00:00:60+00:01", true},             // local time is UTC plus the offset: this is 23:59:60 UTC
	{"time", "00:00:60-00:01", false},            // and this 00:01:60 UTC
	{"time", "23:59:60+00:00", true},             // the leap second itself
	{"time", "12:00:00Z\x00", false},             // trailing byte
	{"time", "12:00:00z", true},                  // section 5.6 NOTE: lower case z
	{"date-time", "2020-01-01 00:00:00Z", false}, // section 5.6 allows a space only "by mutual agreement"
	{"date-time", "2020-02-30T00:00:00Z", false},
	{"date-time", "2020-01-01T00:00:00", false},
	{"date-time", "2020-01-01t00:00:00.000000001z", true},
	// RFC 3339 Appendix A.
	{"duration", "P1Y2M3DT4H5M6S", true},
	{"duration", "P1YT1S", true}, // dur-year [dur-time], dur-time = "T" dur-second
	{"duration", "PT1S", true},
	{"duration", "P1Y1Y", false},
	{"duration", "P1M1Y", false},
	{"duration", "P1DT", false},
	{"duration", "PT1H1M1S1S", false},
	{"duration", "P1W1D", false},
	{"duration", "P1w", false}, // designators are upper case in the ABNF
	// RFC 9562 section 4.
	{"uuid", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", false},
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g", false},
	{"uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", true},
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638-", false},    // a dash where a digit is
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638\xe9", false}, // a byte past ASCII
	{"uuid", "2eb8aa08-aa98-11ea-b4aa773b441d16380", false},    // a digit where a dash is
	{"uuid", "/eb8aa08-aa98-11ea-b4aa-73b441d16380", false},    // the byte before '0'
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638G", false},
	// RFC 3986 section 3.2.2 dec-octet.
	{"ipv4", "01.2.3.4", false},
	{"ipv4", "1.2.3.04", false},
	{"ipv4", "1.2.3.0", true},
	{"ipv4", "1.2.3.4.", false},
	{"ipv4", "1.2.3.1000", false},
	// RFC 4291 section 2.2.
	{"ipv6", "1:2:3:4:5:6:7::", true},
	{"ipv6", "::2:3:4:5:6:7:8", true},
	{"ipv6", "1:2:3:4::5:6:7:8", false}, // "::" stands for at least one group
	{"ipv6", "::1.2.3.4", true},
	{"ipv6", "1.2.3.4::", false},
	{"ipv6", "::1.2.3.4:5", false}, // the dotted quad comes last
	{"ipv6", "1:2:3:4:5:6:1.2.3.4", true},
	{"ipv6", "1:2:3:4:5:6:7:1.2.3.4", false},
	{"ipv6", "::ffff:1.2.3", false},
	{"ipv6", ":", false},
	{"ipv6", ":::", false},
	{"ipv6", "1::", true},
	{"ipv6", "00000::", false},
	{"ipv6", "0000::", true},
	{"ipv6", "FFFF::", true},
	// RFC 6901 section 3.
	{"json-pointer", "/\xff", false}, // not UTF-8
	{"json-pointer", "/~01", true},
	{"json-pointer", "~0", false},
	{"relative-json-pointer", "0", true},
	{"relative-json-pointer", "0#/a", false},
	{"relative-json-pointer", "0+1/a", false},
	// RFC 3986.
	{"uri", "a:", true},                    // path-empty
	{"uri", "a:b:c", true},                 // path-rootless may hold ":"
	{"uri", "A+.-9:x", true},               // scheme characters
	{"uri", "+a:x", false},                 // a scheme starts with a letter
	{"uri", "http://[v1.x]/", true},        // IPvFuture
	{"uri", "http://[v.x]/", false},        // IPvFuture needs 1*HEXDIG
	{"uri", "http://[vF.]/", false},        // and 1*( unreserved / sub-delims / ":" )
	{"uri", "http://[::1%25eth0]/", false}, // RFC 6874 zones are not RFC 3986
	{"uri", "http://[::1]:80/", true},
	{"uri", "http://[::1]x/", false},
	{"uri", "http://a:/", true},        // port = *DIGIT
	{"uri", "http://a/b?c#d#e", false}, // "#" once
	{"uri", "http://a/%41%zz", false},
	{"uri", "http://user:pw@host/", true},
	{"uri", "x://\xc3\xa9", false}, // non-ASCII
	{"uri-reference", "//[::1]", true},
	{"uri-reference", "a/b:c", true}, // ":" after the first segment
	{"uri-reference", ":a", false},   // path-noscheme: no ":" in the first segment
	{"uri-reference", "?#", true},
	{"uri-reference", "%", false},
	// RFC 3987.
	{"iri", "http://é/", true},
	{"iri", "http://a/\U000F0000", false}, // iprivate is for the query only
	{"iri", "http://a/?\U000F0000", true},
	{"iri", "http://a/#\U000F0000", false},
	{"iri", "http://a/\uFFFE", false}, // not a ucschar
	{"iri", "http://a/\xff", false},   // not UTF-8
	{"iri", "http://[é]/", false},     // IP-literal stays ASCII
	{"iri-reference", "é:x", false},   // a scheme is ASCII: "é:x" is a path-noscheme with ":"
	{"iri-reference", "./é:x", true},
	// RFC 6570.
	{"uri-template", "{var:9999}", true},
	{"uri-template", "{var:1*}", false}, // prefix or explode, not both
	{"uri-template", "{=var}", false},   // reserved operator
	{"uri-template", "{var}}", false},
	{"uri-template", "{{var}", false},
	{"uri-template", "{%4}", false},
	{"uri-template", "{a%41.b_1}", true},
	{"uri-template", "%", false},
	{"uri-template", "{", false},
	{"uri-template", "{x", false},
	{"uri-template", "{x,y*,z:3}", true},
	{"uri-template", "{.a}", true},
	{"uri-template", "{a.}", false},
	{"uri-template", "{.}", false},
	{"uri-template", "x\xff", false},
	// RFC 5321.
	{"email", "a@b", true}, // a single sub-domain is a Domain
	{"email", "a@[IPv6:::1]", true},
	{"email", "a@[ipv6:::1]", true}, // RFC 5234 section 2.3: literal strings ignore case
	{"email", "a@[IPv6:1.2.3.4]", false},
	{"email", "a@[1.2.3]", false},
	{"email", "a@[tag:x]", false},     // General-address-literal: no standardized tag
	{"email", "\"\"@b", true},         // Quoted-string = DQUOTE *QcontentSMTP DQUOTE
	{"email", "\"a\\\"b\"@c", true},   // quoted-pairSMTP
	{"email", "\"a\\\x01\"@c", false}, // quoted-pairSMTP is %d92 %d32-126
	{"email", "\"a\"b@c", false},
	{"email", "\"a@c", false},
	{"email", "a@b.", false},
	{"email", "a@-b", false},
	{"email", "a@xn--X", false}, // the domain is a hostname
	{"email", "é@b", false},     // UTF8-non-ascii is RFC 6531's
	{"email", strings.Repeat("a", 64) + "@b", true},
	{"email", strings.Repeat("a", 65) + "@b", false},         // section 4.5.3.1.1
	{"email", "a@" + strings.Repeat("b.", 126) + "b", false}, // 255 octets
	{"idn-email", "é@b", true},
	{"idn-email", "\"é\\é\"@b", false}, // quoted-pairSMTP stays ASCII
	{"idn-email", "a@é", true},
	{"idn-email", "a@\u3002b", false}, // only "." separates in a Mailbox
	{"idn-email", "a@\xff", false},
	{"idn-email", "\xff@b", false},
	// RFC 1123 and IDNA2008.
	{"hostname", "EXAMPLE.COM", true},
	{"hostname", "a", true},
	{"hostname", "1.2.3.4", true}, // RFC 1123 section 2.1 lets a label start with a digit
	{"hostname", "ab--cd", true},  // not "xn--": a reserved LDH label, valid RFC 1123
	{"hostname", "xn--bcher-kva.example", true},
	{"hostname", "XN--BCHER-KVA.example", true}, // A-labels compare without case
	{"hostname", "xn--Bcher-kva.example", true}, // digits of Punycode ignore case
	{"hostname", "xn--bcher-kvaa", true},        // "büücher"
	{"hostname", "xn--bcher-", false},           // decodes to ASCII only
	{"hostname", "xn--bcher-kva-", false},       // not Punycode
	{"hostname", "xn--", false},
	{"hostname", "xn--ls8h", false},                       // U+1F4A9 is DISALLOWED
	{"hostname", "xn--4dbc5h.com", true},                  // a Bidi domain name whose labels all pass
	{"hostname", "1com.xn--4dbc5h", false},                // RFC 5893 rule 1 for every label of a Bidi domain name
	{"hostname", strings.Repeat("a.", 126) + "a", true},   // 253 octets
	{"hostname", strings.Repeat("a.", 126) + "ab", false}, // 254
	{"hostname", "a b", false},
	{"hostname", "a_b", false},
	{"idn-hostname", "bücher.example", true},
	{"idn-hostname", "Bücher.example", false},                // no mapping: "B" is DISALLOWED in a U-label
	{"idn-hostname", "EXAMPLE.com", true},                    // an LDH label is not a U-label
	{"idn-hostname", "bu\u0308cher", false},                  // not NFC
	{"idn-hostname", "ǰ", true},                              // U+01F0: full case folding and NFKC bring it back: stable
	{"idn-hostname", "ſ", false},                             // U+017F folds to "s": unstable
	{"idn-hostname", "ꭰ", false},                             // U+AB70 Cherokee small letter folds to U+13A0
	{"idn-hostname", "Ꭰ", true},                              // U+13A0 is stable
	{"idn-hostname", "ᄀ", false},                             // U+1100 old Hangul jamo
	{"idn-hostname", "a\u034fb", false},                      // U+034F is Default_Ignorable
	{"idn-hostname", "a\u20d0", false},                       // Combining Diacritical Marks for Symbols
	{"idn-hostname", "ß", true},                              // Exceptions PVALID
	{"idn-hostname", "a\u0640b", false},                      // Exceptions DISALLOWED
	{"idn-hostname", "\u0378", false},                        // unassigned
	{"idn-hostname", "a\u200db", false},                      // ZWJ needs a virama before it
	{"idn-hostname", "\u0628\u200c", false},                  // ZWNJ needs a joiner after it
	{"idn-hostname", "\u0628\u064b\u200c\u064b\u0628", true}, // transparent marks around ZWNJ
	{"idn-hostname", "a\u3002", false},
	{"idn-hostname", "a\uff0eb\uff61c\u3002d", true},
	{"idn-hostname", "a\xffb", false},
	{"idn-hostname", "\u05d0.com", true}, // an RTL label and an LTR one
	{"idn-hostname", "\u05d01", true},    // RTL label ending in EN
	{"idn-hostname", "\u05d0a", false},   // rule 2: L in an RTL label
	{"idn-hostname", strings.Repeat("ü", 24), true},
	// ECMA-262, Unicode mode.
	{"regex", "", true},
	{"regex", "a|", true},
	{"regex", "|", true},
	{"regex", "()", true},
	{"regex", "(", false},
	{"regex", ")", false},
	{"regex", "a**", false},
	{"regex", "*", false},
	{"regex", "a{2,1}", false},
	{"regex", "a{1,2}", true},
	{"regex", "a{1,}?", true},
	{"regex", "a{00000000000000000002,000000000000000000003}", true},
	{"regex", "a{99999999999999999999,1}", false},
	{"regex", "a{", false}, // Unicode mode: a lone "{" is an error
	{"regex", "a}", false},
	{"regex", "]", false},
	{"regex", "a{,1}", false},
	{"regex", "^*", false},
	{"regex", "\\b+", false},
	{"regex", "(?=a)*", false}, // no quantified lookahead in Unicode mode
	{"regex", "(?<=a)?", false},
	{"regex", "(a)\\1", true},
	{"regex", "\\1(a)", true},  // a forward reference is legal
	{"regex", "(a)\\2", false}, // more than the groups
	{"regex", "\\0", true},
	{"regex", "\\00", false},
	{"regex", "\\c", false},
	{"regex", "\\c1", false},
	{"regex", "[\\c1]", false},
	{"regex", "\\x4", false},
	{"regex", "\\x41", true},
	{"regex", "\\u004", false},
	{"regex", "\\u{10FFFF}", true},
	{"regex", "\\u{110000}", false},
	{"regex", "\\u{}", false},
	{"regex", "\\ud83d\\ude00", true},
	{"regex", "[\\ud83d\\ude00-\\ud83d\\ude01]", true}, // a surrogate pair is one code point
	{"regex", "[\\u{1F601}-\\u{1F600}]", false},
	{"regex", "\\/", true},
	{"regex", "\\-", false}, // "\-" only in a class
	{"regex", "[\\-]", true},
	{"regex", "[\\b]", true},
	{"regex", "[\\B]", false},
	{"regex", "[\\1]", false},
	{"regex", "[z-a]", false},
	{"regex", "[a-z-]", true},
	{"regex", "[-a]", true},
	{"regex", "[\\d-z]", false},
	{"regex", "[a-\\d]", false},
	{"regex", "[\\w]", true},
	{"regex", "[[]", true},
	{"regex", "[a", false},
	{"regex", "\\p{L}", true},
	{"regex", "\\p{Letter}", true},
	{"regex", "\\P{Lu}", true},
	{"regex", "\\p{Script=Greek}", true},
	{"regex", "\\p{scx=Grek}", true},
	{"regex", "\\p{sc=Latin}", true},
	{"regex", "\\p{General_Category=Lu}", true},
	{"regex", "\\p{Greek}", false}, // a Script value needs the name
	{"regex", "\\p{ASCII}", true},
	{"regex", "\\p{ascii}", false}, // names are case-sensitive
	{"regex", "\\p{Foo}", false},
	{"regex", "\\p{sc=Foo}", false},
	{"regex", "\\p{L", false},
	{"regex", "\\p", false},
	{"regex", "\\k<a>", false},       // no such group
	{"regex", "\\k<a>(?<a>x)", true}, // a forward named reference
	{"regex", "(?<a>x)(?<a>y)", false},
	{"regex", "(?<a>x)|(?<a>y)", true}, // ES2025: in different alternatives
	{"regex", "(?:(?<a>x)|(?<a>y))\\k<a>", true},
	{"regex", "(?<a>x)(?:(?<a>y)|z)", false},
	{"regex", "(?:(?<a>x)|y)(?<a>z)", false},
	{"regex", "(?<a>(?<a>x)|y)", false},
	{"regex", "(?<a>x)|(?<a>y)|(?<a>z)", true},
	{"regex", "((?<a>x)|(?<a>y))|(?<a>z)", true},
	{"regex", "(?<a>x)|(?:(?<a>y)|(?<a>z))", true},
	{"regex", "(?<a>x)|(?<a>y)(?<a>z)", false},
	{"regex", "(?<\\u0061>x)\\k<a>", true}, // an escape in a name
	{"regex", "(?<$é_1>x)", true},
	{"regex", "(?<1a>x)", false},
	{"regex", "(?<>x)", false},
	{"regex", "(?<a", false},
	{"regex", "(?i:a)", true}, // ES2025 modifiers
	{"regex", "(?i-ms:a)", true},
	{"regex", "(?-i:a)", true},
	{"regex", "(?i-:a)", true},
	{"regex", "(?-:a)", false},
	{"regex", "(?ii:a)", false},
	{"regex", "(?i-i:a)", false},
	{"regex", "(?x:a)", false},
	{"regex", "(?i-m-s:a)", false},
	{"regex", "(?", false},
	{"regex", "(?<!a)b", true},
	{"regex", "é+", true},
	{"regex", "\xff", false},
	{"regex", "\\", false},
	{"regex", "\\z", false},
	{"regex", "\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\", true},
}

func TestFormatCases(t *testing.T) {
	deep := strings.Repeat("(", 20)
	deepEnd := strings.Repeat(")", 20)
	formatCases := append(formatCases,
		formatCase{"regex", deep + "(?<a>x)|(?<a>y)" + deepEnd, true},
		formatCase{"regex", deep + "(?<a>x)" + deepEnd + "(?<a>y)", false},
		formatCase{"regex", deep + "(?<a>x)" + deepEnd + "|(?<a>y)", true},
		formatCase{"regex", "(?:" + deep + "(?<a>x)" + deepEnd + "|y)(?<a>z)", false},
		formatCase{"regex", "(?<a>a)(?<b>b)(?<c>c)(?<d>d)(?<e>e)(?<f>f)(?<e>g)", false},
		formatCase{"regex", "(?<a>a)(?<b>b)(?<c>c)(?<d>d)(?<e>e)(?<f>f)\\k<f>\\k<a>", true},
		formatCase{"regex", "(?<a>a)(?<b>b)(?<c>c)(?<d>d)(?<e>e)(?<f>f)\\k<g>", false},
		formatCase{"regex", deep + deepEnd + ")", false},
	)
	for _, c := range formatCases {
		check := allFormatChecks[c.format]
		if check == nil {
			t.Fatalf("no check for %q", c.format)
		}
		if got := check(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", c.format, c.in, got, c.want)
		}
	}
}

// TestFormatPunycode checks the codec on the samples of RFC 3492 section
// 7.1 and round trips.
func TestFormatPunycode(t *testing.T) {
	samples := []struct{ u, a string }{
		{"\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F", "egbpdaj6bu4bxfgehfvwxn"},
		{"\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587", "ihqwcrb4cv8a8dqg056pqjye"},
		{"\u0033\u5E74\u0042\u7D44\u91D1\u516B\u5148\u751F", "3B-ww4c5e180e575a65lsy2b"},
		{"\u5B89\u5BA4\u5948\u7F8E\u6075\u002D\u0077\u0069\u0074\u0068\u002D\u0053\u0055\u0050\u0045\u0052\u002D\u004D\u004F\u004E\u004B\u0045\u0059\u0053", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
		{"bücher", "bcher-kva"},
	}
	for _, s := range samples {
		r := []rune(s.u)
		enc, ok := punyEncode(r, nil)
		if !ok || string(enc) != strings.ToLower(s.a) && string(enc) != s.a {
			t.Errorf("encode %q = %q, %v; want %q", s.u, enc, ok, s.a)
		}
		dec, ok := punyDecode(s.a, nil)
		if !ok || string(dec) != s.u {
			t.Errorf("decode %q = %q, %v; want %q", s.a, string(dec), ok, s.u)
		}
	}
	for _, bad := range []string{"99999999999", "a-\u00e9", "zzzzzzzzzzzzzzzzzzzzzzzzzz", "-"} {
		if dec, ok := punyDecode(bad, nil); ok && bad != "-" {
			t.Errorf("decode %q = %q, want an error", bad, string(dec))
		}
	}
}

// TestFormatIDNAProperty spot-checks the derivation of RFC 5892 section 3
// against code points whose value the RFC's own tables give.
func TestFormatIDNAProperty(t *testing.T) {
	for r, want := range map[rune]int{
		'a': idnaPVALID, 'A': idnaDISALLOWED, '-': idnaPVALID, '_': idnaDISALLOWED,
		0x00DF: idnaPVALID, 0x00E0: idnaPVALID, 0x00C0: idnaDISALLOWED, 0x00B7: idnaCONTEXTO,
		0x0390: idnaPVALID, 0x1E9E: idnaDISALLOWED, 0x200C: idnaCONTEXTJ, 0x200D: idnaCONTEXTJ,
		0x2160: idnaDISALLOWED, 0xFF41: idnaDISALLOWED, 0x3164: idnaDISALLOWED, 0xAC00: idnaPVALID,
		0x0660: idnaCONTEXTO, 0x0F0B: idnaPVALID, 0x3007: idnaPVALID, 0x302E: idnaDISALLOWED,
		0x1D15E: idnaDISALLOWED, 0x0345: idnaDISALLOWED, 0x00AA: idnaDISALLOWED, 0xFB01: idnaDISALLOWED,
		0x0130: idnaDISALLOWED, 0x2126: idnaDISALLOWED, 0x4E00: idnaPVALID, 0x1F80: idnaDISALLOWED,
		0x0149: idnaDISALLOWED, 0x01F0: idnaPVALID, 0x13F8: idnaDISALLOWED, 0x13F0: idnaPVALID,
	} {
		if got := idnaProperty(r); got != want {
			t.Errorf("idnaProperty(%U) = %d, want %d", r, got, want)
		}
	}
}

// uuidText is the uuid format written as a regular expression, the
// oracle FuzzFormats holds IsUUID to.
var uuidText = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// FuzzFormats runs every check on arbitrary strings: none may panic, and
// where two formats are related the relation must hold.
func FuzzFormats(f *testing.F) {
	for _, c := range formatCases {
		f.Add(c.in)
	}
	for _, p := range formatProbes {
		f.Add(p)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range allFormatChecks {
			if !yield(n) {
				return
			}
		}
	})
	f.Fuzz(func(t *testing.T, s string) {
		got := map[string]bool{}
		for _, n := range names {
			got[n] = allFormatChecks[n](s)
		}
		implies := func(a, b string) {
			if got[a] && !got[b] {
				t.Errorf("%q: %s but not %s", s, a, b)
			}
		}
		implies("uri", "uri-reference")
		implies("uri", "iri")
		implies("iri", "iri-reference")
		implies("uri-reference", "iri-reference")
		implies("email", "idn-email")
		implies("hostname", "idn-hostname")
		if got["date-time"] && got["date"] {
			t.Errorf("%q is both a date and a date-time", s)
		}
		if got["json-pointer"] && got["relative-json-pointer"] {
			t.Errorf("%q is both a JSON pointer and a relative one", s)
		}
		// A date-time is a date, "T", and a time.
		if len(s) > 11 {
			d, sep, tm := s[:10], s[10], s[11:]
			want := IsDate(d) && (sep == 'T' || sep == 't') && IsTime(tm)
			if got["date-time"] != want {
				t.Errorf("%q: date-time %v, parts %v", s, got["date-time"], want)
			}
		}
		// An IPv4 address in brackets after "IPv6:::ffff:" is an IPv6 one.
		if got["ipv4"] && !IsIPv6("::ffff:"+s) {
			t.Errorf("%q: ipv4 but not in IPv6", s)
		}
		// An IPv4 address or an IPv6 one is a host of a URI.
		if got["ipv4"] && !IsURI("http://"+s+"/") || got["ipv6"] && !IsURI("http://["+s+"]/") {
			t.Errorf("%q: an IP address that is not a URI host", s)
		}
		// A hostname is the domain of an e-mail address.
		if got["hostname"] && len(s) <= 200 && !IsEmail("a@"+s) {
			t.Errorf("%q: hostname but not an e-mail domain", s)
		}
		// A uuid is RFC 9562's 8-4-4-4-12 hexadecimal digits, as a
		// regular expression reads them.
		if want := uuidText.MatchString(s); got["uuid"] != want {
			t.Errorf("%q: uuid %v, the expression %v", s, got["uuid"], want)
		}
		// A non-ASCII check never accepts invalid UTF-8.
		if !utf8.ValidString(s) {
			for _, n := range names {
				if got[n] {
					t.Errorf("%s accepts invalid UTF-8 %q", n, s)
				}
			}
		}
	})
}

// BenchmarkFormats runs each check on a typical valid value.
func BenchmarkFormats(b *testing.B) {
	values := map[string]string{
		"date":                  "2024-06-19",
		"date-time":             "2024-06-19T08:30:06.283185+02:00",
		"time":                  "08:30:06Z",
		"duration":              "P1Y2M3DT4H5M6S",
		"email":                 "joe.bloggs@mail.example.com",
		"idn-email":             "实例@例子.测试",
		"hostname":              "api.eu-west-1.example.com",
		"idn-hostname":          "bücher.example",
		"ipv4":                  "192.168.100.200",
		"ipv6":                  "2001:db8:85a3::8a2e:370:7334",
		"uri":                   "https://user@example.com:8443/a/b/c?q=1&r=%20x#frag",
		"uri-reference":         "../a/b?q=1#f",
		"iri":                   "https://例子.测试/路径?q=ü#f",
		"iri-reference":         "/路径/ü",
		"uri-template":          "https://example.com/{user}/repos{?page,per_page}",
		"uuid":                  "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
		"regex":                 "^(?<user>[a-z0-9_]{3,16})@([a-z]+)\\.(com|org)$",
		"json-pointer":          "/definitions/a~1b/properties/0",
		"relative-json-pointer": "1/items/0",
	}
	for _, name := range StringFormats {
		check, v := allFormatChecks[name], values[name]
		if !check(v) {
			b.Fatalf("%s: %q is not valid", name, v)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				check(v)
			}
		})
	}
}

// TestFormatLongInputs runs every check on long adversarial strings: a
// check that is not linear in len(s) would take minutes here, not
// milliseconds.
func TestFormatLongInputs(t *testing.T) {
	const n = 1 << 20
	inputs := []string{
		strings.Repeat("a", n), strings.Repeat("(", n), strings.Repeat("(?<a>", n/5),
		strings.Repeat("(?<a>x)|", n/8), strings.Repeat("[", n), strings.Repeat("a.", n/2),
		strings.Repeat(`\u{1}`, n/5), strings.Repeat(":", n), strings.Repeat("1:", n/2),
		strings.Repeat("/~0", n/3), strings.Repeat("{a,", n/3), "http://" + strings.Repeat("a", n),
		"//" + strings.Repeat("@", n), strings.Repeat("\"", n), strings.Repeat("ü.", n/3),
		strings.Repeat("\u30fb", n/3), strings.Repeat("\u200c", n/3), "a@" + strings.Repeat("b.", n/2),
		"P" + strings.Repeat("1", n) + "D", "0" + strings.Repeat("/", n), "xn--" + strings.Repeat("a", n),
		strings.Repeat("\\k<a>", n/5) + "(?<a>)", strings.Repeat("a{1,2}", n/6),
	}
	for name, check := range allFormatChecks {
		for _, in := range inputs {
			check(in) // the test is that it returns
		}
		_ = name
	}
}
