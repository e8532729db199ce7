package estate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
)

func principal(tenant string, clearance Classification, scopes ...string) Principal {
	return Principal{AgentID: "agent-1", Tenant: tenant, Scopes: scopes, MaxClassification: clearance}
}

func scoped(s ToolSpec, scopes ...string) ToolSpec {
	s.RequiredScopes = scopes
	return s
}

func discoverKeys(t *testing.T, r *Registry, p Principal) []string {
	t.Helper()
	list, err := r.Discover(p)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return keys(list)
}

// Newest VISIBLE version, not newest version if visible (docs/concepts.md#discovery).
func TestDiscoverNewestVisibleVersion(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, scoped(spec("payments.lookup", "1.0.0", base), "payments.read"))
	mustPublish(t, r, scoped(spec("payments.lookup", "2.0.0", withRequired), "payments.read", "payments.sensitive"))

	reader := principal("retail", Confidential, "payments.read")
	if got := discoverKeys(t, r, reader); !slices.Equal(got, []string{"payments.lookup@1.0.0"}) {
		t.Errorf("reader sees %v, want 1.0.0", got)
	}
	both := principal("retail", Confidential, "payments.sensitive", "payments.read")
	if got := discoverKeys(t, r, both); !slices.Equal(got, []string{"payments.lookup@2.0.0"}) {
		t.Errorf("holder of both scopes sees %v, want 2.0.0", got)
	}
	// Two required scopes, one held: invisible.
	onlySensitive := principal("retail", Confidential, "payments.sensitive")
	if got := discoverKeys(t, r, onlySensitive); len(got) != 0 {
		t.Errorf("holder of one of two scopes sees %v", got)
	}
}

func TestDiscoverExcludesDeprecatedAndRetired(t *testing.T) {
	r := NewRegistry()
	for _, v := range []string{"1.0.0", "1.1.0", "1.2.0"} {
		mustPublish(t, r, spec("t", v, withOptional))
	}
	p := principal("retail", Internal)
	steps := []struct {
		change func() error
		want   []string
	}{
		{func() error { return nil }, []string{"t@1.2.0"}},
		{func() error { return r.Deprecate("t", "1.2.0", "") }, []string{"t@1.1.0"}},
		{func() error { return r.Retire("t", "1.1.0") }, []string{"t@1.0.0"}},
		{func() error { return r.Deprecate("t", "1.0.0", "") }, []string{}},
	}
	for i, step := range steps {
		if err := step.change(); err != nil {
			t.Fatal(err)
		}
		if got := discoverKeys(t, r, p); !slices.Equal(got, step.want) {
			t.Errorf("step %d: Discover = %v, want %v", i, got, step.want)
		}
	}
}

func TestDiscoverTenantAllowList(t *testing.T) {
	r := NewRegistry()
	retailOnly := spec("retail.tool", "1.0.0", base)
	retailOnly.Tenants = []string{"retail", "private"}
	mustPublish(t, r, retailOnly)
	mustPublish(t, r, spec("shared.tool", "1.0.0", base)) // no allow-list: every tenant

	if got := discoverKeys(t, r, principal("retail", Internal)); !slices.Equal(got, []string{"retail.tool@1.0.0", "shared.tool@1.0.0"}) {
		t.Errorf("retail sees %v", got)
	}
	if got := discoverKeys(t, r, principal("wholesale", Internal)); !slices.Equal(got, []string{"shared.tool@1.0.0"}) {
		t.Errorf("wholesale sees %v", got)
	}
	if got := discoverKeys(t, r, principal("", Internal)); !slices.Equal(got, []string{"shared.tool@1.0.0"}) {
		t.Errorf("no tenant sees %v", got)
	}
}

func TestDiscoverClassification(t *testing.T) {
	r := NewRegistry()
	levels := []Classification{Public, Internal, Confidential, Restricted}
	for _, c := range levels {
		s := spec("tool."+string(c), "1.0.0", base)
		s.DataClassification = c
		mustPublish(t, r, s)
	}
	for i, clearance := range levels {
		var want []string
		for _, c := range levels[:i+1] {
			want = append(want, "tool."+string(c)+"@1.0.0")
		}
		slices.Sort(want)
		if got := discoverKeys(t, r, principal("retail", clearance)); !slices.Equal(got, want) {
			t.Errorf("clearance %s sees %v, want %v", clearance, got, want)
		}
	}
}

