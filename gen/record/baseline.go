package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Baseline is the estate record a check compares the manifests with, and
// where it was read. A gate is only as good as its baseline: a record read
// from the work tree is part of the change under review, which may have
// deleted or regenerated it, so in a git repository the baseline is read
// from history instead.
type Baseline struct {
	Record *Record `json:"-"`
	// Found is false when there was no record to read: the package is
	// adopted by this change, and every version is new.
	Found bool `json:"found"`
	// Ref is the git revision compared with ("origin/main", "HEAD", what
	// -against named) and Commit its full hash; both are "" outside git.
	Ref    string `json:"ref,omitempty"`
	Commit string `json:"commit,omitempty"`
	// MergeBase is set when Commit is the merge base of HEAD and Ref
	// rather than Ref itself.
	MergeBase bool `json:"mergeBase,omitempty"`
	// File is the record's path: in the work tree outside git, else the
	// path inside the revision.
	File string `json:"file"`
	// InGit is false when the package is not in a git work tree, and the
	// baseline is the work tree's record.
	InGit bool `json:"inGit"`
}

// String says plainly what the baseline is, for the report's first line.
func (b *Baseline) String() string {
	if !b.InGit {
		if !b.Found {
			return fmt.Sprintf("no estate record at %s and no git history to read one from: every version is new", b.File)
		}
		return fmt.Sprintf("%s in the work tree (not a git repository: the record cannot be checked against history)", b.File)
	}
	at := b.Ref
	switch {
	case b.MergeBase:
		at = fmt.Sprintf("the merge base of HEAD and %s (%s)", b.Ref, short(b.Commit))
	case b.Ref != b.Commit:
		at = fmt.Sprintf("%s (%s)", b.Ref, short(b.Commit))
	}
	if !b.Found {
		return fmt.Sprintf("no estate record at %s: every version is new", at)
	}
	return fmt.Sprintf("%s at %s", b.File, at)
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// ShallowError is a shallow clone that does not hold the commit the check
// must compare with. It is an error, never a pass: a gate that compared
// with whatever history it happened to have would pass every change.
type ShallowError struct {
	// Want names what is missing, in words.
	Want string
}

func (e *ShallowError) Error() string {
	return "this clone is shallow and does not hold " + e.Want + ", the baseline the check compares with; " +
		"fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout), or name a revision this clone holds with -against"
}

// ResolveBaseline finds the record the manifests of the package in dir are
// checked against. With against set, it is the record at that revision.
// Otherwise, in a git work tree, it is the record at the merge base of HEAD
// and the default branch (what the change is merged into), or, when no
// default branch is found, the record committed at HEAD: never the work
// tree's, which the change may have rewritten. Outside git the work tree's
// record is all there is, and the baseline says so.
func ResolveBaseline(dir, against string) (*Baseline, error) {
	g, gitErr := openRepo(dir)
	if gitErr != nil {
		if against != "" {
			return nil, fmt.Errorf("revision %s: %s is not in a git work tree", against, dir)
		}
		file := filepath.Join(dir, FileName)
		_, err := os.Stat(file)
		found := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		r, err := Load(dir)
		if err != nil {
			return nil, err
		}
		return &Baseline{Record: r, Found: found, File: file}, nil
	}
	b := &Baseline{InGit: true, File: pathJoin(g.rel, FileName)}
	shallow := g.shallow()
	switch {
	case against != "":
		if !g.has(against) {
			if shallow {
				return nil, &ShallowError{Want: fmt.Sprintf("the revision %q", against)}
			}
			return nil, fmt.Errorf("git revision %q not found", against)
		}
		b.Ref = against
	default:
		branch := g.defaultBranch()
		if branch == "" {
			if shallow {
				return nil, &ShallowError{Want: "the default branch (main or master, or what origin/HEAD names)"}
			}
			if !g.has("HEAD") {
				// A repository without a commit: nothing was ever
				// published from it.
				return &Baseline{Record: &Record{Format: Format, Generator: "mcpgen"}, InGit: true, Ref: "HEAD", File: b.File}, nil
			}
			b.Ref = "HEAD"
			break
		}
		out, err := gitOutput(g.root, "merge-base", "HEAD", branch)
		if err != nil {
			if shallow {
				return nil, &ShallowError{Want: "the merge base of HEAD and " + branch}
			}
			return nil, fmt.Errorf("HEAD and %s have no merge base: name the revision to compare with -against", branch)
		}
		b.Ref, b.Commit, b.MergeBase = branch, strings.TrimSpace(string(out)), true
	}
	if b.Commit == "" {
		c, err := g.commit(b.Ref)
		if err != nil {
			return nil, err
		}
		b.Commit = c
	}
	r, found, err := g.record(b.Commit)
	if err != nil {
		return nil, err
	}
	b.Record, b.Found = r, found
	return b, nil
}

// WorkTree reads the record in dir as the change left it; found is false
// when there is none.
func WorkTree(dir string) (r *Record, found bool, err error) {
	if _, err := os.Stat(filepath.Join(dir, FileName)); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	r, err = Load(dir)
	return r, err == nil, err
}

func pathJoin(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}
