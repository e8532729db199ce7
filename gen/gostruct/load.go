package gostruct

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Source is a Go package whose struct types declare tool versions.
type Source struct {
	// Dir is the package as the caller named it (a directory or an import
	// path): what errors and the estate's Dir start with.
	Dir string
	// PkgPath and PkgName are the package's import path and name, which
	// generated code imports.
	PkgPath, PkgName string
	// PkgDir is the package's directory.
	PkgDir string
	// Versions are the declared versions, in source order.
	Versions []*manifest.Version
	// Types maps each version's key ("payments.lookup@1.0.0") to the name
	// of its argument struct in the package.
	Types map[string]string
	// Values describes, by the same key, each argument struct that
	// generated code can fill from the wire form itself (see ir.GoValue).
	Values map[string]*ir.GoValue
	// Server is the server file beside the structs (server.yaml), or nil.
	Server *manifest.Server
}

// Load loads the Go package source names (a directory, or an import path
// resolved from the working directory), finds the struct types that carry
// an //mcpgen:tool directive, and derives each one's input schema with
// invopop/jsonschema from the real type, by building and running a small
// program against the package (see reflect.go).
//
// A named type the schema uses (a struct, a list or map type) is a $defs
// entry, referred to with $ref wherever it is used, so that a type two
// tools share is one contract type, and a type may contain itself. But a
// published contract does not change, not even in form: published lists
// the versions already released (the estate record's), and one of them
// whose input schema has no $defs keeps the form it was published in,
// every named type written out in full where it is used (see schemaForm and
// publishedInline).
//
// Every problem is returned at once, as a manifest.List of
// file.go:line:col errors: the package's own compile errors, a directive
// that is malformed, misplaced or incomplete, a field type with no JSON
// form, a tag outside the schema subset. Nothing is returned with them.
func Load(source string, published []estate.ToolSpec) (*Source, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule,
	}
	pattern := source
	if st, err := os.Stat(source); err == nil && st.IsDir() {
		cfg.Dir, pattern = source, "."
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("loading Go package %s: %v", source, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("-source %s names %d packages; name one", source, len(pkgs))
	}
	pkg := pkgs[0]
	l := &loader{pkg: pkg, errs: &errorList{fset: pkg.Fset, cwd: cwd}, src: &Source{Dir: source, Types: map[string]string{}, Values: map[string]*ir.GoValue{}}}
	l.packageErrors(pkgs, source)
	if len(l.errs.list) > 0 {
		return nil, l.errs.sorted()
	}
	if len(pkg.GoFiles) == 0 {
		return nil, manifest.List{{Pos: manifest.Pos{File: source}, Msg: "no Go files in this package"}}
	}
	l.src.PkgPath, l.src.PkgName = pkg.PkgPath, pkg.Name
	l.src.PkgDir = filepath.Dir(pkg.GoFiles[0])
	if pkg.Name == "main" {
		l.errs.add(pkg.Syntax[0].Name.Pos(), "package main cannot be imported by the generated package: declare the argument structs in a package of their own")
		return nil, l.errs.sorted()
	}
	if pkg.Module == nil || pkg.Module.GoMod == "" {
		return nil, manifest.List{{Pos: manifest.Pos{File: source}, Msg: "the package is not in a Go module (mcpgen builds a program against it in its module)"}}
	}
	decls := l.declarations()
	if len(l.errs.list) == 0 && len(decls) == 0 {
		return nil, manifest.List{{Pos: manifest.Pos{File: source}, Msg: "no struct type in this package carries an //mcpgen:tool directive"}}
	}
	// Every struct whose fields and tags are sound is reflected, even when
	// another has a problem, so that one run reports everything.
	inline := publishedInline(published)
	forms := map[string]schemaForm{}
	for _, d := range decls {
		if d.root == nil {
			continue
		}
		forms[d.typeName] = defsForm
		if inline[d.spec.Key()] && !d.recursive {
			forms[d.typeName] = inlineForm
		}
	}
	if len(forms) > 0 {
		docs, err := reflectSchemas(pkg, forms, l.comments())
		if err != nil {
			return nil, err
		}
		for _, d := range decls {
			if d.root != nil {
				d.spec.InputSchema = l.inputSchema(d, docs[d.typeName])
			}
		}
	}
	if len(l.errs.list) > 0 {
		return nil, l.errs.sorted()
	}
	var values goValues
	for _, d := range decls {
		v := manifest.NewVersion(d.spec, l.locator(d))
		l.src.Versions = append(l.src.Versions, v)
		l.src.Types[v.Key()] = d.typeName
		if obj, _ := pkg.Types.Scope().Lookup(d.typeName).(*types.TypeName); obj != nil {
			if gv := values.of(obj.Type()); gv != nil {
				l.src.Values[v.Key()] = gv
			}
		}
	}
	server, err := serverBeside(l.src.PkgDir, source)
	if err != nil {
		return nil, err
	}
	l.src.Server = server
	return l.src, nil
}

