package optional_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/optional"
)

type args struct {
	Reference   string                `json:"reference"`
	IncludeLegs optional.Value[bool]  `json:"include_legs,omitzero"`
	Limit       optional.Value[int64] `json:"limit,omitzero"`
}

func TestOmitzeroLeavesUnsetOut(t *testing.T) {
	b, err := json.Marshal(args{Reference: "PMT-1", IncludeLegs: optional.Some(false)})
	if err != nil {
		t.Fatal(err)
	}
	// false is present (set), limit is absent.
	if string(b) != `{"reference":"PMT-1","include_legs":false}` {
		t.Errorf("got %s", b)
	}
	var back args
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.IncludeLegs.Get(); !ok || v {
		t.Errorf("include_legs = %v, %v", v, ok)
	}
	if back.Limit.Set || back.Limit.Or(7) != 7 {
		t.Errorf("limit = %+v", back.Limit)
	}
}
