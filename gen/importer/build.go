package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
	"go.yaml.in/yaml/v3"
)

// Version is the version every imported tool starts at: the contract the
// server publishes today is the first one the manifests record.
const Version = "1.0.0"

// Decisions are what the team says of the tools, where a tools/list answer
// is silent. Each map is keyed by a tool's published name, or by "" for
// every tool.
type Decisions struct {
	// SideEffect: a value for one tool overrides its annotations; a value
	// for every tool applies only to the tools whose annotations say
	// nothing.
	SideEffect     map[string]estate.SideEffect
	Owner          map[string]string
	Classification map[string]estate.Classification
	// Scopes are the scopes a caller must hold; none when not given.
	Scopes map[string][]string
}

// pick is the value m holds for the tool published as name: its own, or
// the one for every tool.
func pick[V any](m map[string]V, name string) (V, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	v, ok := m[""]
	return v, ok
}

// Result is what an import makes of a list.
type Result struct {
	// Files are the manifests, sorted by file name; Server is the server
	// file (nil when the source does not name the server).
	Files  []File
	Server *File
	// Renamed are the tools whose published name the manifest rules
	// refuse, with the name their manifest has.
	Renamed []Rename
	// Skipped are the tools not imported, in the order listed, each with
	// the reason.
	Skipped []Skip
}

// File is one file to write.
type File struct {
	Name string
	Data []byte
}

// Rename maps a published (wire) name to a manifest name.
type Rename struct{ Wire, Name string }

// Skip is a tool not imported.
type Skip struct {
	// Tool is its published name ("" when the entry has none).
	Tool string
	// Where is the entry's place in the source (file and JSON path), and
	// the place inside it the reason is about.
	Where  string
	Reason string
}

func (s Skip) String() string {
	name := s.Tool
	if name == "" {
		name = "(no name)"
	}
	return fmt.Sprintf("%s: %s: %s", s.Where, name, s.Reason)
}

// Server names the server a live list came from: it becomes the server
// file, so the generated server announces the same serverInfo.
type Server struct{ Name, Version string }

// Build turns a list into manifests. A tool that cannot be imported (an
// entry that is no tool, a contract the manifest rules refuse, a decision
// that was not made, a Go name another tool already has) is skipped with
// the reason; every other one is still built.
func Build(l *List, srv *Server, d Decisions) *Result {
	res := &Result{}
	names := manifestNames(l.Tools)
	seen := map[string]bool{}
	// goNames maps the Go name of each tool imported so far to its
	// published name: mcpgen generate declares one set of identifiers per
	// Go name, so two tools sharing one would be refused there, after the
	// import said it succeeded.
	goNames := map[string]string{}
	for i, t := range l.Tools {
		skip := func(where, format string, args ...any) {
			res.Skipped = append(res.Skipped, Skip{Tool: t.Name, Where: where, Reason: fmt.Sprintf(format, args...)})
		}
		switch {
		case t.problem != "":
			skip(t.Where, "%s", t.problem)
			continue
		case seen[t.Name]:
			skip(t.Where, "the name is listed twice; the first entry is imported")
			continue
		}
		seen[t.Name] = true
		data, where, err := render(t, names[i], Version, d)
		if err != nil {
			skip(where, "%s", err)
			continue
		}
		goName := ir.GoName(names[i])
		if other, dup := goNames[goName]; dup {
			skip(t.Where, "%q and %q both become %s in Go, and one generated package cannot declare both; %q, listed first, is imported: write the manifest of %q by hand under another name, with wireName: %q to keep the name it is published by",
				other, t.Name, goName, other, t.Name, t.Name)
			continue
		}
		goNames[goName] = t.Name
		if names[i] != t.Name {
			res.Renamed = append(res.Renamed, Rename{Wire: t.Name, Name: names[i]})
		}
		res.Files = append(res.Files, File{Name: names[i] + ".yaml", Data: data})
	}
	slices.SortFunc(res.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	if srv != nil && strings.TrimSpace(srv.Name) != "" && strings.TrimSpace(srv.Version) != "" {
		root := mapping("name", str(srv.Name), "version", str(srv.Version))
		root.HeadComment = "The server the tools were imported from, as it names itself."
		data, err := encode(root)
		if err == nil {
			res.Server = &File{Name: "server.yaml", Data: data}
		}
	}
	return res
}

// manifestNames are the names the tools' manifests have: the published
// name where the manifest rules accept it, otherwise a name they accept
// (every refused character replaced by '_', cut to the longest name
// allowed, made unique with a numeric suffix).
func manifestNames(tools []Tool) []string {
	out := make([]string, len(tools))
	taken := map[string]bool{}
	for _, t := range tools {
		if estate.CheckName(t.Name) == nil {
			taken[t.Name] = true
		}
	}
	for i, t := range tools {
		if estate.CheckName(t.Name) == nil {
			out[i] = t.Name
			continue
		}
		base := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
				return r
			}
			return '_'
		}, t.Name)
		if base == "" {
			base = "tool"
		}
		name := cut(base, estate.MaxNameLength)
		for n := 2; taken[name]; n++ {
			suffix := fmt.Sprintf("_%d", n)
			name = cut(base, estate.MaxNameLength-len(suffix)) + suffix
		}
		taken[name] = true
		out[i] = name
	}
	return out
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// sideEffect is the side effect of t and where it came from. The
// annotations speak only when readOnlyHint is stated: true is a read;
// false is a write, idempotent when idempotentHint says so and otherwise
// not (MCP's default for idempotentHint, and the cautious one: such a
// write is never retried). No annotation says a change cannot be undone,
// so irreversible is only ever the team's decision.
func sideEffect(t Tool, d Decisions) (estate.SideEffect, string, bool) {
	if se, ok := d.SideEffect[t.Name]; ok {
		return se, "decided on import", true
	}
	a := t.Annotations
	if a.ReadOnlyHint != nil {
		switch {
		case *a.ReadOnlyHint:
			return estate.Read, "from readOnlyHint: true", true
		case a.IdempotentHint != nil && *a.IdempotentHint:
			return estate.WriteIdempotent, "from readOnlyHint: false, idempotentHint: true", true
		case a.IdempotentHint != nil:
			return estate.WriteNonIdempotent, "from readOnlyHint: false, idempotentHint: false", true
		default:
			return estate.WriteNonIdempotent, "from readOnlyHint: false (idempotentHint not stated: not idempotent, as MCP defaults)", true
		}
	}
	if se, ok := d.SideEffect[""]; ok {
		return se, "decided on import", true
	}
	return "", "", false
}

