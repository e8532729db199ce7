// Package gentest holds what the tests of generated packages share: the
// check that the committed code is what the generator writes now.
package gentest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SameFiles fails t unless directory committed holds exactly the files of
// directory fresh (a package just generated), byte for byte. how is the
// command that regenerates the committed files, for the failure message,
// which names each missing or extra file and shows how each differing
// file differs, so that a failure in CI says what changed.
func SameFiles(t testing.TB, fresh, committed, how string) {
	t.Helper()
	problems, err := compare(fresh, committed)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s\n(%s)", p, how)
	}
}

// compare lists how directory committed differs from directory fresh: a
// file only one of them holds, and for each file both hold with other
// bytes, a diff.
func compare(fresh, committed string) ([]string, error) {
	freshNames, err := names(fresh)
	if err != nil {
		return nil, err
	}
	committedNames, err := names(committed)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, name := range freshNames {
		if !slices.Contains(committedNames, name) {
			problems = append(problems, fmt.Sprintf("%s is missing: the generator writes it now", filepath.Join(committed, name)))
			continue
		}
		want, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			return nil, err
		}
		got, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("%s is not what the generator writes now:\n%s",
				filepath.Join(committed, name), diff(filepath.Join(committed, name), "generated now", got, want)))
		}
	}
	for _, name := range committedNames {
		if !slices.Contains(freshNames, name) {
			problems = append(problems, fmt.Sprintf("%s is extra: the generator no longer writes it", filepath.Join(committed, name)))
		}
	}
	return problems, nil
}

// names lists the files of dir and below it (a package's shards), as
// paths relative to dir, sorted.
func names(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		out = append(out, rel)
		return err
	})
	return out, err
}

// context is how many equal lines a diff shows around what differs, and
// maxShown how many differing lines of each side it shows at most.
const (
	context  = 3
	maxShown = 40
)

// diff shows how b differs from a as one unified-diff hunk: the lines
// between the first and the last that differ, with context around them.
// It is not the shortest diff (a line that moved shows as removed and
// added) but it is exact, and it costs linear time on files of thousands
// of lines.
func diff(nameA, nameB string, a, b []byte) string {
	la, lb := lines(a), lines(b)
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	start := max(pre-context, 0)
	endA, endB := min(len(la)-suf+context, len(la)), min(len(lb)-suf+context, len(lb))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n@@ -%d,%d +%d,%d @@\n", nameA, nameB, start+1, endA-start, start+1, endB-start)
	for _, l := range la[start:pre] {
		out.WriteString(" " + l + "\n")
	}
	side := func(sign string, ls []string) {
		for i, l := range ls {
			if i == maxShown {
				fmt.Fprintf(&out, "%s… %d more lines\n", sign, len(ls)-maxShown)
				break
			}
			out.WriteString(sign + l + "\n")
		}
	}
	side("-", la[pre:len(la)-suf])
	side("+", lb[pre:len(lb)-suf])
	for _, l := range la[len(la)-suf : endA] {
		out.WriteString(" " + l + "\n")
	}
	return out.String()
}

// lines splits data into lines without their newlines; a last line
// without one is marked, as diff(1) does, so that it differs from the same
// line with one.
func lines(data []byte) []string {
	s := string(data)
	noEOL := s != "" && !strings.HasSuffix(s, "\n")
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if s == "" {
		ls = nil
	}
	if noEOL {
		ls[len(ls)-1] += "\n\\ No newline at end of file"
	}
	return ls
}