// An unknown classification is an error everywhere, never a default: a
// typo must not make a tool visible.
func TestUnknownClassificationIsAnError(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	for _, clearance := range []Classification{"", "secret", "Restricted"} {
		p := principal("retail", clearance)
		if list, err := r.Discover(p); err == nil {
			t.Errorf("Discover with clearance %q = %v, want an error", clearance, keys(list))
		}
		if _, ok, err := r.ResolveFor(p, "t", nil); err == nil {
			t.Errorf("ResolveFor with clearance %q: ok=%v, no error", clearance, ok)
		}
		if ok, err := p.Entitled(spec("t", "1.0.0", base)); err == nil {
			t.Errorf("Entitled with clearance %q = %v, no error", clearance, ok)
		}
	}
	bad := spec("t", "1.0.0", base)
	bad.DataClassification = "publik"
	if ok, err := principal("retail", Restricted).Entitled(bad); err == nil {
		t.Errorf("Entitled to a spec classified %q = %v, no error", bad.DataClassification, ok)
	}
	badLife := spec("t", "1.0.0", base)
	badLife.Lifecycle = "retird"
	if ok, err := principal("retail", Restricted).Entitled(badLife); err == nil {
		t.Errorf("Entitled to a spec with lifecycle %q = %v, no error", badLife.Lifecycle, ok)
	}
}

func TestEntitled(t *testing.T) {
	s := scoped(spec("t", "1.0.0", base), "a", "b")
	s.Tenants = []string{"retail"}
	s.DataClassification = Confidential
	tests := []struct {
		name string
		p    Principal
		life Lifecycle
		want bool
	}{
		{"all conditions met", principal("retail", Confidential, "b", "a"), "", true},
		{"extra scopes are fine", principal("retail", Restricted, "a", "b", "c"), Active, true},
		{"deprecated is entitled", principal("retail", Confidential, "a", "b"), Deprecated, true},
		{"retired is not", principal("retail", Confidential, "a", "b"), Retired, false},
		{"wrong tenant", principal("wholesale", Confidential, "a", "b"), Active, false},
		{"clearance too low", principal("retail", Internal, "a", "b"), Active, false},
		{"missing a scope", principal("retail", Confidential, "a", "a"), Active, false},
	}
	for _, tt := range tests {
		s := s
		s.Lifecycle = tt.life
		got, err := tt.p.Entitled(s)
		if err != nil || got != tt.want {
			t.Errorf("%s: Entitled = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

// Invariant 8 (docs/concepts.md#the-gates): at most one version per tool, in sorted name order.
func TestDiscoverSortedOneVersionPerTool(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := NewRegistry()
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("tool.%02d", i))
	}
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, n := range names {
		for v := range 1 + rng.IntN(3) {
			s := spec(n, "1."+strconv.Itoa(v)+".0", base)
			if rng.IntN(3) == 0 {
				s.RequiredScopes = []string{"x"}
			}
			mustPublish(t, r, s)
		}
	}
	for _, p := range []Principal{principal("t", Restricted), principal("t", Restricted, "x")} {
		list, err := r.Discover(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 0 {
			t.Fatal("nothing discovered")
		}
		for i := 1; i < len(list); i++ {
			if list[i-1].Name >= list[i].Name {
				t.Errorf("not sorted or repeated: %s then %s", list[i-1].Key(), list[i].Key())
			}
		}
	}
	all, _ := r.Discover(principal("t", Restricted, "x"))
	if len(all) != len(names) {
		t.Errorf("a principal holding every scope sees %d tools, want %d", len(all), len(names))
	}
}

func TestDiscoverCache(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, scoped(spec("a", "1.0.0", base), "x"))
	p := principal("retail", Internal, "x", "y")
	counts := func() (uint64, uint64) { return r.viewHits.Load(), r.viewMisses.Load() }

	first := discoverKeys(t, r, p)
	if h, m := counts(); h != 0 || m != 1 {
		t.Fatalf("first Discover: hits %d misses %d", h, m)
	}
	// The same view: scopes in another order, duplicated, another agent.
	same := principal("retail", Internal, "y", "x", "y")
	same.AgentID = "agent-2"
	if got := discoverKeys(t, r, same); !slices.Equal(got, first) {
		t.Errorf("same view, different answer: %v vs %v", got, first)
	}
	if h, m := counts(); h != 1 || m != 1 {
		t.Errorf("same view: hits %d misses %d, want 1 and 1", h, m)
	}
	// Different views miss: tenant, scopes, clearance.
	for _, other := range []Principal{
		principal("wholesale", Internal, "x", "y"),
		principal("retail", Internal, "x"),
		principal("retail", Confidential, "x", "y"),
		principal("retail", Internal, "x,y"), // one scope that is not two
	} {
		_ = discoverKeys(t, r, other)
	}
	if h, m := counts(); h != 1 || m != 5 {
		t.Errorf("different views: hits %d misses %d, want 1 and 5", h, m)
	}
	if got := discoverKeys(t, r, principal("retail", Internal, "x,y")); len(got) != 0 {
		t.Errorf(`scope "x,y" was read as "x": %v`, got)
	}

	// Every change is seen by the very next Discover.
	mustPublish(t, r, spec("b", "1.0.0", base))
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.0", "b@1.0.0"}) {
		t.Errorf("after publish: %v", got)
	}
	mustPublish(t, r, scoped(spec("a", "1.0.1", described), "x"))
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.1", "b@1.0.0"}) {
		t.Errorf("after a new version: %v", got)
	}
	if err := r.Deprecate("a", "1.0.1", ""); err != nil {
		t.Fatal(err)
	}
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.0", "b@1.0.0"}) {
		t.Errorf("after deprecate: %v", got)
	}
	if err := r.Retire("b", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.0"}) {
		t.Errorf("after retire: %v", got)
	}
	// And the new answer is cached again.
	_, before := counts()
	_ = discoverKeys(t, r, p)
	if _, after := counts(); after != before {
		t.Error("the answer after a change was not cached")
	}
}

