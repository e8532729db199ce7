package check

import (
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func clSpec(name, version string, life estate.Lifecycle) estate.ToolSpec {
	return estate.ToolSpec{
		Name: name, Version: estate.MustParseVersion(version), Description: name,
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read,
		DataClassification: estate.Public, Owner: "team", Lifecycle: life,
	}
}

// TestChangelogEdges: a tool's first version is added, not promoted (there
// was no preview); a second stable major is not a promotion; a version
// added already deprecated is listed as both; a version the later record
// dropped is shown as removed; an unchanged tool is left out.
func TestChangelogEdges(t *testing.T) {
	from := []estate.ToolSpec{
		clSpec("a", "1.0.0", ""), clSpec("b", "1.0.0", estate.Active), clSpec("c", "1.0.0", estate.Active),
	}
	to := []estate.ToolSpec{
		clSpec("a", "1.0.0", estate.Active), clSpec("a", "2.0.0", estate.Active),
		clSpec("b", "1.0.0", estate.Active),
		clSpec("d", "1.0.0", estate.Active), clSpec("d", "1.1.0", estate.Deprecated),
	}
	cl := NewChangelog(from, to)
	var got []string
	for _, tc := range cl.Tools {
		got = append(got, tc.Tool)
		if len(tc.Promoted) > 0 {
			t.Errorf("%s: promoted %v", tc.Tool, tc.Promoted)
		}
	}
	if want := []string{"a", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	if a := cl.Tools[0]; len(a.Added) != 1 || a.Added[0].Against != "a@1.0.0" || len(a.Deprecated) != 0 {
		t.Errorf("a: %+v (an empty lifecycle is active: no deprecation)", a)
	}
	if c := cl.Tools[1]; !reflect.DeepEqual(c.Removed, []string{"c@1.0.0"}) {
		t.Errorf("c: %+v", c)
	}
	d := cl.Tools[2]
	if len(d.Added) != 2 || d.Added[0].Against != "" || d.Added[1].Against != "d@1.0.0" ||
		!reflect.DeepEqual(d.Deprecated, []Moved{{Version: "d@1.1.0"}}) {
		t.Errorf("d: %+v", d)
	}
}

// TestChangelogPreview: a version added as preview is listed as added and
// in preview, not promoted; its move to active is the promotion; a move
// from preview straight to retired is a retirement, not a promotion.
func TestChangelogPreview(t *testing.T) {
	from := []estate.ToolSpec{
		clSpec("a", "1.0.0", estate.Active), clSpec("a", "2.0.0", estate.Preview),
		clSpec("b", "1.0.0", estate.Active), clSpec("b", "2.0.0", estate.Preview),
	}
	to := []estate.ToolSpec{
		clSpec("a", "1.0.0", estate.Active), clSpec("a", "2.0.0", estate.Active), clSpec("a", "3.0.0", estate.Preview),
		clSpec("b", "1.0.0", estate.Active), clSpec("b", "2.0.0", estate.Retired),
	}
	cl := NewChangelog(from, to)
	if len(cl.Tools) != 2 {
		t.Fatalf("%d tools changed, want 2: %+v", len(cl.Tools), cl.Tools)
	}
	a, b := cl.Tools[0], cl.Tools[1]
	if !reflect.DeepEqual(a.Promoted, []string{"a@2.0.0"}) || !reflect.DeepEqual(a.Preview, []string{"a@3.0.0"}) || len(a.Added) != 1 {
		t.Errorf("a: %+v", a)
	}
	if len(b.Promoted) != 0 || !reflect.DeepEqual(b.Retired, []Moved{{Version: "b@2.0.0", From: estate.Preview}}) {
		t.Errorf("b: %+v", b)
	}
}
