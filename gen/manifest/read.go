package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/schema"
	"go.yaml.in/yaml/v3"
)

// This file turns the bytes of one manifest file into a tree of yaml.Node
// whose every node carries its line and column. YAML files go through the
// YAML parser; JSON files go through encoding/json and are built into the
// same kind of tree, so that JSON's own rules apply to them (YAML is not
// quite a superset: it has no "\/" escape, and it accepts a missing value
// after a colon) and their positions are exact.

// readFile parses data and returns the root value node, or nil after
// reporting why there is none.
func (d *decoder) readFile(data []byte, isJSON bool) *yaml.Node {
	d.lines = bytes.Count(data, []byte{'\n'}) + 1
	if len(bytes.TrimSpace(data)) == 0 {
		d.errorAt(Pos{d.file, 1, 1}, "file is empty (want a manifest)")
		return nil
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		d.errorAt(d.offsetPos(data, i), "file is not valid UTF-8")
		return nil
	}
	if isJSON {
		return d.readJSON(data)
	}
	return d.readYAML(data)
}

func (d *decoder) readYAML(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			d.errorAt(Pos{d.file, 1, 1}, "file holds no YAML document (want a manifest)")
		} else {
			d.yamlError(data, err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		d.yamlError(data, err)
		return nil
	default:
		d.errorf(&next, "a manifest file holds one YAML document; a second one starts here")
		return nil
	}
	if len(doc.Content) != 1 {
		d.errorAt(Pos{d.file, 1, 1}, "file holds no YAML document (want a manifest)")
		return nil
	}
	return doc.Content[0]
}

var (
	yamlLineError   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlUnknownAnch = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)
)

// yamlParserProblems are the messages go.yaml.in/yaml/v3 raises from its
// parser (as opposed to its scanner). It reports their line 0-based, and a
// scanner problem's line 1-based; the difference is corrected here.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// yamlError reports a YAML syntax error. The YAML library names a line but
// no column, so the column is that of the line's first non-blank character.
func (d *decoder) yamlError(data []byte, err error) {
	text := err.Error()
	if m := yamlUnknownAnch.FindStringSubmatch(text); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			d.errorAt(d.offsetPos(data, i), "alias *%s names no anchor (anchors and aliases are not supported in manifests)", m[1])
			return
		}
	}
	line, msg := 1, strings.TrimPrefix(text, "yaml: ")
	if m := yamlLineError.FindStringSubmatch(text); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if yamlParserProblems[msg] {
			line++
		}
	}
	d.errorAt(Pos{d.file, line, firstNonBlank(data, line)}, "YAML syntax error: %s", msg)
}

// firstNonBlank returns the 1-based column of the first character on line
// that is not a space or tab, or 1.
func firstNonBlank(data []byte, line int) int {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return 1
		}
		start += i + 1
	}
	rest := data[start:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	trimmed := bytes.TrimLeft(rest, " \t")
	if len(trimmed) == 0 {
		return 1
	}
	return utf8.RuneCount(rest[:len(rest)-len(trimmed)]) + 1
}

// offsetPos converts a byte offset in data to a line and a column counted
// in characters, as the YAML parser counts them.
func (d *decoder) offsetPos(data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{d.file, line, utf8.RuneCount(data[start:off]) + 1}
}

// jsonReader builds a yaml.Node tree from JSON text with encoding/json's
// tokenizer, recording where each token starts.
type jsonReader struct {
	d    *decoder
	data []byte
	dec  *json.Decoder
	// off, line and col track the position of the last token start, so
	// that positions cost one pass over the text, however long its lines.
	off, line, col int
}

// at returns the line and column of offset off, at or after the previous
// one.
func (r *jsonReader) at(off int) (line, col int) {
	for r.off < off {
		c, size := utf8.DecodeRune(r.data[r.off:])
		if c == '\n' {
			r.line, r.col = r.line+1, 1
		} else {
			r.col++
		}
		r.off += size
	}
	return r.line, r.col
}

func (d *decoder) readJSON(data []byte) *yaml.Node {
	// RFC 8259 lets a parser ignore a byte order mark; editors write one.
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	// encoding/json's full scan locates a syntax error exactly; the token
	// reader below then runs on text known to be one valid JSON value.
	if err := json.Unmarshal(data, new(any)); err != nil {
		d.jsonError(data, err)
		return nil
	}
	r := &jsonReader{d: d, data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1, col: 1}
	r.dec.UseNumber()
	root, err := r.node()
	if err != nil {
		d.jsonError(data, err)
		return nil
	}
	return root
}

// start returns the offset where the next token begins: the decoder's
// offset is the end of the previous token, before any separator.
func (r *jsonReader) start() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) && strings.IndexByte(" \t\r\n,:", r.data[off]) >= 0 {
		off++
	}
	return off
}

func (r *jsonReader) node() (*yaml.Node, error) {
	line, col := r.at(r.start())
	tok, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	n := &yaml.Node{Line: line, Column: col, Kind: yaml.ScalarNode}
	switch t := tok.(type) {
	case json.Delim:
		n.Kind, n.Tag, n.Style = yaml.MappingNode, "!!map", yaml.FlowStyle
		if t == '[' {
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		}
		for r.dec.More() {
			if n.Kind == yaml.MappingNode {
				k, err := r.node()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, k)
			}
			v, err := r.node()
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if _, err := r.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Tag, n.Value, n.Style = "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Tag, n.Value = "!!float", string(t)
		if schema.IsIntegerLiteral(string(t)) {
			n.Tag = "!!int"
		}
	case bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(t)
	case nil:
		n.Tag, n.Value = "!!null", "null"
	default:
		return nil, fmt.Errorf("unexpected JSON token %v", tok)
	}
	return n, nil
}

// jsonError reports a JSON syntax error at the character that breaks the
// text, or at its end when the text stops short.
func (d *decoder) jsonError(data []byte, err error) {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn) && strings.HasPrefix(syn.Error(), "unexpected end"),
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		end := len(bytes.TrimRight(data, " \t\r\n"))
		d.errorAt(d.offsetPos(data, end), "JSON syntax error: unexpected end of file")
	case errors.As(err, &syn):
		// Offset counts the bytes read, the offending one included.
		d.errorAt(d.offsetPos(data, int(syn.Offset)-1), "JSON syntax error: %v", syn)
	default:
		d.errorAt(Pos{d.file, 1, 1}, "JSON syntax error: %v", err)
	}
}
