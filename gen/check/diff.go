package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Comparison is the classified change from one version of a contract to
// another (mcpgen diff): every reason, and the version number the change
// calls for.
type Comparison struct {
	Old   string       `json:"old"`
	New   string       `json:"new"`
	Class schema.Class `json:"class"`
	// Changes are the reasons, each at its place in the new manifest; the
	// Rule is the classifier's and the Message starts with the class.
	Changes []Finding `json:"changes"`
	// Suggested is the version the new contract should be released as,
	// computed from the old version and the class.
	Suggested string `json:"suggested"`
}

// Compare classifies old → new the way the publish guard does (inputs in
// the Input direction, outputs in the Output direction).
func Compare(old, new *manifest.Version) *Comparison {
	d := estate.ContractDiff(old.Spec(), new.Spec())
	c := &Comparison{Old: old.Key(), New: new.Key(), Class: d.Class, Changes: []Finding{}}
	for _, ch := range d.Changes {
		field, path := "inputSchema", ch.Path
		if p, ok := strings.CutPrefix(ch.Path, "output:"); ok {
			field, path = "outputSchema", p
		}
		pos := new.Pos(field, SchemaPath(path)...)
		c.Changes = append(c.Changes, Finding{Rule: ch.Rule, Level: ClassLevel(ch.Class), Tool: new.Key(), Against: old.Key(), Path: ch.Path,
			Message: ch.Class.String() + ": " + ch.Text, Pos: pos, File: pos.File, Line: pos.Line, Col: pos.Col})
	}
	for _, field := range metadataChanges(old.Spec(), new.Spec()) {
		pos := new.Pos(field)
		c.Changes = append(c.Changes, Finding{Rule: field + "-changed", Level: Info, Tool: new.Key(), Against: old.Key(), Path: field,
			Message: "patch: " + field + " changed",
			Pos:     pos, File: pos.File, Line: pos.Line, Col: pos.Col})
		// Titles and descriptions are PATCH (docs/concepts.md#versions-and-lifecycle); the other
		// metadata (scopes, classification, tenants, side effect, owner)
		// changes who may call, not what a call may carry.
		c.Class = max(c.Class, schema.Patch)
	}
	if c.Class == schema.None {
		c.Suggested = old.Version.String()
	} else {
		c.Suggested = SuggestNext(old.Version, c.Class)
	}
	return c
}

// metadataChanges lists the contract fields other than the schemas that
// differ (title, description, side effect, scopes, classification, owner,
// tenants).
func metadataChanges(a, b estate.ToolSpec) []string {
	a.InputSchema, b.InputSchema, a.OutputSchema, b.OutputSchema = nil, nil, nil, nil
	return record.ContractChanges(a, b)
}

// SuggestNext is the version a change of class c from prev calls for:
// the next major for Major, the next minor for Minor, the next patch for
// Patch and None.
func SuggestNext(prev estate.Version, c schema.Class) string {
	switch c {
	case schema.Major:
		return fmt.Sprintf("%d.0.0", prev.Major()+1)
	case schema.Minor:
		return fmt.Sprintf("%d.%d.0", prev.Major(), prev.Minor()+1)
	}
	return fmt.Sprintf("%d.%d.%d", prev.Major(), prev.Minor(), prev.Patch()+1)
}

// Write prints the comparison in the named format (see Report.Write).
// Each change has the level its class gives it (ClassLevel): a diff
// informs, and -fail-on decides what fails.
func (c *Comparison) Write(w io.Writer, format string) error {
	verdict := fmt.Sprintf("%s → %s is %s; release it as %s", c.Old, c.New, c.Class, c.Suggested)
	if c.Class == schema.None {
		verdict = fmt.Sprintf("%s → %s: no change", c.Old, c.New)
	}
	return sheet{command: "diff", findings: c.Changes, verdict: verdict, value: c}.write(w, format)
}

// Fails reports whether a change reaches the level min (mcpgen diff
// -fail-on); the zero level is reached by nothing.
func (c *Comparison) Fails(min Level) bool {
	for _, f := range c.Changes {
		if f.Level.AtLeast(min) {
			return true
		}
	}
	return false
}
