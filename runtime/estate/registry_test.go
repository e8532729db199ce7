package estate

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestPublishInvalidSpec(t *testing.T) {
	r := NewRegistry()
	s := spec("payments.lookup", "1.0.0", base)
	s.SideEffect = ""
	pe := publishErr(t, r, s)
	if pe.Rule != "invalid-spec" || pe.Key != "payments.lookup@1.0.0" || !strings.Contains(pe.Message, "side effect") {
		t.Errorf("got %+v", pe)
	}
	if len(r.Names()) != 0 || r.Generation() != 0 {
		t.Error("a refused publish changed the registry")
	}
}

// Invariant 6 (docs/concepts.md#the-gates): a published (name, version) is never mutated or
// replaced.
func TestPublishImmutable(t *testing.T) {
	r := NewRegistry()
	orig := spec("payments.lookup", "1.0.0", base)
	orig.RequiredScopes = []string{"payments.read"}
	orig.Tenants = []string{"retail"}
	mustPublish(t, r, orig)
	gen := r.Generation()

	replacement := spec("payments.lookup", "1.0.0", withRequired)
	replacement.Description = "Something else entirely."
	pe := publishErr(t, r, replacement)
	if pe.Rule != "immutable" || pe.Key != "payments.lookup@1.0.0" || pe.Against != "1.0.0" {
		t.Errorf("got %+v", pe)
	}
	if pe.Message != "payments.lookup@1.0.0 already published; publish a new version instead" {
		t.Errorf("Message = %q", pe.Message)
	}
	if pe.Error() != pe.Message {
		t.Errorf("Error() = %q, want the Message", pe.Error())
	}
	if r.Generation() != gen {
		t.Error("a refused publish bumped the generation")
	}

	// The publisher's slices and the reader's copies cannot reach inside.
	orig.RequiredScopes[0] = "nothing"
	orig.Tenants[0] = "wholesale"
	got, ok := r.Get("payments.lookup", MustParseVersion("1.0.0"))
	if !ok {
		t.Fatal("published version missing")
	}
	got.RequiredScopes[0] = "edited"
	again, _ := r.Get("payments.lookup", MustParseVersion("1.0.0"))
	if again.Description != "A tool." || again.InputSchema.Hash() != schema.MustParseJSON(base).Hash() ||
		!slices.Equal(again.RequiredScopes, []string{"payments.read"}) || !slices.Equal(again.Tenants, []string{"retail"}) {
		t.Errorf("published version changed: %+v", again)
	}
	if again.Lifecycle != Active {
		t.Errorf("empty lifecycle stored as %q, want active", again.Lifecycle)
	}

	// What the schema hands out are copies: editing them changes neither
	// what is enforced nor what is listed. (Its state is unexported, so
	// there is nothing else to edit.)
	in := got.InputSchema
	required := in.Required()
	required[0] = "nothing"
	types := in.Types()
	types[0] = schema.KindString
	if errs := again.InputSchema.Validate(map[string]any{}); len(errs) != 1 || errs[0].String() != "$.reference: required property is missing" {
		t.Errorf("a call the contract refuses got %v after its accessors' results were edited", errs)
	}
	if again.InputSchema.Hash() != schema.MustParseJSON(base).Hash() {
		t.Error("the listed contract changed")
	}

	// Still immutable once retired: a retired number is never reused.
	if err := r.Retire("payments.lookup", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if pe := publishErr(t, r, spec("payments.lookup", "1.0.0", base)); pe.Rule != "immutable" {
		t.Errorf("republish of a retired version: rule %q", pe.Rule)
	}
}

func TestPublishNotNewer(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "1.1.0", withOptional))
	for _, v := range []string{"1.0.5", "0.9.0"} {
		pe := publishErr(t, r, spec("t", v, withOptional))
		if pe.Rule != "not-newer" || pe.Against != "1.1.0" || pe.Key != "t@"+v {
			t.Errorf("%s: got %+v", v, pe)
		}
		if pe.Message != "t@"+v+" is not newer than the current latest t@1.1.0" {
			t.Errorf("Message = %q", pe.Message)
		}
	}
}

