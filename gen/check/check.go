// Package check is the breaking-change gate: it compares the manifests with
// the estate record of the previously generated package and refuses every
// release that would break a caller without a major version, listing every
// reason with a rule id, the tool version, the schema path and the
// manifest's file:line:col, like a compiler.
//
// The rules are the runtime's: the publish guard is estate.CheckPublish and
// the classification schema.Classify, used unchanged. This package only
// decides what to compare with what, and where to point.
package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Release is a new version the gate accepted, with its classification
// against the version it was compared with.
type Release struct {
	Tool    string          `json:"tool"`
	Against string          `json:"against,omitempty"` // "" for a name's first version
	Class   schema.Class    `json:"class"`
	Changes []schema.Change `json:"changes,omitempty"`
}

// Report is the gate's verdict.
type Report struct {
	// Command names the command that judged ("check", "generate"), for
	// the verdict line.
	Command string `json:"-"`
	// Baseline is what the manifests were compared with; nil when the
	// caller compared with a record it chose (generate: the output's).
	Baseline *record.Baseline `json:"baseline,omitempty"`
	Findings []Finding        `json:"findings"`
	Releases []Release        `json:"releases"`
	// Unchanged counts versions already in the record and unchanged.
	Unchanged int `json:"unchanged"`
}

// OK reports whether the release is accepted: no error stands that a
// waiver does not accept.
func (r *Report) OK() bool {
	for _, f := range r.Findings {
		if f.Blocks() {
			return false
		}
	}
	return true
}

// count is the number of findings at level l (accepted ones apart) and
// the number accepted.
func (r *Report) count(l Level) int {
	n := 0
	for _, f := range r.Findings {
		if f.Level == l && f.Waiver == nil {
			n++
		}
	}
	return n
}

// Blocking is the number of errors no waiver accepts.
func (r *Report) Blocking() int { return r.count(Error) }

func (r *Report) accepted() int {
	n := 0
	for _, f := range r.Findings {
		if f.Waiver != nil {
			n++
		}
	}
	return n
}

