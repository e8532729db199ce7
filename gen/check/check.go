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

// The rule ids of the gate's own rules; refusals from the publish guard
// carry the guard's ids ("not-newer", "bump-too-small", "invalid-spec"), and
// the reasons under a refused bump carry the classifier's ("required-added").
const (
	RulePublishedChanged = "published-changed"
	RuleVersionRemoved   = "version-removed"
	RuleLifecycleBack    = "lifecycle-reversed"
)

// Finding is one reason a release is refused.
type Finding struct {
	Rule string `json:"rule"`
	// Tool is the version concerned, "name@X.Y.Z".
	Tool string `json:"tool"`
	// Path is the schema path in value terms ("$.as_of",
	// "output:$.status"), or the manifest field, or "".
	Path    string       `json:"path,omitempty"`
	Message string       `json:"message"`
	Pos     manifest.Pos `json:"-"`
	File    string       `json:"file,omitempty"`
	Line    int          `json:"line,omitempty"`
	Col     int          `json:"col,omitempty"`
}

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
	Findings []Finding `json:"findings"`
	Releases []Release `json:"releases"`
	// Unchanged counts versions already in the record and unchanged.
	Unchanged int `json:"unchanged"`
}

// OK reports whether the release is accepted.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

// Run compares the manifests with the recorded versions.
func Run(recorded []estate.ToolSpec, current *manifest.Estate) *Report {
	c := &checker{report: &Report{Findings: []Finding{}, Releases: []Release{}}}
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
	slices.SortStableFunc(c.report.Findings, func(a, b Finding) int {
		if x := strings.Compare(a.File, b.File); x != 0 {
			return x
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	return c.report
}

type checker struct{ report *Report }

func (c *checker) add(f Finding) {
	f.File, f.Line, f.Col = f.Pos.File, f.Pos.Line, f.Pos.Col
	c.report.Findings = append(c.report.Findings, f)
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
			Message: fmt.Sprintf("lifecycle went back from %s to %s; a lifecycle only moves forward (active, deprecated, retired)", old.Lifecycle.OrActive(), cur.Lifecycle.OrActive())})
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
		spec := v.Spec()
		sorted := slices.Clone(history)
		slices.SortFunc(sorted, func(a, b estate.ToolSpec) int { return a.Version.Compare(b.Version) })
		against, hasAgainst := estate.LatestActive(sorted)
		err := estate.CheckPublish(spec, history)
		var pe *estate.PublishError
		switch {
		case err == nil:
			rel := Release{Tool: v.Key()}
			if hasAgainst {
				rel.Against = against.Key()
				d := estate.ContractDiff(against, spec)
				rel.Class, rel.Changes = d.Class, d.Changes
			}
			c.report.Releases = append(c.report.Releases, rel)
		case errors.As(err, &pe):
			c.add(Finding{Rule: pe.Rule, Tool: v.Key(), Path: "version", Pos: v.Pos("version"), Message: pe.Message})
			for _, ch := range pe.Diff.Changes {
				if ch.Class < schema.Minor {
					continue
				}
				field, path := "inputSchema", ch.Path
				if p, ok := strings.CutPrefix(ch.Path, "output:"); ok {
					field, path = "outputSchema", p
				}
				c.add(Finding{Rule: ch.Rule, Tool: v.Key(), Path: ch.Path,
					Pos:     v.Pos(field, SchemaPath(path)...),
					Message: fmt.Sprintf("%s change: %s", ch.Class, ch.Text)})
			}
		default:
			c.add(Finding{Rule: "invalid-spec", Tool: v.Key(), Pos: v.Pos(""), Message: err.Error()})
		}
		// The version stays in the history either way, so that each
		// later version is judged once, against what the team wrote.
		history = append(history, spec)
	}
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
