package gen

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/record"
)

// generated is a file's contents as mcpgen writes a Go file, so that
// staleFiles counts it as the generator's own.
func generated(body string) []byte {
	return []byte("// " + emit.Header + "\n\npackage bank\n\n// " + body + "\n")
}

// firstRun and secondRun are two runs' outputs into one directory: the
// second changes a file, leaves one as it is, adds one in a new shard
// directory, drops a shard's file (stale, so removed) and changes the
// record, which goes last.
var (
	firstRun = []emit.File{
		{Name: "server.gen.go", Data: generated("server 1")},
		{Name: "types.gen.go", Data: generated("types 1")},
		{Name: "internal/shard0/shard.gen.go", Data: generated("shard 0")},
		{Name: record.FileName, Data: []byte(`{"run":1}`)},
	}
	secondRun = []emit.File{
		{Name: "server.gen.go", Data: generated("server 2")},
		{Name: "types.gen.go", Data: generated("types 1")},
		{Name: "client.gen.go", Data: generated("client 2")},
		{Name: "internal/shard1/shard.gen.go", Data: generated("shard 1")},
		{Name: record.FileName, Data: []byte(`{"run":2}`)},
	}
)

// tree is every file and directory under dir (hidden ones too), each
// directory as name/ and each file with its contents.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if e.IsDir() {
			out[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// failRenames replaces rename for the test: renames number from to to
// (counting from 1; to 0 means every one from then on; from 0 means none)
// fail, the others are done. It returns the number of renames asked for
// so far.
func failRenames(t *testing.T, from, to int) *int {
	t.Helper()
	n := new(int)
	t.Cleanup(func() { rename = os.Rename })
	rename = func(oldpath, newpath string) error {
		*n++
		if from > 0 && *n >= from && (to == 0 || *n <= to) {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errInjected}
		}
		return os.Rename(oldpath, newpath)
	}
	return n
}

var errInjected = errors.New("injected failure")

// TestWriteAllRollsBackEveryRename: a write that fails at any rename after
// the first leaves the previous output exactly as it was — every file
// replaced or removed put back, every new file and directory gone, no
// temporary or backup file left — and returns the rename's error.
func TestWriteAllRollsBackEveryRename(t *testing.T) {
	// Count the renames of a successful second run.
	dir := t.TempDir()
	if err := writeAll(dir, slices.Clone(firstRun), &Result{}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	renames := failRenames(t, 0, 0)
	res := &Result{}
	if err := writeAll(dir, slices.Clone(secondRun), res); err != nil {
		t.Fatal(err)
	}
	total := *renames
	// One stale file moved aside; server.gen.go and the record moved aside
	// and replaced; client and the new shard put in place.
	if total != 7 {
		t.Fatalf("the second run made %d renames, want 7", total)
	}
	if !slices.Equal(res.Removed, []string{"internal/shard0/shard.gen.go"}) || !slices.Equal(res.Unchanged, []string{"types.gen.go"}) {
		t.Fatalf("second run: removed %q, unchanged %q", res.Removed, res.Unchanged)
	}

	for k := 2; k <= total; k++ {
		dir := t.TempDir()
		if err := writeAll(dir, slices.Clone(firstRun), &Result{}); err != nil {
			t.Fatal(err)
		}
		failRenames(t, k, k)
		err := writeAll(dir, slices.Clone(secondRun), &Result{})
		if !errors.Is(err, errInjected) {
			t.Fatalf("rename %d of %d failed: writeAll returned %v", k, total, err)
		}
		if strings.Contains(err.Error(), "restoring") {
			t.Errorf("rename %d of %d failed: the rollback reported a failure of its own: %v", k, total, err)
		}
		if after := tree(t, dir); !maps.Equal(after, before) {
			t.Errorf("rename %d of %d failed: the directory holds\n%q\nwant the previous output\n%q", k, total, after, before)
		}
	}
}

// TestWriteAllReportsAFailedRollback: when putting the previous output
// back fails too, writeAll says so, with the rename's error and the
// rollback's, rather than returning as if the output were intact.
func TestWriteAllReportsAFailedRollback(t *testing.T) {
	dir := t.TempDir()
	if err := writeAll(dir, slices.Clone(firstRun), &Result{}); err != nil {
		t.Fatal(err)
	}
	// Renames 1 to 4 move the stale shard aside, put client.gen.go and
	// the new shard in place and move server.gen.go aside; the fifth, and
	// the two that would put server.gen.go and the shard back, fail.
	failRenames(t, 5, 0)
	err := writeAll(dir, slices.Clone(secondRun), &Result{})
	if err == nil {
		t.Fatal("writeAll succeeded with every rename from the third failing")
	}
	msg := err.Error()
	for _, want := range []string{
		"restoring the previous output of " + dir + " failed too",
		filepath.Join(dir, "server.gen.go"),
		filepath.Join(dir, "internal", "shard0", "shard.gen.go"),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not name %q:\n%s", want, msg)
		}
	}
	// Three renames failed: the write's own and the two put-backs.
	if n := strings.Count(msg, errInjected.Error()); n != 3 {
		t.Errorf("the error carries %d failures, want 3:\n%s", n, msg)
	}
}
