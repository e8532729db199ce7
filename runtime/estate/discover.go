package estate

import (
	"hash/maphash"
	"slices"
	"sync"
)

// The discovery cache is bounded twice: by the number of views, and by the
// tools the cached views list in all (views with the same list share it,
// and count once). Views are few in practice (a view is a
// tenant, a scope set and a clearance, not a caller), but the bounds keep a
// flood of distinct scope sets, or a few views of a huge estate, from
// growing memory without limit: when either is reached the cache starts
// over.
const (
	maxCachedViews = 4096
	maxCachedTools = 1 << 18
)

// View is discovery's answer for one principal view (tenant, scope set and
// clearance) at one generation of the estate. Every caller with the same
// view gets the same *View until the estate changes, so what a consumer
// derives from it (the encoded tools/list of a server) can be kept on it
// with Memo and is dropped with it.
type View struct {
	// Tools is the answer: the newest visible version of each tool, sorted
	// by name. It is shared and must not be modified.
	Tools []ToolSpec

	memo sync.Map
}

// Memo returns the value kept on the view under key, building it from the
// view's tools on first use. Concurrent first uses may each build; one
// result is kept and returned to all. Keys are compared as map keys, so a
// consumer uses a key of its own (a pointer it owns).
func (v *View) Memo(key any, build func(tools []ToolSpec) any) any {
	if m, ok := v.memo.Load(key); ok {
		return m
	}
	m, _ := v.memo.LoadOrStore(key, build(v.Tools))
	return m
}

// Discover returns what p may see right now: for each tool, the newest
// version that is active and that p is entitled to (the newest VISIBLE
// version, not the newest version if visible — when 2.0.0 needs a scope p
// lacks, p sees 1.0.0), at most one version per tool, sorted by name.
// Deprecated and retired versions are never listed.
//
// The answer depends only on p's view — tenant, scope set (order and
// duplicates ignored) and clearance — and is computed once per view and
// cached until the estate changes. The returned slice is shared by every
// caller with the same view and must not be modified. An unknown clearance
// is an error.
func (r *Registry) Discover(p Principal) ([]ToolSpec, error) {
	v, err := r.DiscoverView(p)
	if err != nil {
		return nil, err
	}
	return v.Tools, nil
}

// DiscoverView is Discover's answer as the cached View itself, for
// consumers that derive something from it once per view.
func (r *Registry) DiscoverView(p Principal) (*View, error) {
	pv, err := p.view()
	if err != nil {
		return nil, err
	}
	key := pv.key()

	r.mu.RLock()
	if v, ok := r.views[key]; ok {
		r.mu.RUnlock()
		r.viewHits.Add(1)
		return v, nil
	}
	r.viewMisses.Add(1)
	gen := r.gen
	list, err := r.discoverLocked(pv)
	r.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	if r.beforeStore != nil {
		r.beforeStore()
	}

	v := &View{Tools: list}
	sum := listSum(list)
	r.mu.Lock()
	// Store only if the estate has not changed meanwhile: the list was
	// computed from generation gen and is that generation's answer. A view
	// another caller stored meanwhile is the same answer; keep that one, so
	// that every caller shares one View.
	if r.gen == gen {
		if cached, ok := r.views[key]; ok {
			v = cached
		} else if same := r.sameList(sum, list); same != nil {
			// Another view lists exactly these versions (another tenant
			// that sees the same tools, say): share its View, so what is
			// derived from it (the encoded list) is not made and kept again.
			v = same
			r.views[key] = v
		} else {
			if len(r.views) >= maxCachedViews || r.listedTools+len(list) > maxCachedTools {
				r.clearViewsLocked()
			}
			r.views[key] = v
			r.lists[sum] = append(r.lists[sum], v)
			r.listedTools += len(list)
		}
	}
	r.mu.Unlock()
	return v, nil
}