// render is the manifest of one tool, checked by the manifest loader. On
// an error, where is the place in the source it is about.
func render(t Tool, name, ver string, d Decisions) ([]byte, string, error) {
	se, origin, ok := sideEffect(t, d)
	if !ok {
		return nil, t.Where, fmt.Errorf("needs a decision: its annotations do not say whether it only reads (readOnlyHint); give -side-effect %s=read|write_idempotent|write_non_idempotent|irreversible", t.Name)
	}
	owner, ok := pick(d.Owner, t.Name)
	if !ok || strings.TrimSpace(owner) == "" {
		return nil, t.Where, fmt.Errorf("needs an owner: give -owner TEAM (every tool) or -owner %s=TEAM", t.Name)
	}
	class, ok := pick(d.Classification, t.Name)
	if !ok {
		return nil, t.Where, fmt.Errorf("needs a data classification: give -classification public|internal|confidential|restricted (every tool) or -classification %s=CLASS", t.Name)
	}
	if strings.TrimSpace(t.Description) == "" {
		return nil, t.Where + ".description", fmt.Errorf("the server publishes no description, and a manifest needs one (the model reads it to choose the tool)")
	}
	scopes, _ := pick(d.Scopes, t.Name)

	inConverted, outConverted := false, false
	var err error
	if t.InputSchema, inConverted, err = FromOlderDraft(t.InputSchema); err != nil {
		return nil, t.Where + ".inputSchema", err
	}
	if len(t.OutputSchema) > 0 {
		if t.OutputSchema, outConverted, err = FromOlderDraft(t.OutputSchema); err != nil {
			return nil, t.Where + ".outputSchema", err
		}
	}
	formats, err := FormatAnnotations(t.InputSchema, t.OutputSchema)
	if err != nil {
		return nil, t.Where, err
	}
	in, err := ObjectAtTop(t.InputSchema, formats)
	if err != nil {
		where, err := schemaProblem(t.Where+".inputSchema", err)
		return nil, where, err
	}
	inNode, err := jsonNode(in)
	if err != nil {
		return nil, t.Where + ".inputSchema", err
	}
	version := mapping("version", str(ver))
	if t.Title != "" {
		version.Content = append(version.Content, str("title"), str(t.Title))
	}
	seNode := str(string(se))
	seNode.LineComment = origin
	version.Content = append(version.Content,
		str("description"), str(t.Description),
		str("sideEffect"), seNode,
		str("requiredScopes"), strList(scopes),
		str("dataClassification"), str(string(class)),
		str("owner"), str(owner))
	if len(formats) > 0 {
		version.Content = append(version.Content, str("formatAnnotations"), strList(formats))
	}
	inKey := str("inputSchema")
	if inConverted {
		inKey.LineComment = converted
	}
	version.Content = append(version.Content, inKey, inNode)
	if len(t.OutputSchema) > 0 {
		out, err := jsonNode(t.OutputSchema)
		if err != nil {
			return nil, t.Where + ".outputSchema", err
		}
		outKey := str("outputSchema")
		if outConverted {
			outKey.LineComment = converted
		}
		version.Content = append(version.Content, outKey, out)
	}
	root := mapping("name", str(name))
	if name != t.Name {
		wire := str(t.Name)
		wire.LineComment = "the name the server publishes, which the manifest rules refuse"
		root.Content = append(root.Content, str("wireName"), wire)
	}
	root.Content = append(root.Content, str("versions"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{version}})
	root.HeadComment = "Imported by mcpgen import: version " + Version + " is the contract the server published.\n" +
		"From here on this file is the contract; mcpgen import -check compares the server with it."
	data, err := encode(root)
	if err != nil {
		return nil, t.Where, err
	}
	if where, err := verify(name, data, t, in, formats); err != nil {
		return nil, where, err
	}
	return data, "", nil
}

