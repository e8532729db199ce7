package estate

import (
	"errors"
	"testing"
)

// TestCheckPublishAgreesWithPublish: the guard applied to an explicit
// history answers what a Registry holding that history answers.
func TestCheckPublishAgreesWithPublish(t *testing.T) {
	v1 := spec("payments.lookup", "1.0.0", base)
	v1.Lifecycle = Deprecated
	v2 := spec("payments.lookup", "2.0.0", withRequired)
	history := []ToolSpec{v2, v1} // any order

	r := NewRegistry()
	mustPublish(t, r, spec("payments.lookup", "1.0.0", base))
	mustPublish(t, r, v2)
	if err := r.Deprecate("payments.lookup", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}

	candidates := []struct {
		spec ToolSpec
		rule string // "" = accepted
	}{
		// Classified against the live 2.0.0, not the deprecated 1.0.0.
		{spec("payments.lookup", "2.1.0", `{"type":"object","properties":{"reference":{"type":"string"},"account":{"type":"string"},"legs":{"type":"boolean"}},"required":["account","reference"],"additionalProperties":false}`), ""},
		{spec("payments.lookup", "2.0.0", withRequired), ruleImmutable},
		{spec("payments.lookup", "1.5.0", base), ruleNotNewer},
		{spec("payments.lookup", "2.1.0", base), ruleBumpTooSmall}, // account removed: major
		{spec("payments.lookup", "3.0.0", base), ""},
	}
	for _, c := range candidates {
		got := CheckPublish(c.spec, history)
		var pe *PublishError
		switch {
		case c.rule == "" && got != nil:
			t.Errorf("CheckPublish(%s) = %v, want accepted", c.spec.Key(), got)
		case c.rule != "" && (!errors.As(got, &pe) || pe.Rule != c.rule):
			t.Errorf("CheckPublish(%s) = %v, want rule %s", c.spec.Key(), got, c.rule)
		}
		// The registry must agree.
		fresh := NewRegistry()
		mustPublish(t, fresh, spec("payments.lookup", "1.0.0", base))
		mustPublish(t, fresh, v2)
		_ = fresh.Deprecate("payments.lookup", "1.0.0", "")
		if reg := fresh.Publish(c.spec); (reg == nil) != (got == nil) {
			t.Errorf("%s: CheckPublish says %v, Publish says %v", c.spec.Key(), got, reg)
		}
	}
	if len(history) != 2 || history[0].Version.String() != "2.0.0" {
		t.Error("CheckPublish reordered the caller's slice")
	}
}