// A change made while a Discover is computing must not leave that older
// answer in the cache.
func TestDiscoverDoesNotCacheAStaleAnswer(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("a", "1.0.0", base))
	p := principal("retail", Internal)
	r.beforeStore = func() {
		r.beforeStore = nil
		mustPublish(t, r, spec("b", "1.0.0", base))
	}
	// This call answers for the estate as it was when it started.
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.0"}) {
		t.Fatalf("racing Discover = %v", got)
	}
	if got := discoverKeys(t, r, p); !slices.Equal(got, []string{"a@1.0.0", "b@1.0.0"}) {
		t.Errorf("the next Discover = %v: a stale answer was cached", got)
	}
}

func TestDiscoverConcurrentWithPublish(t *testing.T) {
	r := NewRegistry()
	principals := []Principal{
		principal("retail", Internal),
		principal("retail", Restricted, "x"),
		principal("wholesale", Public, "x", "y"),
	}
	const writers, perWriter = 4, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				s := spec(fmt.Sprintf("w%d.t%02d", w, i), "1.0.0", base)
				if i%2 == 0 {
					s.RequiredScopes = []string{"x"}
				}
				if err := r.Publish(s); err != nil {
					t.Error(err)
					return
				}
				if i%5 == 0 {
					if err := r.Deprecate(s.Name, "1.0.0", ""); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for _, p := range principals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				list, err := r.Discover(p)
				if err != nil {
					t.Error(err)
					return
				}
				for i := 1; i < len(list); i++ {
					if list[i-1].Name >= list[i].Name {
						t.Errorf("unsorted or repeated: %s, %s", list[i-1].Key(), list[i].Key())
						return
					}
				}
				_, _, _ = r.ResolveFor(p, "w0.t01", nil)
			}
		}()
	}
	wg.Wait()
	// After the dust settles, the cached answer equals a fresh computation.
	for _, p := range principals {
		got, _ := r.Discover(p)
		v, _ := p.view()
		r.mu.RLock()
		want, _ := r.discoverLocked(v)
		r.mu.RUnlock()
		if !slices.Equal(keys(got), keys(want)) {
			t.Errorf("%+v: cached %d tools, fresh %d", p, len(got), len(want))
		}
	}
}

