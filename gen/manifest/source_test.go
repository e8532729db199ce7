package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// at is a Locator that writes every field of a version on its own line of
// file, numbered by the field, so a test can see which one was asked for.
func at(file string, line int) Locator {
	fields := map[string]int{"": 0, "name": 1, "version": 2, "supersededBy": 3, "inputSchema": 4}
	return func(field string, path ...string) Pos {
		return Pos{File: file, Line: line + fields[field], Col: 1 + len(path)}
	}
}

func sourceSpec(name, version string) estate.ToolSpec {
	return estate.ToolSpec{Name: name, Version: estate.MustParseVersion(version), Description: "d", SideEffect: estate.Read,
		DataClassification: estate.Public, Owner: "o", InputSchema: schema.MustParseJSON(`{"type":"object"}`)}
}

func TestNewEstate(t *testing.T) {
	b2 := sourceSpec("b", "2.0.0")
	b1 := sourceSpec("b", "1.0.0")
	b1.Lifecycle, b1.SupersededBy = estate.Deprecated, "b@2.0.0"
	e, err := NewEstate("src", nil, []*Version{
		NewVersion(b2, at("b.go", 10)), NewVersion(sourceSpec("a", "1.0.0"), at("a.go", 1)), NewVersion(b1, at("b.go", 20)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Tools) != 2 || e.Tools[0].Name != "a" || e.Tools[1].Name != "b" {
		t.Fatalf("tools %+v", e.Tools)
	}
	b := e.Tools[1]
	if b.Pos != (Pos{"b.go", 11, 1}) || b.File != "b.go" {
		t.Errorf("tool b written at %s in %s, want b.go:11:1, where its first version names it", b.Pos, b.File)
	}
	if len(b.Versions) != 2 || b.Versions[0].Version.String() != "1.0.0" {
		t.Errorf("versions of b not sorted: %v", b.Versions)
	}
	if got := b.Versions[0].Pos("inputSchema", "properties", "x"); got != (Pos{"b.go", 24, 3}) {
		t.Errorf("Pos asks the locator: got %s", got)
	}
	if b.Versions[0].Lifecycle != estate.Deprecated || e.Tools[0].Versions[0].Lifecycle != estate.Active {
		t.Errorf("lifecycles %s and %s, want deprecated and the default active", b.Versions[0].Lifecycle, e.Tools[0].Versions[0].Lifecycle)
	}
}

func TestNewEstateErrors(t *testing.T) {
	bad := sourceSpec("a", "1.0.0")
	bad.Owner = ""
	lost := sourceSpec("c", "1.0.0")
	lost.SupersededBy = "c@2.0.0"
	_, err := NewEstate("src", nil, []*Version{
		NewVersion(sourceSpec("b", "1.0.0"), at("b.go", 10)),
		NewVersion(sourceSpec("b", "1.0.0"), at("b2.go", 30)),
		NewVersion(bad, at("a.go", 1)),
		NewVersion(lost, at("c.go", 5)),
	})
	var list List
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T), want a List", err, err)
	}
	want := []string{
		`a.go:1:1: a@1.0.0: owner is empty`,
		`b2.go:32:1: b@1.0.0 is also declared at b.go:10:1`,
		`c.go:8:1: supersededBy "c@2.0.0" names a version that no manifest in this directory declares`,
	}
	if got := strings.Split(list.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", list.Error(), strings.Join(want, "\n"))
	}
}
