package manifest

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Pos is a place in a manifest file, as a compiler reports it: the file as
// the user named it (the directory given to LoadDir joined with the file's
// name), a 1-based line and a 1-based column counted in characters.
type Pos struct {
	File string
	Line int
	Col  int
}

// String renders p as "file:line:col", or only "file" when p has no line
// (an error about the file or directory as a whole).
func (p Pos) String() string {
	if p.Line <= 0 {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// IsValid reports whether p names a line and column.
func (p Pos) IsValid() bool { return p.File != "" && p.Line > 0 && p.Col > 0 }

func comparePos(a, b Pos) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Col, b.Col)
}

// Error is one problem in a manifest, at the place it was found.
type Error struct {
	Pos Pos
	Msg string
}

// Error renders the problem as "file:line:col: message", the form editors
// and CI logs link to the source.
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// List is every problem found while loading an estate, sorted by file, line
// and column. A manifest author fixes them in one pass instead of meeting
// them one run at a time.
type List []*Error

// Error renders the list one problem per line.
func (l List) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap exposes the problems to errors.As and errors.Is.
func (l List) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Print writes the problems to w, one "file:line:col: message" per line.
func (l List) Print(w io.Writer) error {
	for _, e := range l {
		if _, err := io.WriteString(w, e.Error()+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// sort orders the list by (file, line, column, message) and drops exact
// repeats.
func (l List) sort() List {
	slices.SortFunc(l, func(a, b *Error) int {
		if c := comparePos(a.Pos, b.Pos); c != 0 {
			return c
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	return slices.CompactFunc(l, func(a, b *Error) bool { return *a == *b })
}