func TestPublishBumpEnforcement(t *testing.T) {
	tests := []struct {
		name     string
		next     string // input schema of the new version (from base@1.2.0)
		class    schema.Class
		accept   []string
		refuse   []string
		expected string // the refusal's advice
	}{
		{"major", withRequired, schema.Major, []string{"2.0.0", "2.1.0", "2.0.3"}, []string{"1.2.1", "1.3.0", "3.0.0"}, "major version must be 2"},
		{"minor", withOptional, schema.Minor, []string{"1.3.0", "1.7.0", "1.3.2"}, []string{"1.2.1", "2.0.0", "2.1.0"}, "expected 1.3.0"},
		{"patch", described, schema.Patch, []string{"1.2.1", "1.3.0", "2.0.0"}, nil, ""},
		{"none", base, schema.None, []string{"1.2.1", "1.3.0", "2.0.0"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range tt.refuse {
				r := NewRegistry()
				mustPublish(t, r, spec("t", "1.2.0", base))
				pe := publishErr(t, r, spec("t", v, tt.next))
				if pe.Rule != "bump-too-small" || pe.Key != "t@"+v || pe.Against != "1.2.0" || pe.Diff.Class != tt.class {
					t.Errorf("%s: got rule %q key %q against %q class %v", v, pe.Rule, pe.Key, pe.Against, pe.Diff.Class)
				}
				if len(pe.Diff.Changes) == 0 {
					t.Errorf("%s: the refusal carries no reasons", v)
				}
				want := "t@" + v + ": schema change is " + tt.class.String() + "; " + tt.expected
				if !strings.HasPrefix(pe.Message, want) || strings.Contains(pe.Message, "\n") {
					t.Errorf("%s: Message = %q, want it to start with %q", v, pe.Message, want)
				}
			}
			for _, v := range tt.accept {
				r := NewRegistry()
				mustPublish(t, r, spec("t", "1.2.0", base))
				mustPublish(t, r, spec("t", v, tt.next))
			}
		})
	}
}

func TestPublishBumpErrorNamesTheReason(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("payments.lookup", "1.0.0", base))
	pe := publishErr(t, r, spec("payments.lookup", "1.1.0", withRequired))
	if pe.Message != "payments.lookup@1.1.0: schema change is major; major version must be 2" {
		t.Errorf("Message = %q", pe.Message)
	}
	found := false
	for _, c := range pe.Diff.Changes {
		if c.Rule == "required-added" && c.Path == "$.account" && c.Class == schema.Major {
			found = true
		}
	}
	if !found {
		t.Errorf("Diff does not report the added required property: %+v", pe.Diff.Changes)
	}
}

// The output schema is classified in the Output direction (a looser output
// breaks consumers) and the more severe class of the two wins.
func TestPublishOutputSchemaDirection(t *testing.T) {
	out := func(doc string) *schema.Schema { return schema.MustParseJSON(doc) }
	statusAB := `{"type":"object","properties":{"status":{"enum":["held","released"]}},"required":["status"],"additionalProperties":false}`
	statusABC := `{"type":"object","properties":{"status":{"enum":["held","released","failed"]}},"required":["status"],"additionalProperties":false}`

	first := spec("t", "1.0.0", base)
	first.OutputSchema = out(statusAB)

	// A widened output enum: minor for an input, major for an output.
	r := NewRegistry()
	mustPublish(t, r, first)
	wider := spec("t", "1.1.0", withOptional) // input alone: minor
	wider.OutputSchema = out(statusABC)
	pe := publishErr(t, r, wider)
	if pe.Rule != "bump-too-small" || pe.Diff.Class != schema.Major {
		t.Fatalf("got %+v", pe)
	}
	var sawInput, sawOutput bool
	for _, c := range pe.Diff.Changes {
		switch {
		case c.Path == "output:$.status" && c.Class == schema.Major:
			sawOutput = true
		case c.Path == "$.legs" && c.Class == schema.Minor:
			sawInput = true
		}
	}
	if !sawInput || !sawOutput {
		t.Errorf("Diff should carry the input change at $.legs and the output change at output:$.status: %+v", pe.Diff.Changes)
	}
	wider.Version = MustParseVersion("2.0.0")
	mustPublish(t, r, wider)

	// A narrowed output enum is only minor.
	r = NewRegistry()
	first.OutputSchema = out(statusABC)
	mustPublish(t, r, first)
	narrower := spec("t", "1.1.0", base)
	narrower.OutputSchema = out(statusAB)
	mustPublish(t, r, narrower)
	patch := spec("t", "1.1.1", base)
	patch.OutputSchema = out(statusAB)
	mustPublish(t, r, patch)

	// Dropping the output schema promises less: major.
	dropped := spec("t", "1.2.0", base)
	if pe := publishErr(t, r, dropped); pe.Diff.Class != schema.Major {
		t.Errorf("dropping the output schema: class %v, want major", pe.Diff.Class)
	}
}

