package manifest

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// manifestExts are the extensions of the files LoadDir reads.
var manifestExts = []string{".yaml", ".yml", ".json"}

// serverFile is the base name (without extension) of the server file.
const serverFile = "server"

// LoadDir loads the manifests in dir: every *.yaml, *.yml and *.json file
// directly in it (not in subdirectories, and not hidden files) is one tool,
// except server.yaml (or .yml, .json), which describes the server.
//
// The error, when there is one, is a List of every problem in every file,
// each at its file:line:col, sorted; paths start with dir as given. Nothing
// is returned with it: an estate with a known problem is not an estate.
func LoadDir(dir string) (*Estate, error) {
	root := dir
	if root == "" {
		root = "."
	}
	return LoadFS(os.DirFS(root), dir)
}

// LoadFS is LoadDir reading from the root of fsys; dir is what file names
// in errors and in the model start with.
func LoadFS(fsys fs.FS, dir string) (*Estate, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, List{{Pos: Pos{File: dir}, Msg: "cannot read the directory: " + pathError(err)}}
	}
	var files []source
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || strings.HasPrefix(name, ".") || !slices.Contains(manifestExts, path.Ext(name)) {
			continue
		}
		data, err := fs.ReadFile(fsys, name)
		files = append(files, source{name: name, data: data, err: err})
	}
	return load(dir, files)
}

// LoadData loads one tool manifest from its bytes, as if it were the only
// file of directory dir: name is its base name, whose extension says
// whether it is YAML or JSON. The importer uses it for the manifests it
// renders in memory, and LoadFile for a file read on its own; a server
// file is refused, as it describes no tool.
func LoadData(dir, name string, data []byte) (*Tool, error) {
	file := filepath.Join(dir, name)
	ext := path.Ext(name)
	switch {
	case name != filepath.Base(name) || !slices.Contains(manifestExts, ext):
		return nil, List{{Pos: Pos{File: file}, Msg: "a manifest is a *.yaml, *.yml or *.json file"}}
	case strings.TrimSuffix(name, ext) == serverFile:
		return nil, List{{Pos: Pos{File: file}, Msg: "a server file describes no tool"}}
	}
	e, err := load(dir, []source{{name: name, data: data}})
	if err != nil {
		return nil, err
	}
	return e.Tools[0], nil
}

// source is one manifest file to load: its base name and its bytes, or why
// they could not be read.
type source struct {
	name string
	data []byte
	err  error
}

// load decodes the files of directory dir into an estate; LoadFS and
// LoadData differ only in where the bytes come from.
func load(dir string, files []source) (*Estate, error) {
	var errs List
	e := &Estate{Dir: dir}
	var serverAt string
	for _, f := range files {
		ext := path.Ext(f.name)
		file := filepath.Join(dir, f.name)
		if f.err != nil {
			errs = append(errs, &Error{Pos: Pos{File: file}, Msg: "cannot read the file: " + pathError(f.err)})
			continue
		}
		d := &decoder{file: file}
		root := d.readFile(f.data, ext == ".json")
		switch {
		case root == nil:
		case strings.TrimSuffix(f.name, ext) == serverFile:
			if serverAt != "" {
				d.errorf(root, "a directory has one server file; %s is one already", serverAt)
				break
			}
			serverAt = file
			e.Server = d.server(root)
		default:
			if t := d.tool(root); t != nil {
				e.Tools = append(e.Tools, t)
			}
		}
		errs = append(errs, d.errs...)
	}
	if len(e.Tools) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{Pos: Pos{File: dir}, Msg: "no tool manifests (*.yaml, *.yml, *.json) in this directory"})
	}
	errs = append(errs, e.link()...)
	if len(errs) > 0 {
		return nil, errs.sort()
	}
	return e, nil
}

// link checks what spans files: a tool name declared in one file only, and
// every supersededBy naming a version that exists. It sorts tools by name
// and versions ascending.
func (e *Estate) link() List {
	var errs List
	byName := map[string]*Tool{}
	tools := e.Tools[:0]
	for _, t := range e.Tools { // in file order
		if t.Name == "" {
			continue
		}
		if first, dup := byName[t.Name]; dup {
			errs = append(errs, &Error{Pos: t.Pos, Msg: fmt.Sprintf("tool %q is also declared at %s", t.Name, first.Pos)})
			continue
		}
		byName[t.Name] = t
		tools = append(tools, t)
	}
	e.Tools = tools
	// A wire name is a name clients call: it may be no other tool's name
	// or wire name, or a call could reach two tools.
	published := map[string]*Tool{}
	for _, t := range e.Tools {
		published[t.Name] = t
	}
	for _, t := range e.Tools {
		if t.WireName == "" {
			continue
		}
		if other, dup := published[t.WireName]; dup {
			errs = append(errs, &Error{Pos: t.WirePos, Msg: fmt.Sprintf("wireName %q is also the name tool %q is published by (%s)", t.WireName, other.Name, other.Pos)})
			continue
		}
		published[t.WireName] = t
	}
	slices.SortFunc(e.Tools, func(a, b *Tool) int { return cmp.Compare(a.Name, b.Name) })
	for _, t := range e.Tools {
		slices.SortFunc(t.Versions, func(a, b *Version) int { return a.Version.Compare(b.Version) })
	}
	for _, t := range e.Tools {
		for _, v := range t.Versions {
			if v.SupersededBy == "" {
				continue
			}
			err := estate.CheckSuccessor(v.Spec(), versionNumbers(t))
			switch {
			case errors.Is(err, estate.ErrNoSuccessor):
				errs = append(errs, &Error{
					Pos: v.valuePos("supersededBy"),
					Msg: fmt.Sprintf("supersededBy %q names a version that no manifest in this directory declares", v.SupersededBy),
				})
			case err != nil:
				errs = append(errs, &Error{Pos: v.valuePos("supersededBy"), Msg: err.Error()})
			}
		}
	}
	return errs
}

// versionNumbers returns the versions t declares.
func versionNumbers(t *Tool) []estate.Version {
	out := make([]estate.Version, len(t.Versions))
	for i, v := range t.Versions {
		out[i] = v.Version
	}
	return out
}

// pathError is what went wrong with a file, without the name the file
// system gave it (relative to its root, not to what the user named).
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// LoadFile loads one tool manifest file on its own (mcpgen diff compares two
// files). A server file is refused: it describes no tool.
func LoadFile(file string) (*Tool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, List{{Pos: Pos{File: file}, Msg: "cannot read the file: " + pathError(err)}}
	}
	return LoadData(filepath.Dir(file), filepath.Base(file), data)
}
