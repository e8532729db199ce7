package record

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

func sample(t *testing.T) []estate.ToolSpec {
	t.Helper()
	est, err := manifest.LoadDir("../../manifests")
	if err != nil {
		t.Fatal(err)
	}
	return est.Specs()
}

// TestRoundTrip: a record written and read back gives the same specs and
// the same bytes, whatever order the specs came in.
func TestRoundTrip(t *testing.T) {
	specs := sample(t)
	a, err := FromSpecs(specs).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	reversed := make([]estate.ToolSpec, len(specs))
	for i, s := range specs {
		reversed[len(specs)-1-i] = s
	}
	b, _ := FromSpecs(reversed).Marshal()
	if !bytes.Equal(a, b) {
		t.Fatal("the record depends on the order of the specs")
	}
	r, err := Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	back, err := r.Specs()
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(specs) {
		t.Fatalf("%d specs back, want %d", len(back), len(specs))
	}
	for i := range specs {
		if changes := ContractChanges(specs[i], back[i]); len(changes) > 0 || back[i].Lifecycle != specs[i].Lifecycle || back[i].SupersededBy != specs[i].SupersededBy {
			t.Errorf("%s changed in the round trip: %v", specs[i].Key(), changes)
		}
		if back[i].InputSchema.Hash() != specs[i].InputSchema.Hash() {
			t.Errorf("%s: hash changed", specs[i].Key())
		}
	}
	c, _ := r.Marshal()
	if !bytes.Equal(a, c) {
		t.Error("parse → marshal is not the identity")
	}
}

func TestContractChanges(t *testing.T) {
	specs := sample(t)
	a := specs[1] // payments.lookup@1.0.0
	b := a
	b.Lifecycle, b.SupersededBy = estate.Retired, ""
	if c := ContractChanges(a, b); len(c) != 0 {
		t.Errorf("lifecycle and supersededBy are not contract: %v", c)
	}
	b.RequiredScopes = []string{"payments.read", "payments.read"}
	if c := ContractChanges(a, b); len(c) != 0 {
		t.Errorf("scopes compare as sets: %v", c)
	}
	b.Description, b.Owner, b.InputSchema = "other", "other", specs[2].InputSchema
	if c := ContractChanges(a, b); !reflect.DeepEqual(c, []string{"description", "owner", "inputSchema"}) {
		t.Errorf("changes %v", c)
	}
}

func TestParseRefusesUnknownFormat(t *testing.T) {
	if _, err := Parse([]byte(`{"format": 2, "generator": "mcpgen", "tools": []}`)); err == nil {
		t.Error("format 2 accepted")
	}
	if _, err := Parse([]byte(`{"format": 1, "tools": [], "extra": true}`)); err == nil {
		t.Error("unknown field accepted")
	}
}

func TestLoadMissingIsEmpty(t *testing.T) {
	r, err := Load(t.TempDir())
	if err != nil || len(r.Tools) != 0 {
		t.Errorf("Load of an empty dir: %v %v", r, err)
	}
}
