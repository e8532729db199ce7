package manifest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestLoadDirErrors loads each directory of testdata/errors and compares
// every reported problem, in order, with its exact file:line:col: message.
func TestLoadDirErrors(t *testing.T) {
	tests := []struct {
		dir  string
		want []string // relative to the case's directory; {dir} is that directory
	}{
		{"bad-name", []string{
			`tool.yaml:1:7: name "payments lookup" has character ' ' (allowed: A-Z a-z 0-9 _ - .)`,
			"tool.yaml:7:12: owner is empty",
			"tool.yaml:8:37: required scopes contain an empty scope",
			"tool.yaml:9:15: tenants contain an empty tenant",
		}},
		{"bad-pattern", []string{
			"tool.yaml:13:11: inputSchema/properties/reference/pattern: pattern \"^PMT-(?!0)\\\\d+$\" does not compile with Go's regexp (RE2): error parsing regexp: invalid or unsupported Perl syntax: `(?!`; look-aheads are taken only at the start of a pattern anchored with ^",
		}},
		{"bad-semver", []string{
			`tool.yaml:3:14: not a version "1.0": want X.Y.Z (invalid semantic version)`,
			`tool.yaml:9:14: not a version "v2.0.0": want X.Y.Z (invalid characters in version)`,
			`tool.yaml:15:14: not a version "3.0.0-rc.1": want X.Y.Z without pre-release or build metadata`,
		}},
		{"bad-superseded-by", []string{
			`tool.yaml:9:19: supersededBy "payments.lookup" is not name@X.Y.Z`,
			`tool.yaml:17:19: supersededBy "payments.lookup@9.0.0" names a version that no manifest in this directory declares`,
			`tool.yaml:24:19: supersededBy "payments.lookup@3.0.0" names the version itself`,
			`tool.yaml:31:19: supersededBy "payments.lookup@4.0" is not name@X.Y.Z: not a version "4.0": want X.Y.Z (invalid semantic version)`,
			`tool.yaml:39:19: supersededBy "payments.lookup@1.0.0" names an older version (a successor is newer than 5.0.0)`,
			`tool.yaml:47:19: supersededBy "payments.search@7.0.0" names another tool (a successor is a newer version of payments.lookup)`,
		}},
		{"duplicate-tool", []string{
			`b.json:2:11: tool "payments.lookup" is also declared at {dir}/a.yaml:1:7`,
		}},
		{"duplicate-version", []string{
			"tool.yaml:9:14: version 1.0.0 is declared twice (first at line 3)",
		}},
		{"field-types", []string{
			"empty.yaml:1:1: file holds no YAML document (want a manifest)",
			"list.yaml:1:1: a tool manifest must be a mapping, not a list",
			"null.yaml:1:1: a tool manifest must be a mapping, not null",
			"tool.yaml:4:12: title must be a string, not a list",
			"tool.yaml:7:21: requiredScopes must be a list of strings, not a string",
			"tool.yaml:10:26: tenants[1] must be a string, not a number",
			"two.yaml:3:1: a manifest file holds one YAML document; a second one starts here",
			"versions.yaml:2:11: versions is empty: a tool has at least one version",
		}},
		{"json-positions", []string{
			`tool.json:13:43: inputSchema/properties/reference/format: format "phone" is not one the contract language asserts (` +
				strings.Join(schema.AssertedFormats(), ", ") + `); to serve it as an annotation that is not checked, list it in the manifest's formatAnnotations`,
			"tool.json:14:58: inputSchema/properties/count/maxLength: maxLength must be a non-negative integer",
		}},
		{"missing-required", []string{
			`noversions.yaml:1:1: a tool manifest is missing required field "versions"`,
			`tool.yaml:3:5: a version is missing required field "dataClassification"`,
			`tool.yaml:3:5: a version is missing required field "owner"`,
			`tool.yaml:3:5: a version is missing required field "sideEffect"`,
			`tool.yaml:6:5: a version is missing required field "version"`,
		}},
		{"required-not-property", []string{
			`tool.yaml:14:11: inputSchema/required: required property "as_of" is not declared in properties, and additionalProperties is false: no value can have it`,
		}},
		{"schema-not-object", []string{
			`tool.yaml:9:7: input schema must have type "object"`,
			`tool.yaml:16:5: input schema must have type "object"`,
			`tool.yaml:18:20: output schema must have type "object"`,
			"tool.yaml:24:18: inputSchema must be a mapping (a JSON Schema object), not a list",
		}},
		{"server", []string{
			`server.yaml:1:1: a server file is missing required field "version"`,
			`server.yaml:2:1: unknown field "colour" in a server file (known: $schema, name, version, resources, prompts)`,
			`server.yaml:8:10: resource "policy://sanctions/hold-release" is declared twice (first at line 4)`,
			`server.yaml:11:10: uri "not a uri" is not absolute (it needs a scheme, as in policy://sanctions/hold-release)`,
			`server.yaml:13:15: mimeType "text/" is not a media type: mime: expected token after slash`,
			`server.yaml:15:5: unknown field "tenant" in a resource (did you mean "tenants"?)`,
			`server.yaml:22:15: argument "reference" is declared twice (first at line 20)`,
			"server.yaml:23:15: template names {account}, which is not a declared argument",
			"server.yaml:25:17: arguments[0] must be a mapping {name, description, required}, not a string",
			`server.yaml:27:11: prompt "investigate" is declared twice (first at line 17)`,
			`server.yaml:29:5: unknown field "title" in a prompt (known: name, description, arguments, template)`,
			`server.yaml:32:15: argument name "1st" is not an identifier (letters, digits and _, not starting with a digit), so no template could name it`,
			`server.yaml:33:9: unknown field "descripton" in a prompt argument (did you mean "description"?)`,
			"server.yaml:34:19: required must be a boolean, not a string",
		}},
		{"syntax-json", []string{
			"tool.json:4:25: JSON syntax error: invalid character '}' looking for beginning of object key string",
			"truncated.json:3:16: JSON syntax error: unexpected end of file",
		}},
		{"syntax-yaml", []string{
			"flow.yaml:2:1: YAML syntax error: did not find expected ',' or '}'",
			"tool.yaml:5:6: YAML syntax error: mapping values are not allowed in this context",
		}},
		{"two-servers", []string{
			"server.yaml:1:1: a directory has one server file; {dir}/server.json is one already",
		}},
		{"unknown-field", []string{
			`tool.yaml:2:1: unknown field "nmae" in a tool manifest (did you mean "name"?)`,
			`tool.yaml:6:5: unknown field "sideEfect" in a version (did you mean "sideEffect"?)`,
			`tool.yaml:10:5: unknown field "colour" in a version (known: version, title, description, sideEffect, requiredScopes, dataClassification, owner, tenants, lifecycle, supersededBy, formatAnnotations, inputSchema, outputSchema)`,
		}},
		{"unknown-values", []string{
			`tool.yaml:5:17: unknown side effect "reed" (want read, write_idempotent, write_non_idempotent or irreversible)`,
			`tool.yaml:6:25: unknown data classification "secret" (want public, internal, confidential or restricted)`,
			`tool.yaml:7:16: unknown lifecycle "gone" (want preview, active, deprecated or retired)`,
		}},
		{"unsupported-keyword", []string{
			`tool.yaml:13:11: inputSchema/properties/as_of/nullable: keyword "nullable" is outside the contract language: nullable is OpenAPI 3.0's; write type: [T, "null"] or anyOf: [{...}, {"type": "null"}]`,
			`tool.yaml:14:7: inputSchema/$dynamicRef: keyword "$dynamicRef" is outside the contract language: dynamic references are outside the contract language; use $ref`,
		}},
		{"wire-name", []string{
			`b.yaml:2:11: wireName "files_read" is also the name tool "files_read" is published by ({dir}/a.yaml:1:7)`,
			`c.yaml:2:11: wireName is the tool's name (leave it out)`,
			`d.yaml:2:11: wireName "bell\a" has a control character`,
		}},
		{"yaml-only", []string{
			"tool.yaml:3:5: anchor &v1: anchors and aliases are not supported (each version states its contract in full)",
			"tool.yaml:12:9: key 200 is a number, not a string (keys are strings in JSON; quote it)",
			"tool.yaml:13:41: .inf is not a JSON number (JSON has no NaN or infinity)",
			"tool.yaml:13:56: 0x10 is not written as a JSON number (decimal digits, an optional fraction and exponent; no 0x, +, leading dot or _)",
			"tool.yaml:13:74: +5 is not written as a JSON number (decimal digits, an optional fraction and exponent; no 0x, +, leading dot or _)",
			"tool.yaml:14:39: tag !!binary is not supported: a manifest holds JSON values only",
			`tool.yaml:16:9: key "day" is repeated (first at line 15)`,
			"tool.yaml:17:40: tag !custom is not supported: a manifest holds JSON values only",
			"tool.yaml:18:9: a key must be a string, not a list",
			"tool.yaml:19:5: merge keys (<<) are not supported (each version states its contract in full)",
			"tool.yaml:26:5: alias *v1: anchors and aliases are not supported (each version states its contract in full)",
		}},
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "errors"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		names = append(names, d.Name())
	}
	var tested []string
	for _, tt := range tests {
		tested = append(tested, tt.dir)
	}
	if !slices.Equal(names, tested) {
		t.Errorf("testdata/errors holds %v, the table tests %v", names, tested)
	}

	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "errors", tt.dir)
			e, err := LoadDir(dir)
			if e != nil {
				t.Errorf("LoadDir returned an estate along with its errors")
			}
			var list List
			if !errors.As(err, &list) {
				t.Fatalf("LoadDir error = %v (%T), want a List", err, err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, dir+string(filepath.Separator)+strings.ReplaceAll(w, "{dir}", dir))
			}
			if got := strings.Split(list.Error(), "\n"); !slices.Equal(got, want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// validTool is a minimal valid manifest for in-memory cases.
const validTool = `name: t.ok
versions:
  - version: 1.0.0
    description: A tool.
    sideEffect: read
    dataClassification: public
    owner: team
    inputSchema: {type: object}
`

func TestLoadFS(t *testing.T) {
	tests := []struct {
		name  string
		files fstest.MapFS
		want  []string // nil: loads
	}{
		{"no manifests", fstest.MapFS{"README.md": {Data: []byte("# hi")}},
			[]string{"m: no tool manifests (*.yaml, *.yml, *.json) in this directory"}},
		{"only a server file", fstest.MapFS{"server.yml": {Data: []byte("name: s\nversion: '1'\n")}},
			[]string{"m: no tool manifests (*.yaml, *.yml, *.json) in this directory"}},
		{"other files are not read", fstest.MapFS{
			"t.yml":          {Data: []byte(validTool)},
			"notes.txt":      {Data: []byte("not: [yaml")},
			".hidden.yaml":   {Data: []byte("not: [yaml")},
			"sub/other.yaml": {Data: []byte("not: [yaml")},
		}, nil},
		{"invalid UTF-8", fstest.MapFS{"t.yaml": {Data: []byte("name: t.ok\nversions: \xff\n")}},
			[]string{"m/t.yaml:2:11: file is not valid UTF-8"}},
		{"JSON with a byte order mark", fstest.MapFS{"t.json": {Data: []byte("\uFEFF" + `{"name": "t.ok", "versions": [{"version": "1.0.0", "description": "d",
 "sideEffect": "read", "dataClassification": "public", "owner": "o", "inputSchema": {"type": 1}}]}`)}},
			[]string{"m/t.json:2:86: inputSchema/type: type must be a string or an array of strings"}},
		{"JSON syntax after a byte order mark", fstest.MapFS{"t.json": {Data: []byte("\uFEFF{\"name\" \"t\"}")}},
			[]string{"m/t.json:1:9: JSON syntax error: invalid character '\"' after object key"}},
		{"YAML error on the first line", fstest.MapFS{"t.yaml": {Data: []byte("name: @t\n")}},
			[]string{"m/t.yaml:1:1: YAML syntax error: found character that cannot start any token"}},
		{"unknown anchor", fstest.MapFS{"t.yaml": {Data: []byte("name: t\nversions: *nope\n")}},
			[]string{"m/t.yaml:2:11: alias *nope names no anchor (anchors and aliases are not supported in manifests)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := LoadFS(tt.files, "m")
			if tt.want == nil {
				if err != nil {
					t.Fatalf("LoadFS: %v", err)
				}
				if len(e.Tools) != 1 || e.Tools[0].File != filepath.Join("m", "t.yml") {
					t.Errorf("tools = %v, want the one in m/t.yml", e.Tools)
				}
				return
			}
			if e != nil {
				t.Errorf("LoadFS returned an estate along with its errors")
			}
			var list List
			if !errors.As(err, &list) {
				t.Fatalf("LoadFS error = %v (%T), want a List", err, err)
			}
			if got := strings.Split(list.Error(), "\n"); !slices.Equal(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestLoadDirMissing(t *testing.T) {
	_, err := LoadDir(filepath.Join("testdata", "no-such-dir"))
	var list List
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pos != (Pos{File: filepath.Join("testdata", "no-such-dir")}) {
		t.Fatalf("LoadDir of a missing directory: %v, want one error about the directory", err)
	}
}

func TestListPrint(t *testing.T) {
	l := List{
		{Pos: Pos{"a.yaml", 3, 9}, Msg: "first"},
		{Pos: Pos{File: "dir"}, Msg: "second"},
	}
	var b strings.Builder
	if err := l.Print(&b); err != nil {
		t.Fatal(err)
	}
	if want := "a.yaml:3:9: first\ndir: second\n"; b.String() != want {
		t.Errorf("Print wrote %q, want %q", b.String(), want)
	}
	var e *Error
	if !errors.As(error(l), &e) || e.Msg != "first" {
		t.Errorf("errors.As(List, *Error) = %v, want the first problem", e)
	}
}

func TestListSort(t *testing.T) {
	l := List{
		{Pos: Pos{"b.yaml", 1, 1}, Msg: "z"},
		{Pos: Pos{"a.yaml", 10, 1}, Msg: "y"},
		{Pos: Pos{"a.yaml", 9, 20}, Msg: "x"},
		{Pos: Pos{"a.yaml", 9, 3}, Msg: "w"},
		{Pos: Pos{"a.yaml", 9, 3}, Msg: "v"},
		{Pos: Pos{"a.yaml", 9, 3}, Msg: "v"},
	}.sort()
	want := "a.yaml:9:3: v\na.yaml:9:3: w\na.yaml:9:20: x\na.yaml:10:1: y\nb.yaml:1:1: z"
	if l.Error() != want {
		t.Errorf("sorted:\n%s\nwant:\n%s", l.Error(), want)
	}
}

// TestYAMLScalars checks how YAML's plain scalars become JSON values: the
// text a timestamp or a merge key spells, YAML 1.2 booleans and nulls, and
// numbers that keep their literal.
func TestYAMLScalars(t *testing.T) {
	const file = `name: t.ok
versions:
  - version: 1.0.0
    title: 2026-03-12
    description: <<
    sideEffect: read
    dataClassification: public
    owner: yes
    inputSchema:
      type: object
      properties:
        a: {default: True, examples: [~, null, 1.5e3, -0, 10, !!str 12, !!float "2.50"]}
`
	e, err := LoadFS(fstest.MapFS{"t.yaml": {Data: []byte(file)}}, "m")
	if err != nil {
		t.Fatal(err)
	}
	v := e.Tools[0].Versions[0]
	if v.Title != "2026-03-12" || v.Description != "<<" || v.Owner != "yes" {
		t.Errorf("title %q description %q owner %q", v.Title, v.Description, v.Owner)
	}
	a := v.InputSchema.Property("a")
	want := []any{nil, nil, json.Number("1.5e3"), json.Number("-0"), json.Number("10"), "12", json.Number("2.50")}
	if def, _ := a.Default(); def != true || !reflect.DeepEqual(a.Examples(), want) {
		t.Errorf("default %#v examples %#v, want true %#v", def, a.Examples(), want)
	}

	_, err = LoadFS(fstest.MapFS{"t.yaml": {Data: []byte(strings.Replace(file, "owner: yes", "owner:", 1))}}, "m")
	if want := "m/t.yaml:8:11: owner must be a string, not null"; err == nil || err.Error() != want {
		t.Errorf("null owner: %v, want %s", err, want)
	}
}

// TestLoadData: one manifest from its bytes loads as LoadFS loads it from
// a directory, positions named after dir and name; a server file and a
// name that is not a manifest's are refused.
func TestLoadData(t *testing.T) {
	file := "name: t.do\nversions:\n  - version: 1.0.0\n    description: Do.\n    sideEffect: read\n    dataClassification: public\n    owner: o\n    inputSchema: {type: object}\n"
	tool, err := LoadData("m", "t.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if tool.Name != "t.do" || len(tool.Versions) != 1 || tool.Pos.File != filepath.Join("m", "t.yaml") {
		t.Errorf("LoadData = %s with %d versions at %s", tool.Name, len(tool.Versions), tool.Pos)
	}
	for name, want := range map[string]string{
		"server.yaml": "m/server.yaml: a server file describes no tool",
		"t.txt":       "m/t.txt: a manifest is a *.yaml, *.yml or *.json file",
		"sub/t.yaml":  "m/sub/t.yaml: a manifest is a *.yaml, *.yml or *.json file",
	} {
		if _, err := LoadData("m", name, []byte(file)); err == nil || err.Error() != want {
			t.Errorf("LoadData(%s) = %v, want %s", name, err, want)
		}
	}
	if _, err := LoadData("m", "t.yaml", []byte(strings.Replace(file, "owner: o", "owner:", 1))); err == nil {
		t.Error("LoadData accepted a manifest without an owner")
	}
}