// listSum is a checksum of the versions a list holds, to find a cached view
// with the same list.
func listSum(list []ToolSpec) uint64 {
	var h maphash.Hash
	h.SetSeed(listSeed)
	for i := range list {
		h.WriteString(list[i].Name)
		h.WriteByte(0)
		h.WriteString(list[i].Version.String())
		h.WriteByte(0)
	}
	return h.Sum64()
}

var listSeed = maphash.MakeSeed()

// sameList returns a cached view whose list holds the same versions as
// list, nil when there is none; r.mu must be held.
func (r *Registry) sameList(sum uint64, list []ToolSpec) *View {
	for _, v := range r.lists[sum] {
		if slices.EqualFunc(v.Tools, list, func(a, b ToolSpec) bool {
			return a.Name == b.Name && a.Version == b.Version
		}) {
			return v
		}
	}
	return nil
}

// clearViewsLocked empties the discovery cache; r.mu must be held for
// writing.
func (r *Registry) clearViewsLocked() {
	clear(r.views)
	clear(r.lists)
	r.listedTools = 0
}

// discoverLocked computes a view's list; r.mu must be held.
func (r *Registry) discoverLocked(v view) ([]ToolSpec, error) {
	// The visible versions are found first as indexes into the estate and
	// copied once into a list of the right size: a ToolSpec is a few
	// hundred bytes, and a list grown by appending copies them again at
	// every growth.
	found := make([]*ToolSpec, 0, 64)
	var err error
	visit := func(name string) bool {
		var s *ToolSpec
		if s, err = newestVisibleIn(r.tools[name], v); s != nil {
			found = append(found, s)
		}
		return err == nil
	}
	mergeSorted(r.open, r.byTenant[v.tenant], visit)
	if err != nil {
		return nil, err
	}
	list := make([]ToolSpec, len(found))
	for i, s := range found {
		list[i] = *s
	}
	return list, nil
}

// mergeSorted calls visit with each name of the sorted sets a and b, once,
// in order, until visit returns false.
func mergeSorted(a, b []string, visit func(string) bool) {
	for len(a) > 0 || len(b) > 0 {
		var name string
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0] < b[0]):
			name, a = a[0], a[1:]
		case len(a) == 0 || b[0] < a[0]:
			name, b = b[0], b[1:]
		default: // in both
			name, a, b = a[0], a[1:], b[1:]
		}
		if !visit(name) {
			return
		}
	}
}

// newestVisibleIn is the one implementation of "the version a view sees":
// the newest active version of versions (ascending) that v is entitled to,
// as a pointer into versions; nil when none is visible.
func newestVisibleIn(versions []ToolSpec, v view) (*ToolSpec, error) {
	for i := len(versions) - 1; i >= 0; i-- {
		s := &versions[i]
		if s.Lifecycle != Active {
			continue
		}
		ok, err := v.entitles(s)
		if err != nil {
			return nil, err
		}
		if ok {
			return s, nil
		}
	}
	return nil, nil
}

// ResolveFor returns the version of name that p's call reaches. With a nil
// constraint it is the version Discover lists for p (never a preview).
// With a constraint (a caller's pin) it is the newest version satisfying it
// among the versions p is entitled to — deprecated included, so a
// migration window works; a preview only when nothing else satisfies the
// pin; retired never (pinnedIn). ok is false when there is none; an unknown clearance is an
// error. Like Discover's, the returned spec must be treated as read-only.
func (r *Registry) ResolveFor(p Principal, name string, c *Constraint) (ToolSpec, bool, error) {
	v, err := p.view()
	if err != nil {
		return ToolSpec{}, false, err
	}
	var versions []ToolSpec
	if list, ok := r.published.Load(name); ok {
		versions = *list.(*[]ToolSpec)
	}
	if c == nil {
		s, err := newestVisibleIn(versions, v)
		if s == nil || err != nil {
			return ToolSpec{}, false, err
		}
		return *s, true, nil
	}
	s, err := pinnedIn(versions, *c, v.entitles) // false for a retired version
	if s == nil || err != nil {
		return ToolSpec{}, false, err
	}
	return *s, true, nil
}
