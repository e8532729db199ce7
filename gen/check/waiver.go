package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpgen/mcpgen/gen/manifest"
)

// Waiver accepts one specific finding on purpose: a team that breaks a
// contract knowingly (a tool nobody calls yet, a bug fixed by narrowing)
// says so in a file kept in the repository, where the change that adds
// the waiver is reviewed like any other. The finding is still printed, as
// accepted, with the waiver's reason; a waiver past its expiry no longer
// accepts anything, and one that matches nothing is itself a finding, so
// that no waiver outlives its reason unseen.
type Waiver struct {
	// Rule is the rule id the finding carries ("required-added").
	Rule string `json:"rule" yaml:"rule"`
	// Tool is the version concerned, "name@X.Y.Z".
	Tool string `json:"tool" yaml:"tool"`
	// Path is the finding's path ("$.as_of", "version"); "" accepts the
	// rule anywhere in that version.
	Path string `json:"path,omitempty" yaml:"path"`
	// Reason says why the finding is accepted; it is required.
	Reason string `json:"reason" yaml:"reason"`
	// Expires, when set, is the last day (YYYY-MM-DD, UTC) the waiver
	// accepts its finding.
	Expires string `json:"expires,omitempty" yaml:"expires"`
	// Pos is where the waiver is written.
	Pos manifest.Pos `json:"-" yaml:"-"`

	expires time.Time
}

// waiverFile is the file's layout:
//
//	waivers:
//	  - rule: required-added
//	    tool: payments.lookup@1.1.0
//	    path: $.as_of
//	    reason: no caller sends 1.x yet; see the release note
//	    expires: 2026-06-30
type waiverFile struct {
	Waivers []yaml.Node `yaml:"waivers"`
}

// LoadWaivers reads a waivers file. Every problem is reported at its
// file:line:col, all of them at once, as manifest.List.
func LoadWaivers(file string) ([]*Waiver, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc waiverFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, manifest.List{{Pos: manifest.Pos{File: file}, Msg: "waivers file: " + err.Error()}}
	}
	var errs manifest.List
	var out []*Waiver
	for _, n := range doc.Waivers {
		w := &Waiver{Pos: manifest.Pos{File: file, Line: n.Line, Col: n.Column}}
		fail := func(format string, args ...any) {
			errs = append(errs, &manifest.Error{Pos: w.Pos, Msg: fmt.Sprintf(format, args...)})
		}
		var fields struct {
			Rule, Tool, Path, Reason, Expires string
		}
		if err := n.Decode(&fields); err != nil {
			fail("waiver: %v", err)
			continue
		}
		if err := knownKeys(&n, "rule", "tool", "path", "reason", "expires"); err != "" {
			fail("waiver: %s", err)
			continue
		}
		w.Rule, w.Tool, w.Path, w.Reason, w.Expires = fields.Rule, fields.Tool, fields.Path, strings.TrimSpace(fields.Reason), fields.Expires
		switch {
		case w.Rule == "":
			fail("waiver: rule is required (the rule id of the finding it accepts)")
			continue
		case !strings.Contains(w.Tool, "@"):
			fail("waiver: tool must be name@X.Y.Z, the version the finding concerns (got %q)", w.Tool)
			continue
		case slices.Contains(runtimeRules, w.Rule):
			fail("waiver of %s %s: the runtime itself refuses to publish such a version, so no waiver can accept it", w.Rule, w.Tool)
			continue
		case w.Reason == "":
			fail("waiver of %s %s: reason is required: a waiver says why the finding is accepted", w.Rule, w.Tool)
			continue
		}
		if w.Expires != "" {
			t, err := time.Parse(time.DateOnly, w.Expires)
			if err != nil {
				fail("waiver of %s %s: expires %q is not a date (YYYY-MM-DD)", w.Rule, w.Tool, w.Expires)
				continue
			}
			w.expires = t
		}
		out = append(out, w)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// runtimeRules are the publish guard's rules, which the generated server
// enforces again when it starts (estate.CheckPublish): a waiver of one
// would only move the refusal from CI to production. A version's number
// is cheap; a release needing an exception is the guard's to refuse. The
// classifier's reasons under such a refusal are named by it, not waivable
// on their own.
var runtimeRules = []string{RuleBumpTooSmall, RuleNotNewer, RuleInvalidSpec, "immutable"}

// knownKeys refuses a key the waiver layout does not have: a misspelt
// "expiry" must not make a waiver eternal.
func knownKeys(n *yaml.Node, known ...string) string {
	if n.Kind != yaml.MappingNode {
		return "a waiver is a mapping of rule, tool, path, reason and expires"
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		found := false
		for _, name := range known {
			found = found || k == name
		}
		if !found {
			return fmt.Sprintf("unknown field %q (want %s)", k, strings.Join(known, ", "))
		}
	}
	return ""
}

// matches reports whether the waiver accepts f.
func (w *Waiver) matches(f Finding) bool {
	return w.Rule == f.Rule && w.Tool == f.Tool && (w.Path == "" || w.Path == f.Path)
}

// expired reports whether today is past the waiver's last day.
func (w *Waiver) expired(today time.Time) bool {
	return !w.expires.IsZero() && today.UTC().After(w.expires.AddDate(0, 0, 1).Add(-time.Nanosecond))
}

// ApplyWaivers marks each finding a live waiver matches as accepted, and
// adds a finding for each waiver that has expired (an error: the finding
// it accepted blocks again, and the waiver must be renewed or removed) and
// each live one that matched nothing (a warning: it would one day accept
// a finding nobody reviewed).
func (r *Report) ApplyWaivers(ws []*Waiver, today time.Time) {
	var extra []Finding
	for _, w := range ws {
		if w.expired(today) {
			extra = append(extra, Finding{Rule: RuleWaiverExpired, Level: Error, Tool: w.Tool, Path: w.Path, Pos: w.Pos,
				Message: fmt.Sprintf("the waiver of %s expired on %s: renew it with a new reason, or remove it", w.Rule, w.Expires)})
			continue
		}
		used := false
		for i := range r.Findings {
			f := &r.Findings[i]
			if f.Waiver == nil && f.Level != Info && w.matches(*f) {
				f.Waiver, used = w, true
			}
		}
		if !used {
			extra = append(extra, Finding{Rule: RuleWaiverUnused, Level: Warning, Tool: w.Tool, Path: w.Path, Pos: w.Pos,
				Message: fmt.Sprintf("the waiver of %s matches no finding: remove it", w.Rule)})
		}
	}
	r.Add(extra...)
}