// converted is the comment on a schema the server published in an older
// draft of JSON Schema.
const converted = "published as JSON Schema draft-07 or older; converted to 2020-12, same meaning"

// schemaProblem is where in the source a schema's first problem is, and
// what it is: the schema path joined to base as a JSON path.
func schemaProblem(base string, err error) (string, error) {
	var errs schema.SchemaErrors
	if errors.As(err, &errs) && len(errs) > 0 {
		e := errs[0]
		msg := e.Message
		if len(errs) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		return base + strings.ReplaceAll(e.Path.String(), "/", "."), errors.New(msg)
	}
	var one *schema.SchemaError
	if errors.As(err, &one) {
		return base + strings.ReplaceAll(one.Path.String(), "/", "."), errors.New(one.Message)
	}
	return base, err
}

// verify loads the manifest as mcpgen generate will, and checks that its
// schemas are the published ones: the same contract, by schema hash.
func verify(name string, data []byte, t Tool, inputSchema json.RawMessage, formats []string) (string, error) {
	file := name + ".yaml"
	tool, err := manifest.LoadData(".", file, data)
	if err != nil {
		var list manifest.List
		if errors.As(err, &list) && len(list) > 0 {
			// "inputSchema/properties/x/pattern: message" names the place
			// in the published entry.
			msg := list[0].Msg
			if field, rest, ok := strings.Cut(msg, ": "); ok && (strings.HasPrefix(field, "inputSchema") || strings.HasPrefix(field, "outputSchema")) {
				if ptr, text, ok := strings.Cut(rest, ": "); ok && strings.HasPrefix(ptr, "/") {
					field, rest = field+ptr, text
				}
				return t.Where + "." + strings.ReplaceAll(field, "/", "."), fmt.Errorf("%s", rest)
			}
			return t.Where, fmt.Errorf("%s", msg)
		}
		return t.Where, err
	}
	v := tool.Versions[0]
	opts := schema.Options{AnnotationFormats: formats}
	in, err := schema.ParseJSONWith(inputSchema, opts)
	if err != nil || in.Hash() != v.InputSchema.Hash() {
		return t.Where + ".inputSchema", fmt.Errorf("the manifest's input schema is not the published one")
	}
	if len(t.OutputSchema) > 0 {
		out, err := schema.ParseJSONWith(t.OutputSchema, opts)
		if err != nil || v.OutputSchema == nil || out.Hash() != v.OutputSchema.Hash() {
			return t.Where + ".outputSchema", fmt.Errorf("the manifest's output schema is not the published one")
		}
	}
	return "", nil
}

// jsonNode is a JSON text as a YAML node in block style, its members in
// the order written.
func jsonNode(raw json.RawMessage) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("not one JSON value")
	}
	var block func(n *yaml.Node)
	block = func(n *yaml.Node) {
		n.Style = 0
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
			n.Style = yaml.DoubleQuotedStyle // keeps every character as written
		}
		for _, c := range n.Content {
			block(c)
		}
	}
	block(doc.Content[0])
	return doc.Content[0], nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func strList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{}}
	for _, s := range items {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// mapping builds a mapping from alternating keys and values (a value is a
// *yaml.Node).
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

func encode(root *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
