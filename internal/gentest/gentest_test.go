package gentest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCompare: the same files are no problem; a missing file, an extra one
// and one whose bytes differ are each reported, the last with a diff that
// shows the changed line in its context.
func TestCompare(t *testing.T) {
	fresh, committed := t.TempDir(), t.TempDir()
	body := "package bank\n\n// a\n// b\n// c\n// d\n// e\n// f\n"
	write(t, fresh, map[string]string{"same.go": body, "changed.go": body, "internal/shard0/new.go": body})
	write(t, committed, map[string]string{"same.go": body, "changed.go": strings.Replace(body, "// d", "// D", 1), "old.go": body})
	problems, err := compare(fresh, committed)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems, "\n")
	for _, want := range []string{
		filepath.Join(committed, "internal/shard0/new.go") + " is missing",
		filepath.Join(committed, "old.go") + " is extra",
		filepath.Join(committed, "changed.go") + " is not what the generator writes now:\n" +
			"--- " + filepath.Join(committed, "changed.go") + "\n+++ generated now\n@@ -3,6 +3,6 @@\n // a\n // b\n // c\n-// D\n+// d\n // e\n // f\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("compare reported\n%s\nwant it to hold\n%s", got, want)
		}
	}
	if len(problems) != 3 {
		t.Errorf("%d problems, want 3: %q", len(problems), problems)
	}
	if problems, err := compare(fresh, fresh); err != nil || len(problems) != 0 {
		t.Errorf("a directory compared with itself: %q, %v", problems, err)
	}
}

// TestDiffNewlineAtEnd: a file that lost its last newline differs in a
// line the diff shows.
func TestDiffNewlineAtEnd(t *testing.T) {
	got := diff("a", "b", []byte("x\ny"), []byte("x\ny\n"))
	want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"
	if got != want {
		t.Errorf("diff = %q, want %q", got, want)
	}
}