func TestResolveFor(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("t", "1.0.0", base))
	mustPublish(t, r, spec("t", "1.1.0", withOptional))
	mustPublish(t, r, scoped(spec("t", "2.0.0", withRequired), "t.v2"))
	mustPublish(t, r, scoped(spec("t", "2.1.0", withRequired), "t.v2"))
	pin := func(s string) *Constraint {
		c, err := ParseConstraint(s)
		if err != nil {
			t.Fatal(err)
		}
		return &c
	}
	basic := principal("retail", Internal)
	full := principal("retail", Internal, "t.v2")
	resolve := func(p Principal, c *Constraint) string {
		t.Helper()
		s, ok, err := r.ResolveFor(p, "t", c)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return ""
		}
		return s.Key()
	}

	if got := resolve(basic, nil); got != "t@1.1.0" {
		t.Errorf("basic, no pin: %s", got)
	}
	if got := resolve(full, nil); got != "t@2.1.0" {
		t.Errorf("full, no pin: %s", got)
	}
	if got := resolve(basic, pin("^2.0.0")); got != "" {
		t.Errorf("basic pinned to ^2 (not entitled): %s", got)
	}
	if got := resolve(full, pin("^1.0.0")); got != "t@1.1.0" {
		t.Errorf("full pinned to ^1: %s", got)
	}
	if got := resolve(basic, pin("*")); got != "t@1.1.0" {
		t.Errorf("basic pinned to *: newest entitled is 1.1.0, got %s", got)
	}

	// A deprecated version is reachable by a pin, not without one.
	if err := r.Deprecate("t", "1.1.0", "t@2.1.0"); err != nil {
		t.Fatal(err)
	}
	if got := resolve(basic, pin("1.1.0")); got != "t@1.1.0" {
		t.Errorf("pin to deprecated 1.1.0: %s", got)
	}
	if got := resolve(basic, nil); got != "t@1.0.0" {
		t.Errorf("no pin after deprecating 1.1.0: %s", got)
	}
	// A retired version never.
	if err := r.Retire("t", "1.1.0"); err != nil {
		t.Fatal(err)
	}
	if got := resolve(basic, pin("1.1.0")); got != "" {
		t.Errorf("pin to retired 1.1.0: %s", got)
	}
	if got := resolve(basic, pin("^1.0.0")); got != "t@1.0.0" {
		t.Errorf("^1 with 1.1.0 retired: %s", got)
	}
	if _, ok, err := r.ResolveFor(basic, "missing", nil); ok || err != nil {
		t.Errorf("unknown tool: ok %v err %v", ok, err)
	}
}

