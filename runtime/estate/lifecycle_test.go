package estate

import (
	"strings"
	"testing"
)

// TestChangeLifecyclesIsAllOrNothing: a set of changes with one that
// cannot apply (a version nobody published, a backward move, a version
// named twice) changes nothing, whatever its order, and the error names
// every refused change; a set that applies is one change, with one
// generation and one notification.
func TestChangeLifecyclesIsAllOrNothing(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("crm.notes.append", "1.0.0", base))
	mustPublish(t, r, spec("payments.release", "1.0.0", base))
	if err := r.Retire("payments.release", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	notified := 0
	r.OnChange(func() { notified++ })
	good := LifecycleChange{Name: "crm.notes.append", Version: "1.0.0", To: Retired}
	for _, bad := range []LifecycleChange{
		{Name: "payments.release", Version: "9.9.9", To: Retired},
		{Name: "payments.release", Version: "1.0.0", To: Deprecated},
		{Name: "crm.notes.append", Version: "1.0.0", To: Active},
		{Name: "crm.notes.append", Version: "x", To: Retired},
		{Name: "crm.notes.append", Version: "1.0.0", To: Deprecated, SupersededBy: "crm.notes.append@1.0.0"},
		good, // named twice
	} {
		for _, changes := range [][]LifecycleChange{{good, bad}, {bad, good}} {
			gen := r.Generation()
			err := r.ChangeLifecycles(changes)
			if err == nil || !strings.Contains(err.Error(), bad.Key()) {
				t.Errorf("%v: error %v, want one naming %s", changes, err, bad.Key())
			}
			if s, _ := r.Get("crm.notes.append", MustParseVersion("1.0.0")); s.Lifecycle != Active || r.Generation() != gen || notified != 0 {
				t.Fatalf("%v was applied in part: %s is %s, generation %d to %d, %d notifications", changes, s.Key(), s.Lifecycle, gen, r.Generation(), notified)
			}
		}
	}
	gen := r.Generation()
	err := r.ChangeLifecycles([]LifecycleChange{good, {Name: "payments.release", Version: "1.0.0", To: Retired}})
	if s, _ := r.Get("crm.notes.append", MustParseVersion("1.0.0")); err != nil || s.Lifecycle != Retired || r.Generation() != gen+1 || notified != 1 {
		t.Errorf("a change that applies: %v, %s, generation %d to %d, %d notifications", err, s.Lifecycle, gen, r.Generation(), notified)
	}
}
