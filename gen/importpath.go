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

// ImportPath is the import path of the package in directory dir (which
// need not exist yet): the path of the module whose go.mod is in dir or
// the nearest directory above it, joined with dir's path inside the
// module.
func ImportPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for root := abs; ; {
		data, err := os.ReadFile(filepath.Join(root, "go.mod"))
		switch {
		case err == nil:
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s declares no module path", filepath.Join(root, "go.mod"))
			}
			rel, err := filepath.Rel(root, abs)
			if err != nil {
				return "", err
			}
			return path.Join(mod, filepath.ToSlash(rel)), nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("no go.mod in %s or any directory above it", dir)
		}
		root = parent
	}
}
