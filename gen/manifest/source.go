package manifest

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// Locator says where a part of a version is written when the version comes
// from somewhere other than a manifest file: a Go struct and its directive
// comment, or an estate record. It answers the questions Version.Pos
// answers (the field, then a schema path under "inputSchema" or
// "outputSchema"), so that every later stage (the generator's Go-name
// check, the breaking-change gate, mcpgen diff) reports such a version at
// its own file:line:col without knowing where it came from.
type Locator func(field string, schemaPath ...string) Pos

// NewVersion returns the version spec describes, written where at says. The
// caller has checked each field where it is written (a side effect, a
// classification, a schema); NewEstate checks the version as a whole.
func NewVersion(spec estate.ToolSpec, at Locator) *Version {
	life := spec.Lifecycle
	if life == "" {
		life = estate.Active
	}
	return &Version{
		Name: spec.Name, Version: spec.Version, Title: spec.Title, Description: spec.Description,
		SideEffect: spec.SideEffect, RequiredScopes: slices.Clone(spec.RequiredScopes),
		DataClassification: spec.DataClassification, Owner: spec.Owner, Tenants: slices.Clone(spec.Tenants),
		Lifecycle: life, SupersededBy: spec.SupersededBy,
		InputSchema: spec.InputSchema, OutputSchema: spec.OutputSchema,
		File:   at("").File,
		locate: at,
	}
}

// NewEstate assembles an estate from versions that were not read from
// manifest files (see NewVersion); dir names where they come from, as
// LoadDir's dir does, and server is the server file, or nil. Versions of one
// name form one tool, which is written where its first version names it.
//
// It checks what the manifest loader checks across versions: each version
// is a valid spec, no version is declared twice, and every supersededBy
// names a version of the estate. Like LoadDir it returns every problem, as
// a sorted List, and no estate with them.
func NewEstate(dir string, server *Server, versions []*Version) (*Estate, error) {
	var errs List
	e := &Estate{Dir: dir, Server: server}
	byName := map[string]*Tool{}
	first := map[string]*Version{}
	for _, v := range versions {
		if err := v.Spec().Validate(); err != nil {
			errs = append(errs, &Error{Pos: v.Pos(""), Msg: err.Error()})
			continue
		}
		if prev, dup := first[v.Key()]; dup {
			errs = append(errs, &Error{Pos: v.Pos("version"), Msg: fmt.Sprintf("%s is also declared at %s", v.Key(), prev.Pos(""))})
			continue
		}
		first[v.Key()] = v
		t := byName[v.Name]
		if t == nil {
			t = &Tool{Name: v.Name, File: v.File, Pos: v.Pos("name")}
			byName[v.Name] = t
			e.Tools = append(e.Tools, t)
		}
		v.tool = t
		t.Versions = append(t.Versions, v)
	}
	errs = append(errs, e.link()...)
	if len(errs) > 0 {
		return nil, errs.sort()
	}
	return e, nil
}

// valuePos is where the value of a field is written (Pos gives its key).
func (v *Version) valuePos(field string) Pos {
	if v.locate != nil {
		return v.locate(field)
	}
	p := v.fields[field].value
	return Pos{v.File, p.Line, p.Column}
}

// LoadServerFile loads a server file on its own: a Go package that declares
// tool versions in structs can carry one beside them.
func LoadServerFile(file string) (*Server, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, List{{Pos: Pos{File: file}, Msg: "cannot read the file: " + pathError(err)}}
	}
	d := &decoder{file: file}
	var s *Server
	if root := d.readFile(data, filepath.Ext(file) == ".json"); root != nil {
		s = d.server(root)
	}
	if len(d.errs) > 0 {
		return nil, d.errs.sort()
	}
	return s, nil
}

// FindServerFile returns the server file in dir (server.yaml, server.yml or
// server.json), "" when there is none, or an error when there are several.
func FindServerFile(dir string) (string, error) {
	var found []string
	for _, ext := range manifestExts {
		file := filepath.Join(dir, serverFile+ext)
		if st, err := os.Stat(file); err == nil && !st.IsDir() {
			found = append(found, file)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	slices.SortFunc(found, cmp.Compare[string])
	return "", List{{Pos: Pos{File: found[1]}, Msg: "a directory has one server file; " + found[0] + " is one already"}}
}

// Sorted returns the problems sorted as LoadDir sorts them (by file, line,
// column and message), without exact repeats: a source other than
// manifest files reports its problems in the same order.
func (l List) Sorted() List { return slices.Clone(l).sort() }
