package estate

import "testing"

func TestSideEffectRetryableEveryMember(t *testing.T) {
	// Which side effects a caller may retry. Iterating SideEffects() (not this map)
	// means a new member without a decision here fails the test.
	want := map[SideEffect]bool{
		Read:               true,
		WriteIdempotent:    true,
		WriteNonIdempotent: false,
		Irreversible:       false,
	}
	members := SideEffects()
	if len(members) != len(want) {
		t.Errorf("SideEffects() has %d members, the retry table %d", len(members), len(want))
	}
	seen := map[SideEffect]bool{}
	for _, s := range members {
		if seen[s] {
			t.Errorf("SideEffects() lists %q twice", s)
		}
		seen[s] = true
		retry, ok := want[s]
		if !ok {
			t.Errorf("no retry decision for side effect %q", s)
			continue
		}
		if got := s.Retryable(); got != retry {
			t.Errorf("%q.Retryable() = %v, want %v", s, got, retry)
		}
		if parsed, err := ParseSideEffect(string(s)); err != nil || parsed != s {
			t.Errorf("ParseSideEffect(%q) = %q, %v", s, parsed, err)
		}
	}
}

func TestParseSideEffectUnknown(t *testing.T) {
	for _, s := range []string{"", "Read", "READ", "write", "delete", "read "} {
		if got, err := ParseSideEffect(s); err == nil {
			t.Errorf("ParseSideEffect(%q) = %q, want an error (never a default)", s, got)
		}
	}
	unknown := SideEffect("write")
	if unknown.Retryable() {
		t.Error("an unknown side effect must not be retryable")
	}
	if h := unknown.Hints(); h.ReadOnly || !h.Destructive || h.Idempotent {
		t.Errorf("unknown side effect hints = %+v, want the most cautious", h)
	}
}

func TestSideEffectHints(t *testing.T) {
	want := map[SideEffect]Hints{
		Read:               {ReadOnly: true, Destructive: false, Idempotent: true},
		WriteIdempotent:    {ReadOnly: false, Destructive: false, Idempotent: true},
		WriteNonIdempotent: {ReadOnly: false, Destructive: true, Idempotent: false},
		Irreversible:       {ReadOnly: false, Destructive: true, Idempotent: false},
	}
	for _, s := range SideEffects() {
		h, ok := want[s]
		if !ok {
			t.Errorf("no hints decision for %q", s)
			continue
		}
		if got := s.Hints(); got != h {
			t.Errorf("%q.Hints() = %+v, want %+v", s, got, h)
		}
	}
}

func TestClassificationRank(t *testing.T) {
	order := []Classification{Public, Internal, Confidential, Restricted}
	for i, c := range order {
		r, err := c.Rank()
		if err != nil || r != i {
			t.Errorf("%q.Rank() = %d, %v; want %d", c, r, err, i)
		}
		if p, err := ParseClassification(string(c)); err != nil || p != c {
			t.Errorf("ParseClassification(%q) = %q, %v", c, p, err)
		}
	}
	for _, s := range []string{"", "secret", "Public", "confidental"} {
		if _, err := Classification(s).Rank(); err == nil {
			t.Errorf("Rank(%q) did not fail", s)
		}
		if _, err := ParseClassification(s); err == nil {
			t.Errorf("ParseClassification(%q) did not fail", s)
		}
	}
}

func TestParseLifecycle(t *testing.T) {
	for _, l := range []Lifecycle{Active, Deprecated, Retired} {
		if got, err := ParseLifecycle(string(l)); err != nil || got != l {
			t.Errorf("ParseLifecycle(%q) = %q, %v", l, got, err)
		}
	}
	for _, s := range []string{"", "retird", "Active", "live"} {
		if _, err := ParseLifecycle(s); err == nil {
			t.Errorf("ParseLifecycle(%q) did not fail", s)
		}
	}
}

func TestLifecycleMovesForwardOnly(t *testing.T) {
	order := []Lifecycle{"", Active, Deprecated, Retired}
	stageOf := map[Lifecycle]int{"": 0, Active: 0, Deprecated: 1, Retired: 2}
	for _, from := range order {
		for _, to := range order {
			if got, want := from.CanMoveTo(to), stageOf[to] >= stageOf[from]; got != want {
				t.Errorf("%q.CanMoveTo(%q) = %v, want %v", from, to, got, want)
			}
		}
	}
	if Lifecycle("").OrActive() != Active || Retired.OrActive() != Retired {
		t.Error("OrActive")
	}
}