// Without a pin, ResolveFor answers what Discover lists, for every tool and
// every principal.
func TestResolveForAgreesWithDiscover(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	r := NewRegistry()
	scopes := []string{"a", "b", "c"}
	levels := []Classification{Public, Internal, Confidential, Restricted}
	for i := range 30 {
		name := fmt.Sprintf("tool.%02d", i)
		for v := range 1 + rng.IntN(4) {
			s := spec(name, "1.0."+strconv.Itoa(v), base)
			s.DataClassification = levels[rng.IntN(len(levels))]
			if rng.IntN(2) == 0 {
				s.RequiredScopes = []string{scopes[rng.IntN(len(scopes))]}
			}
			if rng.IntN(3) == 0 {
				// One tenant or several: discovery's index by tenant must
				// agree with ResolveFor, which reads every version.
				s.Tenants = [][]string{{"retail"}, {"private", "retail"}, {"private"}}[rng.IntN(3)]
			}
			mustPublish(t, r, s)
			switch rng.IntN(5) {
			case 0:
				_ = r.Deprecate(name, s.Version.String(), "")
			case 1:
				_ = r.Retire(name, s.Version.String())
			}
		}
	}
	for range 60 {
		p := principal([]string{"retail", "wholesale", "private"}[rng.IntN(3)], levels[rng.IntN(len(levels))])
		for _, s := range scopes {
			if rng.IntN(2) == 0 {
				p.Scopes = append(p.Scopes, s)
			}
		}
		listed := map[string]string{}
		list, err := r.Discover(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			listed[s.Name] = s.Key()
			if ok, _ := p.Entitled(s); !ok || s.Lifecycle != Active {
				t.Errorf("%+v: Discover listed %s (%s), not entitled or not active", p, s.Key(), s.Lifecycle)
			}
		}
		for _, name := range r.Names() {
			s, ok, err := r.ResolveFor(p, name, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if ok {
				got = s.Key()
			}
			if got != listed[name] {
				t.Errorf("%+v: ResolveFor(%s) = %q, Discover lists %q", p, name, got, listed[name])
			}
		}
	}
}

// BenchmarkDiscover measures Discover over 1,000 tools × 3 versions: warm
// is a cache hit, cold recomputes the view every time.
func BenchmarkDiscover(b *testing.B) {
	r := NewRegistry()
	for i := range 1000 {
		for v := range 3 {
			s := spec(fmt.Sprintf("tool.%04d", i), "1."+strconv.Itoa(v)+".0", base)
			s.RequiredScopes = []string{"scope." + strconv.Itoa(i%10)}
			if v == 2 {
				s.RequiredScopes = append(s.RequiredScopes, "scope.v3")
			}
			s.DataClassification = []Classification{Public, Internal, Confidential}[i%3]
			mustPublish(b, r, s)
		}
	}
	p := principal("retail", Internal, "scope.1", "scope.2", "scope.3", "scope.4", "scope.5", "scope.v3")
	list, err := r.Discover(p)
	if err != nil || len(list) == 0 {
		b.Fatalf("Discover: %d tools, %v", len(list), err)
	}
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Discover(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			r.mu.Lock()
			clear(r.views)
			r.mu.Unlock()
			if _, err := r.Discover(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestPrincipalSameAsIgnoresScopeOrderOnly(t *testing.T) {
	p := Principal{AgentID: "a", Tenant: "t", Scopes: []string{"x", "y"}, MaxClassification: Internal}
	same := p
	same.Scopes = []string{"y", "x", "y"}
	if !p.SameAs(same) || !same.SameAs(p) {
		t.Error("the same scope set in another order, with a duplicate, is not the same principal")
	}
	if !slices.Equal(same.Scopes, []string{"y", "x", "y"}) {
		t.Errorf("SameAs changed its argument's scopes: %v", same.Scopes)
	}
	for _, change := range []func(*Principal){
		func(q *Principal) { q.AgentID = "b" },
		func(q *Principal) { q.Tenant = "u" },
		func(q *Principal) { q.MaxClassification = Confidential },
		func(q *Principal) { q.Scopes = []string{"x"} },
		func(q *Principal) { q.Scopes = []string{"x", "y", "z"} },
	} {
		q := p
		q.Scopes = slices.Clone(p.Scopes)
		change(&q)
		if p.SameAs(q) {
			t.Errorf("%+v is the same as %+v", q, p)
		}
	}
}

// Normalized sorts the scopes and keeps each once, without touching the
// principal's own slice; a principal normalised already is returned as it
// is, so a view of it copies nothing.
func TestPrincipalNormalized(t *testing.T) {
	p := Principal{AgentID: "a", Tenant: "t", Scopes: []string{"y", "x", "y"}, MaxClassification: Internal}
	n := p.Normalized()
	if !slices.Equal(n.Scopes, []string{"x", "y"}) || !n.SameAs(p) {
		t.Fatalf("normalised %+v", n)
	}
	if !slices.Equal(p.Scopes, []string{"y", "x", "y"}) {
		t.Errorf("Normalized changed the principal's own scopes: %v", p.Scopes)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		if _, err := n.view(); err != nil {
			t.Fatal(err)
		}
		_ = n.Normalized()
	}); allocs != 0 {
		t.Errorf("a normalised principal's view and normalisation: %v allocations, want 0", allocs)
	}
}

// TestViewsWithTheSameListShareOneView: two tenants that see the same
// versions get one View, so what a server derives from it (its encoded
// tools/list) is built and kept once; a view that lists otherwise gets its
// own, and a change to the estate ends the sharing.
func TestViewsWithTheSameListShareOneView(t *testing.T) {
	r := NewRegistry()
	mustPublish(t, r, spec("a", "1.0.0", base))
	mustPublish(t, r, scoped(spec("b", "1.0.0", base), "x"))
	view := func(p Principal) *View {
		t.Helper()
		v, err := r.DiscoverView(p)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	builds := 0
	memo := func(v *View) {
		v.Memo(t, func([]ToolSpec) any { builds++; return nil })
	}
	retail, wholesale := view(principal("retail", Internal, "x")), view(principal("wholesale", Internal, "x"))
	if retail != wholesale {
		t.Error("two tenants seeing the same versions got two views")
	}
	memo(retail)
	memo(wholesale)
	if builds != 1 {
		t.Errorf("the shared view's memo was built %d times", builds)
	}
	fewer := view(principal("retail", Internal))
	if fewer == retail || len(fewer.Tools) != 1 {
		t.Errorf("a view listing less shares %p (of %p) with %d tools", fewer, retail, len(fewer.Tools))
	}
	mustPublish(t, r, spec("c", "1.0.0", base))
	if after := view(principal("wholesale", Internal, "x")); after == retail || len(after.Tools) != 3 {
		t.Errorf("after a publish, the view is %p (was %p) with %d tools", after, retail, len(after.Tools))
	}
}
