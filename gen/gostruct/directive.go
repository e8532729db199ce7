package gostruct

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// The directives. A directive is a line comment of its own, "//mcpgen:" and
// a word, written without a space, as Go's own directives are (//go:embed):
// go/ast leaves such lines out of a doc comment's text, and gofmt keeps
// them together at the end of the comment.
const (
	directivePrefix = "//mcpgen:"
	toolDirective   = "tool"
	titleDirective  = "title"
)

// The keys of //mcpgen:tool, each a field of the version (the manifest's
// name for it in the comments).
const (
	keySideEffect     = "sideEffect"     // sideEffect
	keyScopes         = "scopes"         // requiredScopes, comma-separated
	keyClassification = "classification" // dataClassification
	keyOwner          = "owner"          // owner
	keyTenants        = "tenants"        // tenants, comma-separated
	keyLifecycle      = "lifecycle"      // lifecycle
	keySupersededBy   = "supersededBy"   // supersededBy
)

// directiveKeys lists the keys in the order the README documents them;
// requiredKeys are those a version must state.
var (
	directiveKeys = []string{keySideEffect, keyScopes, keyClassification, keyOwner, keyTenants, keyLifecycle, keySupersededBy}
	requiredKeys  = []string{keySideEffect, keyClassification, keyOwner}
)

// manifestField maps a directive key to the manifest field it sets, the
// name Version.Pos is asked with.
var manifestField = map[string]string{
	keySideEffect: "sideEffect", keyScopes: "requiredScopes", keyClassification: "dataClassification",
	keyOwner: "owner", keyTenants: "tenants", keyLifecycle: "lifecycle", keySupersededBy: "supersededBy",
}

// word is a piece of a directive and where it starts.
type word struct {
	text string
	pos  token.Pos
}

// toolDecl is what the directives on one struct type say.
type toolDecl struct {
	at      token.Pos // the //mcpgen:tool comment
	name    word
	version word
	keys    map[string]word // key → value, positioned at the key
	values  map[string]word // key → value, positioned at the value
	title   *word
	// description is the doc comment after its first paragraph; descAt is
	// where it starts (NoPos when there is none).
	description string
	descAt      token.Pos
}

// splitWords splits the text of a comment after its directive into words
// separated by spaces or tabs, each positioned in the file.
func splitWords(text string, start token.Pos) []word {
	var out []word
	i := 0
	for i < len(text) {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, word{text[i:j], start + token.Pos(i)})
		}
		i = j
	}
	return out
}

// isDirective reports whether a line comment is a directive in go/ast's
// sense ("//word:word"), which the text of a doc comment leaves out.
var isDirective = regexp.MustCompile(`^//[a-z0-9]+:[a-z0-9]`).MatchString

// parseDirectives reads the mcpgen directives of a struct's doc comment.
// It returns nil, without errors, when the comment holds none.
func parseDirectives(doc *ast.CommentGroup, typeName string, errs *errorList) *toolDecl {
	if doc == nil {
		return nil
	}
	var decl *toolDecl
	var titles []*ast.Comment
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, directivePrefix)
		if !ok {
			continue
		}
		verb, args, _ := strings.Cut(rest, " ")
		argsAt := c.Slash + token.Pos(len(directivePrefix)+len(verb)+1)
		switch verb {
		case toolDirective:
			if decl != nil {
				errs.add(c.Slash, "%s declares one tool version; it already declares %s@%s", typeName, decl.name.text, decl.version.text)
				continue
			}
			decl = parseTool(c, args, argsAt, errs)
		case titleDirective:
			titles = append(titles, c)
		default:
			errs.add(c.Slash+2, "unknown directive mcpgen:%s (known: mcpgen:%s, mcpgen:%s)", verb, toolDirective, titleDirective)
		}
	}
	if decl == nil {
		for _, c := range titles {
			errs.add(c.Slash, "mcpgen:%s without mcpgen:%s: a title belongs to a tool version", titleDirective, toolDirective)
		}
		return nil
	}
	for i, c := range titles {
		if i > 0 {
			errs.add(c.Slash, "%s has a title already (mcpgen:%s is given once)", typeName, titleDirective)
			continue
		}
		text := strings.TrimPrefix(c.Text, directivePrefix+titleDirective)
		trimmed := strings.TrimLeft(text, " \t")
		at := c.Slash + token.Pos(len(directivePrefix)+len(titleDirective)+len(text)-len(trimmed))
		if strings.TrimSpace(trimmed) == "" {
			errs.add(c.Slash, "mcpgen:%s is empty", titleDirective)
			continue
		}
		decl.title = &word{strings.TrimSpace(trimmed), at}
	}
	decl.description, decl.descAt = description(doc)
	return decl
}

