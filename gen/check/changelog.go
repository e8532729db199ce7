package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// ChangelogFormats lists the output formats of a changelog: it is read by
// people (a release note, a pull-request comment) and by scripts, never
// annotated on lines, so the gate's github and sarif formats do not apply.
var ChangelogFormats = []string{"text", "markdown", "json"}

// Changelog is what changed in an estate between two of its records: per
// tool, what a release note or a consuming team needs to know. It is
// computed from the records alone (the contracts, lifecycles and
// successors every published version keeps), so it can be written for any
// two revisions, long after the manifests moved on.
type Changelog struct {
	// From and To say what was compared (see record.Baseline.String).
	From  string          `json:"from"`
	To    string          `json:"to"`
	Tools []ToolChangelog `json:"tools"`
}

// ToolChangelog is one tool's part of a changelog. A version may appear in
// more than one list (added and promoted; added and deprecated).
type ToolChangelog struct {
	Tool string `json:"tool"`
	// Added are the new versions, ascending, each with its class and
	// reasons against the live version before it, as the gate judged it.
	Added []Release `json:"added,omitempty"`
	// Preview are the versions added as previews: reached only by a caller
	// who pins them, while discovery and unpinned calls stay on the active
	// versions (docs/concepts.md#versions-and-lifecycle).
	Preview []string `json:"preview,omitempty"`
	// Promoted are the versions that moved from preview to active: from
	// here on, where a promoted version is the newest active one, it is
	// what tools/list shows and what an unpinned call reaches.
	Promoted []string `json:"promoted,omitempty"`
	// Deprecated are the versions that became deprecated, with the
	// successor each names.
	Deprecated []Moved `json:"deprecated,omitempty"`
	// Retired are the versions that are no longer served.
	Retired []Moved `json:"retired,omitempty"`
	// Removed are versions the later record no longer holds at all: the
	// gate refuses this (history is append-only), so it shows a record
	// rewritten outside it.
	Removed []string `json:"removed,omitempty"`
}

// Moved is a version whose lifecycle moved forward.
type Moved struct {
	Version string `json:"version"`
	// From is the lifecycle before ("" for a version added already
	// deprecated or retired).
	From         estate.Lifecycle `json:"from,omitempty"`
	SupersededBy string           `json:"supersededBy,omitempty"`
}

