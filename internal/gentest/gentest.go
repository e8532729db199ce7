// Package gentest holds what the tests of generated packages share: the
// check that the committed code is what the generator writes now.
package gentest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// SameFiles fails t unless directory committed holds exactly the files of
// directory fresh (a package just generated), byte for byte. how is the
// command that regenerates the committed files, for the failure message.
func SameFiles(t testing.TB, fresh, committed, how string) {
	t.Helper()
	freshNames, committedNames := names(t, fresh), names(t, committed)
	if !slices.Equal(freshNames, committedNames) {
		t.Fatalf("the generator writes %q, %s holds %q: %s", freshNames, committed, committedNames, how)
	}
	for _, name := range freshNames {
		want, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what the generator writes now: %s", filepath.Join(committed, name), how)
		}
	}
}

// names lists the files of dir and below it (a package's shards), as
// paths relative to dir, sorted.
func names(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		out = append(out, rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