// Add appends findings and keeps the report in file order.
func (r *Report) Add(fs ...Finding) {
	for _, f := range fs {
		f.File, f.Line, f.Col = f.Pos.File, f.Pos.Line, f.Pos.Col
		r.Findings = append(r.Findings, f)
	}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		if x := strings.Compare(a.File, b.File); x != 0 {
			return x
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}

// Run compares the manifests with the recorded versions.
func Run(recorded []estate.ToolSpec, current *manifest.Estate) *Report {
	c := &checker{report: &Report{Command: "check", Findings: []Finding{}, Releases: []Release{}}}
	byKey := map[string]*manifest.Version{}
	byName := map[string]*manifest.Tool{}
	for _, t := range current.Tools {
		byName[t.Name] = t
		for _, v := range t.Versions {
			byKey[v.Key()] = v
		}
	}
	recordedByName := map[string][]estate.ToolSpec{}
	for _, old := range recorded {
		recordedByName[old.Name] = append(recordedByName[old.Name], old)
		v, ok := byKey[old.Key()]
		if !ok {
			pos := manifest.Pos{File: current.Dir}
			if t := byName[old.Name]; t != nil {
				pos = t.Pos
			}
			c.add(Finding{Rule: RuleVersionRemoved, Tool: old.Key(), Pos: pos,
				Message: "published version is missing from the manifests: history is append-only; retire it instead"})
			continue
		}
		c.published(old, v)
	}
	for _, t := range current.Tools {
		c.newVersions(t, recordedByName[t.Name])
	}
	c.report.Add(c.findings...)
	return c.report
}

type checker struct {
	report   *Report
	findings []Finding
}

// add records a finding; one without a level is an error, as every rule
// of the gate proper is.
func (c *checker) add(f Finding) {
	if f.Level == "" {
		f.Level = Error
	}
	c.findings = append(c.findings, f)
}

// published checks a version that is already in the record: its contract
// is immutable, and its lifecycle only moves forward.
func (c *checker) published(old estate.ToolSpec, v *manifest.Version) {
	cur := v.Spec()
	changed := record.ContractChanges(old, cur)
	for _, field := range changed {
		switch field {
		case "inputSchema", "outputSchema":
			dir := schema.Input
			if field == "outputSchema" {
				dir = schema.Output
			}
			diff := schema.Classify(schemaOf(old, field), schemaOf(cur, field), dir)
			for _, ch := range diff.Changes {
				c.add(Finding{Rule: RulePublishedChanged, Tool: v.Key(), Path: ch.Path,
					Pos:     v.Pos(field, SchemaPath(ch.Path)...),
					Message: fmt.Sprintf("%s of a published version changed (%s: %s); publish a new version instead", field, ch.Rule, ch.Text)})
			}
			if len(diff.Changes) == 0 {
				c.add(Finding{Rule: RulePublishedChanged, Tool: v.Key(), Path: field, Pos: v.Pos(field),
					Message: field + " of a published version changed; publish a new version instead"})
			}
		default:
			c.add(Finding{Rule: RulePublishedChanged, Tool: v.Key(), Path: field, Pos: v.Pos(field),
				Message: field + " of a published version changed; only lifecycle and supersededBy may change: publish a new version instead"})
		}
	}
	if !old.Lifecycle.CanMoveTo(cur.Lifecycle) {
		c.add(Finding{Rule: RuleLifecycleBack, Tool: v.Key(), Path: "lifecycle", Pos: v.Pos("lifecycle"),
			Message: fmt.Sprintf("lifecycle went back from %s to %s; a lifecycle only moves forward (%s)", old.Lifecycle.OrActive(), cur.Lifecycle.OrActive(), estate.LifecycleOrder)})
	}
	if len(changed) == 0 {
		c.report.Unchanged++
	}
}

func schemaOf(s estate.ToolSpec, field string) *schema.Schema {
	if field == "outputSchema" {
		return s.OutputSchema
	}
	return s.InputSchema
}

// newVersions applies the publish guard to each version of t that is not in
// the record, in version order, against the recorded history as the
// manifests now state it (a release may deprecate 1.x and add 2.1.0 at
// once: 2.1.0 is compared with the live 2.0.0) plus the new versions
// accepted before it.
func (c *checker) newVersions(t *manifest.Tool, recorded []estate.ToolSpec) {
	inRecord := map[string]bool{}
	for _, r := range recorded {
		inRecord[r.Key()] = true
	}
	var history []estate.ToolSpec
	for _, v := range t.Versions {
		if inRecord[v.Key()] {
			history = append(history, v.Spec())
		}
	}
	for _, v := range t.Versions {
		if inRecord[v.Key()] {
			continue
		}
		// A published version is linted no more: its contract cannot
		// change, and a finding nobody can act on teaches nothing.
		for _, f := range Lint(v) {
			c.add(f)
		}
		spec := v.Spec()
		err := estate.CheckPublish(spec, history)
		var pe *estate.PublishError
		switch {
		case err == nil:
			c.report.Releases = append(c.report.Releases, classify(spec, history))
		case errors.As(err, &pe):
			againstKey := ""
			if pe.Against != "" {
				againstKey = v.Name + "@" + pe.Against
			}
			msg := pe.Message
			prev, perr := estate.ParseVersion(pe.Against)
			if pe.Rule == RuleBumpTooSmall && perr == nil {
				// The subject names the version already: the message
				// says what the change calls for, once.
				msg = fmt.Sprintf("a %s change against %s calls for %s", pe.Diff.Class, pe.Against, SuggestNext(prev, pe.Diff.Class))
			}
			c.add(Finding{Rule: pe.Rule, Tool: v.Key(), Against: againstKey, Path: "version", Pos: v.Pos("version"), Message: msg})
			allowed := BumpClass(prev, v.Version)
			for _, ch := range pe.Diff.Changes {
				if ch.Class < schema.Minor {
					continue
				}
				field, path := "inputSchema", ch.Path
				if p, ok := strings.CutPrefix(ch.Path, "output:"); ok {
					field, path = "outputSchema", p
				}
				// A change the new number pays for is context; one it
				// does not is a reason the release is refused.
				level := Info
				if ch.Class > allowed {
					level = Error
				}
				c.add(Finding{Rule: ch.Rule, Level: level, Tool: v.Key(), Against: againstKey, Path: ch.Path,
					Pos:     v.Pos(field, SchemaPath(path)...),
					Message: fmt.Sprintf("%s change: %s", ch.Class, ch.Text)})
			}
		default:
			c.add(Finding{Rule: RuleInvalidSpec, Tool: v.Key(), Pos: v.Pos(""), Message: err.Error()})
		}
		// The version stays in the history either way, so that each
		// later version is judged once, against what the team wrote.
		history = append(history, spec)
	}
}

// classify is the release of spec after history (the versions of its tool
// published before it, in any order): its class and reasons against the
// live version the publish guard compares it with (estate.LatestActive),
// or none for a tool's first version. When no version is live (the
// release deprecates the last one) the guard enforces no bump, but a
// reader still needs to know what changed: it is compared with the newest
// published version then. The gate's releases and the changelog's new
// versions are both this, so they never disagree.
func classify(spec estate.ToolSpec, history []estate.ToolSpec) Release {
	sorted := slices.Clone(history)
	slices.SortFunc(sorted, func(a, b estate.ToolSpec) int { return a.Version.Compare(b.Version) })
	for i := range sorted {
		sorted[i].Lifecycle = sorted[i].Lifecycle.OrActive()
	}
	rel := Release{Tool: spec.Key()}
	against, ok := estate.LatestActive(sorted)
	if !ok && len(sorted) > 0 {
		against, ok = sorted[len(sorted)-1], true
	}
	if ok {
		rel.Against = against.Key()
		d := estate.ContractDiff(against, spec)
		rel.Class, rel.Changes = d.Class, d.Changes
	}
	return rel
}

// SchemaPath turns a value path of the classifier ("$.a.b[*].c", "$.m.*")
// into the schema path of the manifest (properties/a/properties/b/items/
// properties/c), so a finding can point at the declaration.
func SchemaPath(valuePath string) []string {
	p := strings.TrimPrefix(valuePath, "$")
	var out []string
	for p != "" {
		switch {
		case strings.HasPrefix(p, "[*]"):
			out = append(out, "items")
			p = p[3:]
		case strings.HasPrefix(p, ".*"):
			out = append(out, "additionalProperties")
			p = p[2:]
		case strings.HasPrefix(p, "."):
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out = append(out, "properties", p[:end])
			p = p[end:]
		default:
			return out
		}
	}
	return out
}

// BumpClass is the most severe change a release from prev to next may
// carry: a new major may break callers, a new minor loosen the contract, a
// new patch touch annotations only.
func BumpClass(prev, next estate.Version) schema.Class {
	switch {
	case next.Major() != prev.Major():
		return schema.Major
	case next.Minor() != prev.Minor():
		return schema.Minor
	}
	return schema.Patch
}