// packageErrors reports the package's own problems. When the go command
// could not even list it, that is the problem; otherwise the parser's and
// the type checker's errors are the compiler's, at their positions (the
// go command's build output repeats them).
func (l *loader) packageErrors(pkgs []*packages.Package, source string) {
	var listed, compiled []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind == packages.ParseError || e.Kind == packages.TypeError {
				compiled = append(compiled, e)
			} else {
				listed = append(listed, e)
			}
		}
	})
	if len(compiled) == 0 {
		compiled = listed
	}
	for _, e := range compiled {
		l.errs.list = append(l.errs.list, &manifest.Error{Pos: l.errs.parse(e.Pos, source), Msg: e.Msg})
	}
}

// serverBeside loads the server file in the package's directory, if any.
func serverBeside(pkgDir, source string) (*manifest.Server, error) {
	dir := pkgDir
	if st, err := os.Stat(source); err == nil && st.IsDir() {
		dir = source // paths in errors start as the user named them
	}
	file, err := manifest.FindServerFile(dir)
	if err != nil || file == "" {
		return nil, err
	}
	return manifest.LoadServerFile(file)
}

// schemaForm is how an input schema writes the named types it uses.
type schemaForm int

const (
	// defsForm writes each named struct, list or map type once, as a $defs
	// entry, and refers to it with $ref: a type shared by two tools is one
	// contract type, and a type may contain itself.
	defsForm schemaForm = iota
	// inlineForm writes each named type out in full wherever it is used, as
	// versions were published before $defs: such a version keeps the form,
	// so that its schema document, and hash, stay what was published.
	inlineForm
)

// publishedInline lists the published versions whose input schema has no
// $defs: they were published with every named type written out in full,
// and keep that form. A type that contains itself has no inline form: a
// version whose struct has come to contain itself is reflected with $defs,
// which the gate then compares with what was published.
func publishedInline(published []estate.ToolSpec) map[string]bool {
	out := map[string]bool{}
	for _, p := range published {
		if p.InputSchema == nil {
			continue
		}
		if _, defs := p.InputSchema.Document()["$defs"]; !defs {
			out[p.Key()] = true
		}
	}
	return out
}

type loader struct {
	pkg  *packages.Package
	errs *errorList
	src  *Source
}

// declared is one struct type with its directives.
type declared struct {
	typeName string
	namePos  token.Pos
	tool     *toolDecl
	// spec is the version the directives state; its input schema is
	// reflected later.
	spec estate.ToolSpec
	// root is the struct's shape, nil when its fields or tags have a
	// problem (it is then not reflected).
	root *node
	// recursive says a type the struct uses contains itself.
	recursive bool
	// defs maps each $defs entry of the finished schema to its type's
	// node.
	defs map[string]*node
}

