package gen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// ErrNoModule is the error, wrapped, of a directory that is in no Go
// module: no go.mod in it or above it.
var ErrNoModule = errors.New("no go.mod")

// ImportPath is the import path of the package in directory dir (which
// need not exist yet): the path of the module whose go.mod is in dir or
// the nearest directory above it, joined with dir's path inside the
// module.
func ImportPath(dir string) (string, error) {
	mod, err := findModule(dir)
	if err != nil {
		return "", err
	}
	return mod.importPath(dir)
}

// goModule is the Go module a directory is in.
type goModule struct {
	root  string // the absolute path of the directory holding go.mod
	path  string // the module path
	gomod []byte
}

// findModule finds the module of dir (which need not exist yet): the go.mod
// in dir or the nearest directory above it.
func findModule(dir string) (*goModule, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for root := abs; ; {
		name := filepath.Join(root, "go.mod")
		data, err := os.ReadFile(name)
		switch {
		case err == nil:
			mod := modfile.ModulePath(data)
			if mod == "" {
				return nil, fmt.Errorf("%s declares no module path", name)
			}
			return &goModule{root: root, path: mod, gomod: data}, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		parent := filepath.Dir(root)
		if parent == root {
			return nil, fmt.Errorf("%w in %s or any directory above it", ErrNoModule, dir)
		}
		root = parent
	}
}

// importPath is the import path of the package in dir, a directory inside
// the module.
func (m *goModule) importPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(m.root, abs)
	if err != nil {
		return "", err
	}
	return path.Join(m.path, filepath.ToSlash(rel)), nil
}

// hasTool reports whether the module's go.mod declares pkg a tool (a
// "tool" directive, which `go get -tool` writes), so that `go tool NAME`
// runs it at the version the module requires. A go.mod that does not
// parse has none: the go command will say what is wrong with it.
func (m *goModule) hasTool(pkg string) bool {
	f, err := modfile.Parse("go.mod", m.gomod, nil)
	if err != nil {
		return false
	}
	for _, t := range f.Tool {
		if t.Path == pkg {
			return true
		}
	}
	return false
}
