package gostruct

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

func TestParseTag(t *testing.T) {
	tests := []struct {
		tag  string
		want []tagItem
	}{
		{"", nil},
		{"required", []tagItem{{key: "required", flag: true}}},
		{"required,minimum=1,maximum=10", []tagItem{{key: "required", flag: true}, {key: "minimum", value: "1"}, {key: "maximum", value: "10"}}},
		// A comma after a backslash belongs to the value.
		{`pattern=^[0-9]{3\,}$,maxLength=9`, []tagItem{{key: "pattern", value: "^[0-9]{3,}$"}, {key: "maxLength", value: "9"}}},
		// An unescaped one cuts the value: the rest is an item of its own.
		{`pattern=^[0-9]{3,}$`, []tagItem{{key: "pattern", value: "^[0-9]{3"}, {key: "}$", flag: true}}},
		// "=" inside a value stays in the value.
		{"description=a=b", []tagItem{{key: "description", value: "a=b"}}},
		{",title=x", []tagItem{{key: "", flag: true}, {key: "title", value: "x"}}},
	}
	for _, tt := range tests {
		if got := parseTag(tt.tag); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseTag(%q) = %+v, want %+v", tt.tag, got, tt.want)
		}
	}
}

// parseDoc parses src and returns the doc comment of its first type.
func parseDoc(t *testing.T, src string) (*token.FileSet, *ast.CommentGroup) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "args.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			return fset, gd.Doc
		}
	}
	t.Fatal("no type")
	return nil, nil
}

func TestParseDirectives(t *testing.T) {
	const src = `package p

// LookupArgs are the arguments of payments.lookup.
//
// Return the status, amount and counterparties
// of a payment by its reference.
//
// Legs are listed on request.
//
//mcpgen:tool payments.lookup@1.2.0 sideEffect=read scopes=a.read,b.read classification=confidential owner=team lifecycle=deprecated
//mcpgen:title   Look up a payment
type LookupArgs struct{}
`
	fset, doc := parseDoc(t, src)
	errs := &errorList{fset: fset}
	d := parseDirectives(doc, "LookupArgs", errs)
	if len(errs.list) > 0 || d == nil {
		t.Fatalf("errors: %v", errs.list)
	}
	pos := func(p token.Pos) string { return errs.position(p).String() }
	if d.name.text != "payments.lookup" || pos(d.name.pos) != "args.go:10:15" {
		t.Errorf("name %q at %s", d.name.text, pos(d.name.pos))
	}
	if d.version.text != "1.2.0" || pos(d.version.pos) != "args.go:10:31" {
		t.Errorf("version %q at %s", d.version.text, pos(d.version.pos))
	}
	if w := d.keys[keyScopes]; w.text != "a.read,b.read" || pos(w.pos) != "args.go:10:53" || pos(d.values[keyScopes].pos) != "args.go:10:60" {
		t.Errorf("scopes %q at %s, value at %s", w.text, pos(w.pos), pos(d.values[keyScopes].pos))
	}
	if d.title == nil || d.title.text != "Look up a payment" || pos(d.title.pos) != "args.go:11:18" {
		t.Errorf("title %+v", d.title)
	}
	// The first paragraph is for Go readers; the rest is the description,
	// its lines joined.
	want := "Return the status, amount and counterparties of a payment by its reference.\n\nLegs are listed on request."
	if d.description != want || pos(d.descAt) != "args.go:5:4" {
		t.Errorf("description %q at %s, want %q at args.go:5:4", d.description, pos(d.descAt), want)
	}
}

func TestParseDirectivesErrors(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
	}{
		{"//mcpgen:tool\n", []string{"args.go:3:1: mcpgen:tool needs NAME@VERSION"}},
		{"//mcpgen:tool a@1.0.0 sideEffect=read owner=o\n", []string{"args.go:3:1: mcpgen:tool a@1.0.0 is missing required key classification"}},
		{"//mcpgen:tool a@1.0.0 sideEffect=read classification=public owner=o Owner=p\n", []string{`args.go:3:69: unknown key "Owner" (did you mean owner?)`}},
		{"//mcpgen:tool a@1.0.0 sideEffect=read classification=public owner=o dataClassification=x\n",
			[]string{`args.go:3:69: unknown key "dataClassification" (the manifest's dataClassification is classification here)`}},
		{"//mcpgen:tool a@1.0.0 sideEffect=read classification=public owner=o\n//mcpgen:tool b@1.0.0 sideEffect=read classification=public owner=o\n",
			[]string{"args.go:4:1: A declares one tool version; it already declares a@1.0.0"}},
		{"//mcpgen:tool a@1.0.0 sideEffect=read classification=public owner=o\n//mcpgen:title\n", []string{"args.go:4:1: mcpgen:title is empty"}},
	}
	for _, tt := range tests {
		fset, doc := parseDoc(t, "package p\n\n"+tt.doc+"type A struct{}\n")
		errs := &errorList{fset: fset}
		parseDirectives(doc, "A", errs)
		var got []string
		for _, e := range errs.list {
			got = append(got, e.Error())
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q: errors %q, want %q", tt.doc, got, tt.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tt.want[i]) {
				t.Errorf("%q: error %q, want %q", tt.doc, got[i], tt.want[i])
			}
		}
	}
}