// declarations finds every //mcpgen: directive in the package, refuses
// those that are not in the doc comment of a struct type, and reads the
// structs that carry one.
func (l *loader) declarations() []*declared {
	var out []*declared
	attached := map[*ast.CommentGroup]bool{}
	walker := &typeWalker{errs: l.errs, fields: map[token.Pos]*ast.Field{}}
	for _, file := range l.pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, name := range f.Names {
						walker.fields[name.Pos()] = f
					}
					if len(f.Names) == 0 {
						// go/types places an embedded field at its type's
						// name: T in *T, pkg.T or T[int].
						t := f.Type
						if star, ok := t.(*ast.StarExpr); ok {
							t = star.X
						}
						switch x := t.(type) {
						case *ast.IndexExpr:
							t = x.X
						case *ast.IndexListExpr:
							t = x.X
						}
						if sel, ok := t.(*ast.SelectorExpr); ok {
							t = sel.Sel
						}
						walker.fields[t.Pos()] = f
					}
				}
			}
			return true
		})
	}
	for _, file := range l.pkg.Syntax {
		for ts, doc := range typeSpecs(file) {
			if doc == nil || !hasDirective(doc) {
				continue
			}
			attached[doc] = true
			tool := parseDirectives(doc, ts.Name.Name, l.errs)
			if tool == nil {
				continue
			}
			if d := l.declared(ts, tool, walker); d != nil {
				out = append(out, d)
			}
		}
		for _, cg := range file.Comments {
			if attached[cg] {
				continue
			}
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, directivePrefix) {
					l.errs.add(c.Slash, "%s must be in the doc comment of a struct type: a directive declares a tool version on its argument struct", strings.SplitN(c.Text, " ", 2)[0])
				}
			}
		}
	}
	return out
}

func hasDirective(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, directivePrefix) {
			return true
		}
	}
	return false
}

// declared checks that ts is a struct type a tool version can take as its
// arguments, and reads its fields.
func (l *loader) declared(ts *ast.TypeSpec, tool *toolDecl, walker *typeWalker) *declared {
	obj, _ := l.pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return nil
	}
	switch {
	case ts.Assign.IsValid():
		l.errs.add(ts.Name.Pos(), "mcpgen:tool is on %s, an alias: put it on the struct type itself", ts.Name.Name)
		return nil
	case ts.TypeParams != nil:
		l.errs.add(ts.Name.Pos(), "mcpgen:tool is on %s, a generic type: a tool version's arguments are one concrete struct", ts.Name.Name)
		return nil
	}
	if _, ok := obj.Type().Underlying().(*types.Struct); !ok {
		l.errs.add(ts.Name.Pos(), "mcpgen:tool is on %s, %s: a tool's arguments are a JSON object, so its type must be a struct",
			ts.Name.Name, kindPhrase(obj.Type().Underlying()))
		return nil
	}
	if !obj.Exported() {
		l.errs.add(ts.Name.Pos(), "mcpgen:tool is on %s, which is not exported: the generated package takes it as the handler's argument type", ts.Name.Name)
		return nil
	}
	d := &declared{typeName: ts.Name.Name, namePos: ts.Name.Pos(), tool: tool}
	d.spec = l.metadata(d)
	before := len(l.errs.list)
	walker.begin()
	root := walker.walk(obj.Type(), nil)
	if len(l.errs.list) == before {
		d.root, d.recursive = root, walker.recursive
	}
	return d
}

// kindPhrase names what a non-struct type is, for a message.
func kindPhrase(t types.Type) string {
	switch u := t.(type) {
	case *types.Basic:
		return "a " + u.Name() + " type"
	case *types.Slice, *types.Array:
		return "a list type"
	case *types.Map:
		return "a map type"
	case *types.Pointer:
		return "a pointer type"
	case *types.Interface:
		return "an interface type"
	case *types.Signature:
		return "a function type"
	case *types.Chan:
		return "a channel type"
	}
	return "not a struct"
}

