package importer

import (
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Drift is one difference between a server and the manifests.
type Drift struct {
	// Tool is the tool's published name.
	Tool string
	// Comparison is the classified change from the manifest's version to
	// the contract the server publishes; nil when the tool is on one side
	// only (Note says which).
	Comparison *check.Comparison
	Note       string
}

// CheckReport is what Check found.
type CheckReport struct {
	Source string
	// Agree are the tools whose published contract is their manifest's
	// version, as "name@X.Y.Z".
	Agree  []string
	Drifts []Drift
	// Skipped are published tools that could not be compared.
	Skipped []Skip
}

// OK reports whether server and manifests agree.
func (r *CheckReport) OK() bool { return len(r.Drifts) == 0 && len(r.Skipped) == 0 }

// Check compares the tools a server publishes with the manifests: each
// published tool with the newest active version of the manifest that
// declares it (by its wire name), classified by the breaking-change gate's
// own comparison (check.Compare), so a drift is reported with the change
// class a release of it would need. What the server does not publish
// (owner, classification, scopes, and the side effect where the
// annotations are silent) is taken from the manifest, so only what the
// server says is compared.
func Check(l *List, est *manifest.Estate) *CheckReport {
	rep := &CheckReport{Source: l.Source}
	byWire := map[string]*manifest.Tool{}
	for _, t := range est.Tools {
		byWire[wireNameOf(t)] = t
	}
	served := map[string]bool{}
	for _, t := range l.Tools {
		if t.problem != "" {
			rep.Skipped = append(rep.Skipped, Skip{Tool: t.Name, Where: t.Where, Reason: t.problem})
			continue
		}
		served[t.Name] = true
		mt, ok := byWire[t.Name]
		if !ok {
			rep.Drifts = append(rep.Drifts, Drift{Tool: t.Name, Note: "served, but no manifest declares it"})
			continue
		}
		old := current(mt)
		spec := old.Spec()
		d := Decisions{
			SideEffect:     map[string]estate.SideEffect{"": spec.SideEffect},
			Owner:          map[string]string{"": spec.Owner},
			Classification: map[string]estate.Classification{"": spec.DataClassification},
			Scopes:         map[string][]string{"": spec.RequiredScopes},
		}
		if hintsAgree(spec.SideEffect, t.Annotations) {
			// Annotations say less than a side effect (no hint tells an
			// irreversible write from another): what they do say agrees.
			d.SideEffect[t.Name] = spec.SideEffect
		}
		data, where, err := render(t, mt.Name, old.Version.String(), d)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skip{Tool: t.Name, Where: where, Reason: err.Error()})
			continue
		}
		live, err := manifest.LoadData(l.Source, "served.yaml", data)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skip{Tool: t.Name, Where: t.Where, Reason: err.Error()})
			continue
		}
		lv := live.Versions[0]
		lv.Tenants = old.Tenants // not published either
		c := check.Compare(old, lv)
		if c.Class == schema.None && len(c.Changes) == 0 {
			rep.Agree = append(rep.Agree, old.Key())
			continue
		}
		rep.Drifts = append(rep.Drifts, Drift{Tool: t.Name, Comparison: c})
	}
	for _, t := range est.Tools {
		if w := wireNameOf(t); !served[w] && current(t).Lifecycle == estate.Active {
			rep.Drifts = append(rep.Drifts, Drift{Tool: w, Note: "declared in " + t.File + ", but the server does not list it"})
		}
	}
	return rep
}

// hintsAgree reports whether every hint the annotations state is the one
// side effect se publishes.
func hintsAgree(se estate.SideEffect, a Annotations) bool {
	h := se.Hints()
	for _, c := range []struct {
		stated *bool
		want   bool
	}{{a.ReadOnlyHint, h.ReadOnly}, {a.DestructiveHint, h.Destructive}, {a.IdempotentHint, h.Idempotent}} {
		if c.stated != nil && *c.stated != c.want {
			return false
		}
	}
	return a.ReadOnlyHint != nil
}

// wireNameOf is the name a tool is published under.
func wireNameOf(t *manifest.Tool) string {
	if t.WireName != "" {
		return t.WireName
	}
	return t.Name
}

// current is the version a server is expected to publish: the newest
// active one, or the newest when none is active.
func current(t *manifest.Tool) *manifest.Version {
	for i := len(t.Versions) - 1; i >= 0; i-- {
		if t.Versions[i].Lifecycle == estate.Active {
			return t.Versions[i]
		}
	}
	return t.Versions[len(t.Versions)-1]
}

// Write prints the report: one line per tool that agrees, and for each
// drift the class and every change.
func (r *CheckReport) Write(w io.Writer) {
	for _, k := range r.Agree {
		fmt.Fprintf(w, "ok     %s: the server publishes this contract\n", k)
	}
	for _, d := range r.Drifts {
		if d.Comparison == nil {
			fmt.Fprintf(w, "drift  %s: %s\n", d.Tool, d.Note)
			continue
		}
		c := d.Comparison
		fmt.Fprintf(w, "drift  %s: the server publishes a %s change from %s (a release of it would be %s)\n", d.Tool, c.Class, c.Old, c.Suggested)
		for _, ch := range c.Changes {
			fmt.Fprintf(w, "         %s: %s\n", ch.Path, ch.Message)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "error  %s\n", s)
	}
}
