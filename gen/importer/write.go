package importer

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes the manifests (and the server file) into dir, which must
// not exist yet or be empty: an import starts a directory of manifests,
// and after it the manifests are the contract (Check compares a server
// with them; importing again over them would reset every tool to 1.0.0).
//
// Nothing is half-written: the files go into a temporary directory beside
// dir, which is renamed to dir once every file is written, so dir either
// holds the whole import or is as it was.
func (r *Result) Write(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s already holds files: import writes a new directory of manifests (to compare a server with existing manifests, use -check)", dir)
	} else if err != nil && !os.IsNotExist(err) {
		return err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".import-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	files := r.Files
	if r.Server != nil {
		files = append(files[:len(files):len(files)], *r.Server)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	// An empty dir is replaced; os.Rename replaces only an empty
	// directory on some systems and none on others, so remove it first.
	if _, err := os.Stat(dir); err == nil {
		if err := os.Remove(dir); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	done = true
	return nil
}