// comments are the doc comments invopop/jsonschema makes descriptions of,
// keyed as its CommentMap keys them: "import/path.Type" and
// "import/path.Type.Field".
func (l *loader) comments() map[string]string {
	out := map[string]string{}
	for _, file := range l.pkg.Syntax {
		for ts, doc := range typeSpecs(file) {
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			key := l.pkg.PkgPath + "." + ts.Name.Name
			if text := docText(doc); text != "" {
				out[key] = text
			}
			for _, f := range st.Fields.List {
				doc := f.Doc
				if doc == nil {
					doc = f.Comment
				}
				text := docText(doc)
				if text == "" {
					continue
				}
				for _, name := range f.Names {
					out[key+"."+name.Name] = text
				}
			}
		}
	}
	return out
}

// metadata reads the version d's directives state, but its input schema,
// reporting each value the estate refuses where it is written.
func (l *loader) metadata(d *declared) estate.ToolSpec {
	t := d.tool
	spec := estate.ToolSpec{Name: t.name.text, Lifecycle: estate.Active}
	if v, err := estate.ParseVersion(t.version.text); err != nil {
		l.errs.add(t.version.pos, "%v", err)
	} else {
		spec.Version = v
	}
	if t.title != nil {
		spec.Title = t.title.text
	}
	spec.Description = t.description
	if spec.Description == "" {
		l.errs.add(d.namePos, "%s has no description: write the description the model reads as the doc comment's paragraphs after the first", d.typeName)
	}
	for key, w := range t.values {
		// err is this key's own: a value that is not parsed (owner, scopes)
		// must not report an error left from another key or the version.
		var err error
		switch key {
		case keySideEffect:
			spec.SideEffect, err = estate.ParseSideEffect(w.text)
		case keyClassification:
			spec.DataClassification, err = estate.ParseClassification(w.text)
		case keyLifecycle:
			spec.Lifecycle, err = estate.ParseLifecycle(w.text)
		case keyOwner:
			spec.Owner = w.text
		case keySupersededBy:
			spec.SupersededBy = w.text
		case keyScopes:
			spec.RequiredScopes = splitList(w.text)
		case keyTenants:
			spec.Tenants = splitList(w.text)
		}
		if err != nil {
			l.errs.add(w.pos, "%v", err)
		}
	}
	return spec
}

// splitList reads a comma-separated directive value; "" is the empty list.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// inputSchema finishes the reflected schema (see finish.go) and parses it,
// reporting each problem at the field or tag item that wrote it.
func (l *loader) inputSchema(d *declared, doc any) *schema.Schema {
	m, ok := doc.(map[string]any)
	if !ok {
		l.errs.add(d.namePos, "invopop/jsonschema reflected %s as %v, not a schema object", d.typeName, doc)
		return nil
	}
	before := len(l.errs.list)
	finishSchema(m, d, l.errs)
	if len(l.errs.list) > before {
		return nil
	}
	s, err := schema.Parse(m)
	if err == nil {
		return s
	}
	var errs schema.SchemaErrors
	if !errors.As(err, &errs) {
		l.errs.add(d.namePos, "inputSchema: %v", err)
		return nil
	}
	for _, e := range errs {
		where := "inputSchema"
		if len(e.Path) > 0 {
			where += e.Path.String()
		}
		l.errs.list = append(l.errs.list, &manifest.Error{Pos: l.errs.position(d.locate(e.Path)), Msg: where + ": " + e.Message})
	}
	return nil
}