// parseTool reads "NAME@VERSION key=value ...".
func parseTool(c *ast.Comment, args string, argsAt token.Pos, errs *errorList) *toolDecl {
	words := splitWords(args, argsAt)
	if len(words) == 0 {
		errs.add(c.Slash, "mcpgen:%s needs NAME@VERSION and %s (as in mcpgen:%s payments.lookup@1.0.0 sideEffect=read classification=internal owner=team)",
			toolDirective, keyList(requiredKeys), toolDirective)
		return nil
	}
	d := &toolDecl{at: c.Slash, keys: map[string]word{}, values: map[string]word{}}
	name, version, ok := strings.Cut(words[0].text, "@")
	if !ok || name == "" || version == "" {
		errs.add(words[0].pos, "%q is not NAME@VERSION (as in payments.lookup@1.0.0)", words[0].text)
		return nil
	}
	d.name = word{name, words[0].pos}
	d.version = word{version, words[0].pos + token.Pos(len(name)+1)}
	for _, w := range words[1:] {
		key, value, ok := strings.Cut(w.text, "=")
		if !ok {
			errs.add(w.pos, "%q is not key=value (keys: %s)", w.text, strings.Join(directiveKeys, ", "))
			continue
		}
		if !slices.Contains(directiveKeys, key) {
			errs.add(w.pos, "unknown key %q%s", key, suggestKey(key))
			continue
		}
		if _, dup := d.keys[key]; dup {
			errs.add(w.pos, "key %s is given twice", key)
			continue
		}
		d.keys[key] = word{value, w.pos}
		d.values[key] = word{value, w.pos + token.Pos(len(key)+1)}
	}
	var missing []string
	for _, k := range requiredKeys {
		if _, ok := d.keys[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		errs.add(c.Slash, "mcpgen:%s %s is missing required %s", toolDirective, words[0].text, keyList(missing))
		return nil
	}
	return d
}

// keyList writes keys for a message: "sideEffect", "sideEffect and owner".
func keyList(keys []string) string {
	switch len(keys) {
	case 1:
		return "key " + keys[0]
	}
	return "keys " + strings.Join(keys[:len(keys)-1], ", ") + " and " + keys[len(keys)-1]
}

// suggestKey names the known key an unknown one is probably meant to be:
// the same letters in another case, or a manifest field's name.
func suggestKey(key string) string {
	for _, k := range directiveKeys {
		if strings.EqualFold(k, key) {
			return fmt.Sprintf(" (did you mean %s?)", k)
		}
	}
	for k, field := range manifestField {
		if strings.EqualFold(field, key) {
			return fmt.Sprintf(" (the manifest's %s is %s here)", field, k)
		}
	}
	return " (keys: " + strings.Join(directiveKeys, ", ") + ")"
}

// commentLine is one line of a doc comment's text, where it is written.
type commentLine struct {
	text string
	pos  token.Pos
}

// commentLines returns the text lines of a comment group, without the
// comment markers and without directives, each positioned at its text.
func commentLines(doc *ast.CommentGroup) []commentLine {
	var out []commentLine
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//") {
			if isDirective(c.Text) {
				continue
			}
			text := c.Text[2:]
			at := c.Slash + 2
			if strings.HasPrefix(text, " ") {
				text, at = text[1:], at+1
			}
			out = append(out, commentLine{text, at})
			continue
		}
		// A /* */ comment: its lines, each positioned at the comment.
		body := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		for _, l := range strings.Split(body, "\n") {
			out = append(out, commentLine{strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*")), c.Slash})
		}
	}
	return out
}

// paragraph is a run of non-blank comment lines.
type paragraph struct {
	lines []commentLine
}

func paragraphs(lines []commentLine) []paragraph {
	var out []paragraph
	var cur []commentLine
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			if len(cur) > 0 {
				out = append(out, paragraph{cur})
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, paragraph{cur})
	}
	return out
}

// prose joins paragraphs into the text a model or an editor reads: the
// lines of a paragraph (wrapped for Go readers) joined by spaces, the
// paragraphs by a blank line.
func prose(ps []paragraph) string {
	texts := make([]string, 0, len(ps))
	for _, p := range ps {
		words := make([]string, 0, len(p.lines))
		for _, l := range p.lines {
			words = append(words, strings.TrimSpace(l.text))
		}
		texts = append(texts, strings.Join(words, " "))
	}
	return strings.Join(texts, "\n\n")
}

// description is a tool's description: its struct's doc comment after the
// first paragraph (which, by Go convention, names the type for Go readers).
func description(doc *ast.CommentGroup) (string, token.Pos) {
	ps := paragraphs(commentLines(doc))
	if len(ps) < 2 {
		return "", token.NoPos
	}
	return prose(ps[1:]), ps[1].lines[0].pos
}

// docText is the whole text of a doc comment as a schema description, or
// "" for none.
func docText(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	return prose(paragraphs(commentLines(doc)))
}