// docs/concepts.md#versions-and-lifecycle: evolution is from the live contract. After 1.0.0 is
// deprecated and 2.0.0 published, 2.1.0 is classified against 2.0.0.
func TestPublishComparesWithLiveContract(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	if err := r.Deprecate("t", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	// No active version: 2.0.0 needs only to be newer.
	mustPublish(t, r, spec("t", "2.0.0", withOptional))
	// withTwoOptional is minor against 2.0.0 (accepted as 2.1.0); against
	// 1.0.0 it would also be minor and demand major 1, refusing 2.1.0.
	mustPublish(t, r, spec("t", "2.1.0", withTwoOptional))

	pe := publishErr(t, r, spec("t", "2.1.1", withRequired))
	if pe.Against != "2.1.0" || pe.Message != "t@2.1.1: schema change is major; major version must be 3" {
		t.Errorf("got %+v", pe)
	}
}

// Monotonicity is against the latest ACTIVE version: with 2.0.0
// deprecated, 1.1.0 is newer than the live 1.0.0 and is accepted.
func TestPublishAgainstLatestActiveNotNewest(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "2.0.0", withRequired))
	if err := r.Deprecate("t", "2.0.0", ""); err != nil {
		t.Fatal(err)
	}
	mustPublish(t, r, spec("t", "1.1.0", withOptional))
	if got, _ := r.Latest("t"); got.Key() != "t@1.1.0" {
		t.Errorf("Latest = %s", got.Key())
	}
	// And the bump is judged against 1.0.0: a required property needs 2.x,
	// which is a newer major than the live 1.1.0 — but 2.0.0 is taken.
	if pe := publishErr(t, r, spec("t", "2.0.0", withRequired)); pe.Rule != "immutable" {
		t.Errorf("rule %q", pe.Rule)
	}
}

// With no active version left, a new version must be newer than every
// published one, and no bump is enforced.
func TestPublishWithNoActiveVersion(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "2.0.0", withRequired))
	for _, v := range []string{"1.0.0", "2.0.0"} {
		if err := r.Retire("t", v); err != nil {
			t.Fatal(err)
		}
	}
	pe := publishErr(t, r, spec("t", "1.5.0", base))
	if pe.Rule != "not-newer" || pe.Against != "2.0.0" {
		t.Errorf("got %+v", pe)
	}
	mustPublish(t, r, spec("t", "2.0.1", base)) // a major change, released as a patch: no live contract to break
}

func TestFirstPublishSkipsTheGuard(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("a", "0.0.1", base))
	mustPublish(t, r, spec("b", "7.3.9", withRequired))
	if got := r.Names(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Names = %v", got)
	}
}