// NewChangelog compares the versions of two records. A new version is
// classified against the versions of its tool as the later record states
// them plus the new versions before it (classify, the gate's rule), so the
// class a changelog gives is the class the gate accepted.
func NewChangelog(from, to []estate.ToolSpec) *Changelog {
	byName := func(specs []estate.ToolSpec) map[string][]estate.ToolSpec {
		m := map[string][]estate.ToolSpec{}
		for _, s := range specs {
			s.Lifecycle = s.Lifecycle.OrActive()
			m[s.Name] = append(m[s.Name], s)
		}
		for _, vs := range m {
			slices.SortFunc(vs, func(a, b estate.ToolSpec) int { return a.Version.Compare(b.Version) })
		}
		return m
	}
	before, after := byName(from), byName(to)
	var names []string
	for n := range before {
		names = append(names, n)
	}
	for n := range after {
		if _, ok := before[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	cl := &Changelog{Tools: []ToolChangelog{}}
	for _, name := range names {
		if t := toolChangelog(name, before[name], after[name]); t != nil {
			cl.Tools = append(cl.Tools, *t)
		}
	}
	return cl
}

// toolChangelog compares one tool's versions (each ascending); nil when
// nothing changed.
func toolChangelog(name string, before, after []estate.ToolSpec) *ToolChangelog {
	t := &ToolChangelog{Tool: name}
	old := map[string]estate.ToolSpec{}
	for _, s := range before {
		old[s.Key()] = s
	}
	var history []estate.ToolSpec
	for _, s := range after {
		if _, ok := old[s.Key()]; ok {
			history = append(history, s)
		}
	}
	for _, s := range after {
		prev, known := old[s.Key()]
		if !known {
			t.Added = append(t.Added, classify(s, history))
			if s.Lifecycle == estate.Preview {
				t.Preview = append(t.Preview, s.Key())
			}
			history = append(history, s)
		}
		if known && prev.Lifecycle == s.Lifecycle {
			continue
		}
		if known && prev.Lifecycle == estate.Preview && s.Lifecycle == estate.Active {
			t.Promoted = append(t.Promoted, s.Key())
		}
		m := Moved{Version: s.Key(), SupersededBy: s.SupersededBy}
		if known {
			m.From = prev.Lifecycle
		}
		switch s.Lifecycle {
		case estate.Deprecated:
			t.Deprecated = append(t.Deprecated, m)
		case estate.Retired:
			t.Retired = append(t.Retired, m)
		}
	}
	now := map[string]bool{}
	for _, s := range after {
		now[s.Key()] = true
	}
	for _, s := range before {
		if !now[s.Key()] {
			t.Removed = append(t.Removed, s.Key())
		}
	}
	if len(t.Added)+len(t.Preview)+len(t.Promoted)+len(t.Deprecated)+len(t.Retired)+len(t.Removed) == 0 {
		return nil
	}
	return t
}

// summary is the changelog's last line: each kind of change counted once.
func (c *Changelog) summary() string {
	var added, preview, promoted, deprecated, retired, removed int
	for _, t := range c.Tools {
		added += len(t.Added)
		preview += len(t.Preview)
		promoted += len(t.Promoted)
		deprecated += len(t.Deprecated)
		retired += len(t.Retired)
		removed += len(t.Removed)
	}
	if len(c.Tools) == 0 {
		return "no change"
	}
	parts := []string{Count(len(c.Tools), "tool") + " changed"}
	for _, p := range []struct {
		n    int
		what string
	}{{added, "added"}, {preview, "in preview"}, {promoted, "promoted"}, {deprecated, "deprecated"}, {retired, "retired"}, {removed, "removed"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", Count(p.n, "version"), p.what))
		}
	}
	return strings.Join(parts, ", ")
}

// moved says where a version moved, in words.
func (m Moved) text(code func(string) string) string {
	s := code(m.Version)
	if m.From != "" {
		s += fmt.Sprintf(" (was %s)", m.From)
	}
	if m.SupersededBy != "" {
		s += "; move to " + code(m.SupersededBy)
	}
	return s
}

// Write prints the changelog as text (for a terminal or a release note),
// markdown (a pull-request comment or a release page) or json.
func (c *Changelog) Write(w io.Writer, format string) error {
	var b bytes.Buffer
	plain := func(s string) string { return s }
	switch format {
	case "text", "":
		fmt.Fprintf(&b, "mcpgen changelog: from %s\nmcpgen changelog: to %s\n", c.From, c.To)
		for _, t := range c.Tools {
			fmt.Fprintf(&b, "%s\n", t.Tool)
			t.lines(func(kind, what string, changes []string) {
				fmt.Fprintf(&b, "  %s %s\n", kind, what)
				for _, ch := range changes {
					fmt.Fprintf(&b, "      %s\n", ch)
				}
			}, plain)
		}
		fmt.Fprintf(&b, "mcpgen changelog: %s\n", c.summary())
	case "markdown":
		fmt.Fprintf(&b, "### mcpgen changelog: %s\n\nFrom %s to %s.\n", c.summary(), c.From, c.To)
		for _, t := range c.Tools {
			fmt.Fprintf(&b, "\n#### %s\n\n", mdCode(t.Tool))
			t.lines(func(kind, what string, changes []string) {
				fmt.Fprintf(&b, "- %s%s %s\n", strings.ToUpper(kind[:1]), kind[1:], what)
				for _, ch := range changes {
					fmt.Fprintf(&b, "  - %s\n", ch)
				}
			}, mdCode)
		}
	case "json":
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(ChangelogFormats, ", "))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// lines calls line once per entry of t, in the order a reader wants them
// (what is new, then what goes away), with code quoting names and
// versions.
func (t ToolChangelog) lines(line func(kind, what string, changes []string), code func(string) string) {
	for _, rel := range t.Added {
		summary := rel.summary()
		if rel.Against != "" {
			summary = strings.Replace(summary, rel.Against, code(rel.Against), 1)
		}
		changes := make([]string, len(rel.Changes))
		for i, ch := range rel.Changes {
			changes[i] = fmt.Sprintf("%s %s %s: %s", ch.Class, code(ch.Rule), code(ch.Path), ch.Text)
		}
		line("added", code(rel.Tool)+": "+summary, changes)
	}
	for _, p := range t.Preview {
		line("preview", code(p)+": reached only by callers who pin it; tools/list and unpinned calls stay on the active versions", nil)
	}
	for _, p := range t.Promoted {
		line("promoted", code(p)+" (was preview): where it is the newest active version, tools/list shows it and unpinned calls reach it", nil)
	}
	for _, m := range t.Deprecated {
		line("deprecated", m.text(code), nil)
	}
	for _, m := range t.Retired {
		line("retired", m.text(code), nil)
	}
	for _, r := range t.Removed {
		line("removed", code(r)+": no longer in the record (history is append-only: the gate refuses this)", nil)
	}
}
