// Package textdec is the strict reading of JSON text the runtime shares.
// Validate checks a whole text in one pass (the grammar, UTF-8, escaped
// surrogates, distinct member names, depth); EachMember, EachElement and
// ValueEnd then split text it accepted without checking it again;
// AppendUnquote and Kind read one value of it, and AppendQuote writes a
// string as JSON (AppendQuoteAsSlog as log/slog writes one). ScanText
// (ScanString with the UTF-8 check and a count of code points) and
// NumberEnd read one token of text not checked yet. CountUTF8 (and
// ValidUTF8) is the UTF-8 check of them all.
package textdec