func TestDeprecateAndRetireChangeOnlyLifecycle(t *testing.T) {
	r := NewRegistry()
	orig := spec("payments.lookup", "1.0.0", base)
	orig.RequiredScopes = []string{"payments.read"}
	orig.Tenants = []string{"retail"}
	orig.OutputSchema = schema.MustParseJSON(`{"type":"object"}`)
	mustPublish(t, r, orig)
	mustPublish(t, r, spec("payments.lookup", "2.0.0", withRequired))
	v1 := MustParseVersion("1.0.0")
	before, _ := r.Get("payments.lookup", v1)

	if err := r.Deprecate("payments.lookup", "1.0.0", "payments.lookup@2.0.0"); err != nil {
		t.Fatal(err)
	}
	got, _ := r.Get("payments.lookup", v1)
	if got.Lifecycle != Deprecated || got.SupersededBy != "payments.lookup@2.0.0" {
		t.Errorf("after Deprecate: lifecycle %q supersededBy %q", got.Lifecycle, got.SupersededBy)
	}
	got.Lifecycle, got.SupersededBy = before.Lifecycle, before.SupersededBy
	if !reflect.DeepEqual(got, before) {
		t.Errorf("Deprecate changed more than lifecycle and supersededBy:\n%+v\n%+v", got, before)
	}

	if err := r.Retire("payments.lookup", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	got, _ = r.Get("payments.lookup", v1)
	if got.Lifecycle != Retired || got.SupersededBy != "payments.lookup@2.0.0" {
		t.Errorf("after Retire: lifecycle %q supersededBy %q (retiring keeps the successor)", got.Lifecycle, got.SupersededBy)
	}
	got.Lifecycle, got.SupersededBy = before.Lifecycle, before.SupersededBy
	if !reflect.DeepEqual(got, before) {
		t.Errorf("Retire changed more than lifecycle")
	}
}

func TestLifecycleErrors(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	gen := r.Generation()
	for name, err := range map[string]error{
		"unknown version":   r.Deprecate("t", "1.0.1", ""),
		"unknown tool":      r.Retire("u", "1.0.0"),
		"invalid version":   r.Retire("t", "1.0"),
		"invalid successor": r.Deprecate("t", "1.0.0", "t@2"),
		"self successor":    r.Deprecate("t", "1.0.0", "t@1.0.0"),
		"missing successor": r.Deprecate("t", "1.0.0", "t@2.0.0"),
		"other tool":        r.Deprecate("t", "1.0.0", "u@2.0.0"),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if r.Generation() != gen {
		t.Error("a refused lifecycle change bumped the generation")
	}
	if err := r.Retire("t", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if err := r.Deprecate("t", "1.0.0", ""); err == nil {
		t.Error("a retired version was deprecated (un-retired)")
	}
	if got, _ := r.Get("t", MustParseVersion("1.0.0")); got.Lifecycle != Retired {
		t.Errorf("lifecycle %q after a refused deprecate", got.Lifecycle)
	}
}

func TestGenerationAndOnChange(t *testing.T) {
	r := NewRegistry()
	var calls []uint64
	cancel := r.OnChange(func() {
		// Called outside the lock: reading the registry here must not
		// deadlock, and the change is already visible.
		calls = append(calls, r.Generation())
		_, _ = r.Latest("t")
	})
	second := 0
	cancel2 := r.OnChange(func() { second++ })

	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "1.1.0", withOptional))
	if err := r.Deprecate("t", "1.0.0", "t@1.1.0"); err != nil {
		t.Fatal(err)
	}
	// Repeating a lifecycle change that changes nothing is not a change.
	if err := r.Deprecate("t", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	if err := r.Retire("t", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if err := r.Retire("t", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	_ = r.Publish(spec("t", "1.1.0", base)) // refused: not a change
	if want := []uint64{1, 2, 3, 4}; !slices.Equal(calls, want) {
		t.Errorf("subscriber saw generations %v, want %v", calls, want)
	}
	if r.Generation() != 4 || second != 4 {
		t.Errorf("Generation = %d, second subscriber called %d times; want 4 and 4", r.Generation(), second)
	}

	cancel()
	cancel() // twice is harmless
	mustPublish(t, r, spec("t", "1.2.0", withTwoOptional))
	if len(calls) != 4 || second != 5 {
		t.Errorf("after cancel: first called %d times (want 4), second %d (want 5)", len(calls), second)
	}
	cancel2()
}

// Invariant 7 (docs/concepts.md#the-gates): Latest never returns a deprecated or retired version;
// Resolve never returns a retired one.
func TestLatestAndResolveLifecycle(t *testing.T) {
	r := NewRegistry()
	for _, v := range []string{"1.0.0", "1.1.0", "1.2.0"} {
		mustPublish(t, r, spec("t", v, withOptional))
	}
	star, _ := ParseConstraint("*")
	caret1, _ := ParseConstraint("^1.0.0")
	exact, _ := ParseConstraint("1.2.0")
	check := func(latest, resolveStar, resolveExact string) {
		t.Helper()
		l, ok := r.Latest("t")
		if got := map[bool]string{true: l.Key(), false: ""}[ok]; got != latest {
			t.Errorf("Latest = %q, want %q", got, latest)
		}
		s, ok := r.Resolve("t", star)
		if got := map[bool]string{true: s.Key(), false: ""}[ok]; got != resolveStar {
			t.Errorf("Resolve(*) = %q, want %q", got, resolveStar)
		}
		if c, _ := r.Resolve("t", caret1); c.Key() != s.Key() {
			t.Errorf("Resolve(^1.0.0) = %q, Resolve(*) = %q", c.Key(), s.Key())
		}
		e, ok := r.Resolve("t", exact)
		if got := map[bool]string{true: e.Key(), false: ""}[ok]; got != resolveExact {
			t.Errorf("Resolve(1.2.0) = %q, want %q", got, resolveExact)
		}
	}
	check("t@1.2.0", "t@1.2.0", "t@1.2.0")
	_ = r.Deprecate("t", "1.2.0", "")
	check("t@1.1.0", "t@1.2.0", "t@1.2.0") // a pin still reaches a deprecated version
	_ = r.Retire("t", "1.2.0")
	check("t@1.1.0", "t@1.1.0", "")
	_ = r.Retire("t", "1.1.0")
	_ = r.Deprecate("t", "1.0.0", "")
	check("", "t@1.0.0", "")
	_ = r.Retire("t", "1.0.0")
	check("", "", "")
	if _, ok := r.Latest("missing"); ok {
		t.Error("Latest of an unknown tool")
	}
}

// A random walk over publish, deprecate and retire, checking invariants 6
// and 7 after every step.
func TestLifecycleInvariantsRandomWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := NewRegistry()
	star, _ := ParseConstraint("*")
	names := []string{"a", "b", "c"}
	published := map[string]string{} // key -> description at publish
	next := map[string]int{}
	for step := range 500 {
		name := names[rng.IntN(len(names))]
		versions := r.Versions(name)
		switch op := rng.IntN(4); {
		case op <= 1 || len(versions) == 0:
			next[name]++
			s := spec(name, "1.0."+strconv.Itoa(next[name]), base)
			s.Description = "step " + strconv.Itoa(step)
			if err := r.Publish(s); err == nil {
				published[s.Key()] = s.Description
			}
		case op == 2:
			_ = r.Deprecate(name, versions[rng.IntN(len(versions))].Version.String(), "")
		default:
			_ = r.Retire(name, versions[rng.IntN(len(versions))].Version.String())
		}
		for _, n := range r.Names() {
			if l, ok := r.Latest(n); ok && l.Lifecycle != Active {
				t.Fatalf("step %d: Latest(%s) = %s, %s", step, n, l.Key(), l.Lifecycle)
			}
			if s, ok := r.Resolve(n, star); ok && s.Lifecycle == Retired {
				t.Fatalf("step %d: Resolve(%s) = retired %s", step, n, s.Key())
			}
			vs := r.Versions(n)
			for i, s := range vs {
				if i > 0 && vs[i-1].Version.Compare(s.Version) >= 0 {
					t.Fatalf("step %d: Versions(%s) not ascending: %v", step, n, keys(vs))
				}
				if published[s.Key()] != s.Description {
					t.Fatalf("step %d: %s was replaced", step, s.Key())
				}
			}
		}
	}
}

// TestSuccessorRule: a lifecycle change may only name a successor that is
// a published, newer version of the same tool, and a refused one changes
// nothing.
func TestSuccessorRule(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "2.0.0", base))
	mustPublish(t, r, spec("u", "3.0.0", base))
	gen := r.Generation()
	for successor, want := range map[string]string{
		"t@3.0.0": `t@1.0.0: supersededBy "t@3.0.0" names a version that is not published`,
		"u@3.0.0": `t@1.0.0: supersededBy "u@3.0.0" names another tool (a successor is a newer version of t)`,
		"t@0.9.0": `t@1.0.0: supersededBy "t@0.9.0" names an older version (a successor is newer than 1.0.0)`,
	} {
		err := r.Deprecate("t", "1.0.0", successor)
		if err == nil || err.Error() != want {
			t.Errorf("Deprecate to %s: %v, want %s", successor, err, want)
		}
	}
	if r.Generation() != gen {
		t.Fatal("a refused successor changed the estate")
	}
	if err := r.Deprecate("t", "1.0.0", "t@2.0.0"); err != nil {
		t.Fatalf("a published newer successor refused: %v", err)
	}
}

// TestCheckSuccessors: a batch is checked whole, so a version may name a
// successor published after it in the same batch, or already published,
// and every dangling successor is named.
func TestCheckSuccessors(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("v", "5.0.0", base))
	old := spec("t", "1.0.0", base)
	old.Lifecycle, old.SupersededBy = Deprecated, "t@2.0.0"
	other := spec("v", "4.0.0", base)
	other.Lifecycle, other.SupersededBy = Deprecated, "v@5.0.0"
	if err := r.CheckSuccessors([]ToolSpec{old, other, spec("t", "2.0.0", base)}); err != nil {
		t.Fatalf("successors in the batch and the registry refused: %v", err)
	}
	err := r.CheckSuccessors([]ToolSpec{old, other})
	if !errors.Is(err, ErrNoSuccessor) || !strings.Contains(err.Error(), "t@1.0.0: ") || strings.Contains(err.Error(), "v@4.0.0") {
		t.Errorf("a dangling successor: %v", err)
	}
}
