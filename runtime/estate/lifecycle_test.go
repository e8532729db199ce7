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
		{Name: "crm.notes.append", Version: "1.0.0", To: Preview},
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

// TestPreviewRollout: a major published as preview is reached only by a
// pin that nothing else satisfies; discovery, an unpinned call and a broad
// pin stay on the active line. Promoting it is one lifecycle change, with
// one notification, after which discovery and unpinned calls reach it; a
// promoted version cannot go back to preview.
func TestPreviewRollout(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("payments.lookup", "1.0.0", base))
	mustPublish(t, r, spec("payments.lookup", "1.1.0", withOptional))
	next := spec("payments.lookup", "2.0.0", withRequired)
	next.Lifecycle = Preview
	mustPublish(t, r, next)
	p := Principal{AgentID: "a", MaxClassification: Internal}

	reach := func(pin string) string {
		t.Helper()
		var c *Constraint
		if pin != "" {
			parsed, err := ParseConstraint(pin)
			if err != nil {
				t.Fatal(err)
			}
			c = &parsed
		}
		s, ok, err := r.ResolveFor(p, "payments.lookup", c)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return "none"
		}
		return s.Version.String()
	}
	listed := func() string {
		t.Helper()
		d, err := r.Discover(p)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(keys(d), ",")
	}
	for pin, want := range map[string]string{"": "1.1.0", "*": "1.1.0", ">=1.0.0": "1.1.0", "^1": "1.1.0", "1.0.0": "1.0.0", "^2": "2.0.0", "2.0.0": "2.0.0", "^3": "none"} {
		if got := reach(pin); got != want {
			t.Errorf("preview: pin %q reaches %s, want %s", pin, got, want)
		}
	}
	if got := listed(); got != "payments.lookup@1.1.0" {
		t.Errorf("preview: discovery lists %s, want payments.lookup@1.1.0", got)
	}
	if s, _ := r.Latest("payments.lookup"); s.Version.String() != "1.1.0" {
		t.Errorf("preview: latest is %s, want 1.1.0", s.Key())
	}

	notified := 0
	r.OnChange(func() { notified++ })
	if err := r.ChangeLifecycles([]LifecycleChange{{Name: "payments.lookup", Version: "2.0.0", To: Active}}); err != nil {
		t.Fatal(err)
	}
	if notified != 1 {
		t.Errorf("the promotion sent %d notifications, want 1", notified)
	}
	for pin, want := range map[string]string{"": "2.0.0", "*": "2.0.0", "^1": "1.1.0", "^2": "2.0.0"} {
		if got := reach(pin); got != want {
			t.Errorf("promoted: pin %q reaches %s, want %s", pin, got, want)
		}
	}
	if got := listed(); got != "payments.lookup@2.0.0" {
		t.Errorf("promoted: discovery lists %s, want payments.lookup@2.0.0", got)
	}
	err := r.ChangeLifecycles([]LifecycleChange{{Name: "payments.lookup", Version: "2.0.0", To: Preview}})
	if err == nil {
		t.Error("an active version went back to preview")
	}
	if !Active.CanMoveTo(Deprecated) || !Preview.CanMoveTo(Active) || !Preview.CanMoveTo(Retired) || Active.CanMoveTo(Preview) || Lifecycle("").CanMoveTo(Preview) {
		t.Error("CanMoveTo does not order preview before active")
	}
}