// locator answers Version.Pos for a version declared by d: the directive
// for the version as a whole and its metadata, the struct and its fields
// and tags for the input schema.
func (l *loader) locator(d *declared) manifest.Locator {
	t := d.tool
	return func(field string, schemaPath ...string) manifest.Pos {
		at := t.at
		switch field {
		case "":
		case "name":
			at = t.name.pos
		case "version":
			at = t.version.pos
		case "title":
			if t.title != nil {
				at = t.title.pos
			}
		case "description":
			if t.descAt.IsValid() {
				at = t.descAt
			}
		case "inputSchema":
			at = d.locate(schemaPath)
		default:
			for key, f := range manifestField {
				if f == field {
					if w, ok := t.keys[key]; ok {
						at = w.pos
					}
				}
			}
		}
		return l.errs.position(at)
	}
}

// locate is where the part of the input schema at path is written: the
// struct for the whole schema, a property's field, the tag item that wrote
// a keyword; under $defs, the named type's declaration for the entry
// itself, and its fields and tags below it. A path through a reference
// (as the gate's, which follow values) goes on in the referred type.
func (d *declared) locate(path []string) token.Pos {
	n, decl := d.root, d.namePos
	if len(path) >= 2 && path[0] == "$defs" {
		def := d.defs[path[1]]
		if def == nil {
			return d.namePos
		}
		n, decl, path = def, def.decl, path[2:]
	}
	// at is the field the value belongs to: an element of a named list
	// type belongs to the field that uses the type.
	at, keyword := n.at, ""
walk:
	for i := 0; i < len(path); i++ {
		s := n.shape()
		switch seg := path[i]; {
		case seg == "properties" && i+1 < len(path) && s.props[path[i+1]] != nil:
			n = s.props[path[i+1]]
			i++
		case seg == "items" && s.kind == listNode, seg == "additionalProperties" && s.kind == mapNode:
			n = s.elem
		default:
			keyword = seg
			break walk
		}
		if n.at != nil {
			at = n.at
		}
	}
	if at == nil {
		return decl
	}
	if keyword != "" {
		key := keyword
		for k, kw := range tagKeywords {
			if kw == keyword {
				key = k
			}
		}
		if at.writes(key) {
			return at.itemAt(key + "=")
		}
	}
	return at.pos
}

// errorList collects problems at Go source positions.
type errorList struct {
	fset *token.FileSet
	cwd  string
	list manifest.List
}

func (e *errorList) add(pos token.Pos, format string, args ...any) {
	e.list = append(e.list, &manifest.Error{Pos: e.position(pos), Msg: fmt.Sprintf(format, args...)})
}

// position converts pos to a manifest position whose file is relative to
// the working directory, as the go command prints it.
func (e *errorList) position(pos token.Pos) manifest.Pos {
	p := e.fset.Position(pos)
	return manifest.Pos{File: e.rel(p.Filename), Line: p.Line, Col: p.Column}
}

func (e *errorList) rel(file string) string {
	if file == "" || e.cwd == "" || !filepath.IsAbs(file) {
		return file
	}
	if r, err := filepath.Rel(e.cwd, file); err == nil {
		return r
	}
	return file
}

// parse reads a go/packages error position ("file:line:col", "file:line",
// "file", or "-").
func (e *errorList) parse(s, source string) manifest.Pos {
	if s == "" || s == "-" {
		return manifest.Pos{File: source}
	}
	parts := strings.Split(s, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	p := manifest.Pos{File: e.rel(strings.Join(parts, ":"))}
	if len(nums) > 0 {
		p.Line = nums[0]
	}
	if len(nums) > 1 {
		p.Col = nums[1]
	}
	return p
}

func (e *errorList) sorted() manifest.List { return e.list.Sorted() }

// typeSpecs yields each type declared in file with its doc comment: the
// spec's own, or for a declaration of one type without parentheses
// ("// Doc\ntype T struct{}"), the declaration's.
func typeSpecs(file *ast.File) iter.Seq2[*ast.TypeSpec, *ast.CommentGroup] {
	return func(yield func(*ast.TypeSpec, *ast.CommentGroup) bool) {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && !gd.Lparen.IsValid() {
					doc = gd.Doc
				}
				if !yield(ts, doc) {
					return
				}
			}
		}
	}
}
