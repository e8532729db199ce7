package ir

import (
	"strings"
	"unicode"
)

// initialisms are written in capitals inside Go names, as the Go style guide
// asks (CustomerID, not CustomerId).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true,
	"GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "IBAN": true, "ID": true, "IP": true,
	"JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true, "RPC": true, "SLA": true,
	"SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true,
	"UI": true, "UID": true, "URI": true, "URL": true, "UTF8": true, "UUID": true, "VM": true,
	"XML": true, "XSRF": true, "XSS": true, "BIC": true,
}

// GoName turns a JSON property or tool name into an exported Go identifier:
// words are split at anything that is not a letter or digit and at
// lower-to-upper case changes (and before the last capital of a run
// followed by a lower-case letter), each word is capitalised, initialisms are
// written in capitals, and a name that would not start with a capital (a digit, a letter
// without case) gets an "X" in front.
// "include_legs" → IncludeLegs, "customer_id" → CustomerID,
// "payments.lookup" → PaymentsLookup, "asOf" → AsOf.
func GoName(s string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1])),
			// The last capital of a run before a lower-case letter starts
			// a word: HTTPServer is HTTP + Server.
			unicode.IsUpper(r) && i > 0 && unicode.IsUpper(runes[i-1]) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	name := b.String()
	if name == "" {
		return "X"
	}
	if first := []rune(name)[0]; !unicode.IsUpper(first) {
		// A digit, or a letter without case: not an exported identifier.
		name = "X" + name
	}
	return name
}
