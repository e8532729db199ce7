package estate

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Registry is the estate: every published version of every tool. It is safe
// for concurrent use. Readers take a read lock; changes (publish, deprecate,
// retire) take the write lock, bump the generation, drop the discovery cache
// and then, outside the lock, call the OnChange subscribers.
type Registry struct {
	mu    sync.RWMutex
	tools map[string][]ToolSpec // per name, ascending by version; changed by setVersions only
	names []string              // sorted
	gen   uint64
	// published mirrors tools for ResolveFor, which every tools/call
	// runs: name → *[]ToolSpec, a copy made by setVersions at each change
	// and never changed, read without r.mu. A read lock is an atomic add
	// to a word every core shares; calls served on two cores each took it
	// twice (see docs/benchmarks.md).
	published sync.Map

	// open and byTenant index the names by who may see them, so that a
	// view's first discovery reads the tools its tenant can see rather
	// than the whole estate: open holds the names with a version open to
	// every tenant, byTenant[t] those with a version restricted to t
	// (both sorted). A name may be in both. Versions never change their
	// tenants, so the index only grows.
	open     []string
	byTenant map[string][]string

	// views caches Discover's answer per principal view; it is emptied on
	// every change. viewHits and viewMisses count lookups so tests can see
	// the cache working.
	views map[string]*View
	// lists holds the distinct lists among the cached views, by listSum,
	// so that views with the same list share one View; listedTools is the
	// number of tools they hold in all, what the cache's bound counts.
	lists       map[uint64][]*View
	listedTools int
	viewHits    atomic.Uint64
	viewMisses  atomic.Uint64
	// beforeStore, when set by a test, runs between computing a view and
	// caching it: the window in which a change can make the answer stale.
	beforeStore func()

	subMu  sync.Mutex
	subs   map[uint64]func()
	nextID uint64
}

// NewRegistry returns an empty estate.
func NewRegistry() *Registry {
	return &Registry{
		tools:    map[string][]ToolSpec{},
		byTenant: map[string][]string{},
		views:    map[string]*View{},
		lists:    map[uint64][]*View{},
		subs:     map[uint64]func(){},
	}
}

// The publish guard's rules, as PublishError.Rule reports them.
const (
	ruleInvalidSpec  = "invalid-spec"
	ruleImmutable    = "immutable"
	ruleNotNewer     = "not-newer"
	ruleBumpTooSmall = "bump-too-small"
)

// PublishError is a publish the guard refused, with the rule that refused it.
type PublishError struct {
	// Rule is "invalid-spec", "immutable", "not-newer" or "bump-too-small".
	Rule string
	// Key is the refused name@version.
	Key string
	// Against is the version the new one was compared with ("" if none).
	Against string
	// Diff is the contract change when Rule is "bump-too-small": the input
	// schema's changes with their paths as written ("$.amount"), then the
	// output schema's with "output:" before the path ("output:$.status").
	// Its Class is the more severe of the two.
	Diff schema.Diff
	// Message is one line for people.
	Message string
}

// Error returns the Message.
func (e *PublishError) Error() string { return e.Message }

// Publish adds a new tool version after the publish guard
// (docs/concepts.md#versions-and-lifecycle):
//
//  1. The spec must be valid (ToolSpec.Validate).
//  2. Immutability: a name@version already published, in any lifecycle
//     state, is refused — a pin must mean the same contract forever.
//  3. Monotonicity: the version must be newer than the latest ACTIVE
//     version, so "latest" is well defined. Evolution is from the live
//     contract: after 1.0.0 is deprecated and 2.0.0 published, 2.1.0 is
//     compared with 2.0.0. When every published version is deprecated or
//     retired there is no live contract; the version must then be newer
//     than every published one (a revived tool does not reappear under an
//     old number), and no bump is enforced.
//  4. Bump enforcement, against the latest active version: the input
//     schemas are classified in the Input direction and the output schemas
//     (absent = anything) in the Output direction, and the more severe class
//     decides. Major needs major = previous major + 1; Minor needs the same
//     major and a higher minor; Patch and None accept any newer version.
//
// Steps 3 and 4 are skipped for a name's first publish. A refusal is a
// *PublishError. An empty Lifecycle is stored as Active; the registry keeps
// its own copies of the spec's slices.
func (r *Registry) Publish(spec ToolSpec) error {
	if err := spec.Validate(); err != nil {
		return &PublishError{Rule: ruleInvalidSpec, Key: spec.Key(), Message: err.Error()}
	}
	spec = spec.clone()
	spec.Lifecycle, _ = spec.Lifecycle.effective() // validated above

	r.mu.Lock()
	versions := r.tools[spec.Name]
	i, exists := slices.BinarySearchFunc(versions, spec.Version, byVersion)
	if exists {
		r.mu.Unlock()
		return &PublishError{
			Rule: ruleImmutable, Key: spec.Key(), Against: spec.Version.String(),
			Message: spec.Key() + " already published; publish a new version instead",
		}
	}
	if err := guard(spec, versions); err != nil {
		r.mu.Unlock()
		return err
	}
	if versions == nil {
		r.names = insertSorted(r.names, spec.Name)
	}
	if len(spec.Tenants) == 0 {
		r.open = insertSorted(r.open, spec.Name)
	}
	for _, t := range spec.Tenants {
		r.byTenant[t] = insertSorted(r.byTenant[t], spec.Name)
	}
	r.setVersions(spec.Name, slices.Insert(versions, i, spec))
	r.changedLocked()
	r.mu.Unlock()
	r.notify()
	return nil
}

// setVersions makes versions name's list, in tools and in published;
// r.mu is held for writing. The list published is a copy of its own, which
// nothing changes: tools' may be changed in place by the next publish.
func (r *Registry) setVersions(name string, versions []ToolSpec) {
	r.tools[name] = versions
	r.published.Store(name, new(slices.Clone(versions)))
}

// insertSorted inserts name into the sorted set names unless it is there.
func insertSorted(names []string, name string) []string {
	j, found := slices.BinarySearch(names, name)
	if found {
		return names
	}
	return slices.Insert(names, j, name)
}

// CheckPublish applies the publish guard to spec against an explicit
// history of the same name (any order), without a Registry: what Publish
// would answer if those versions were the ones published. The breaking-change
// gate uses it on the estate record of a generated package, so the gate and
// the runtime registry apply one rule.
func CheckPublish(spec ToolSpec, published []ToolSpec) error {
	if err := spec.Validate(); err != nil {
		return &PublishError{Rule: ruleInvalidSpec, Key: spec.Key(), Message: err.Error()}
	}
	versions := slices.Clone(published)
	for i := range versions {
		versions[i].Lifecycle, _ = versions[i].Lifecycle.effective()
	}
	slices.SortFunc(versions, func(a, b ToolSpec) int { return a.Version.Compare(b.Version) })
	if _, exists := slices.BinarySearchFunc(versions, spec.Version, byVersion); exists {
		return &PublishError{
			Rule: ruleImmutable, Key: spec.Key(), Against: spec.Version.String(),
			Message: spec.Key() + " already published; publish a new version instead",
		}
	}
	if err := guard(spec, versions); err != nil {
		return err
	}
	return nil
}

// guard applies monotonicity and bump enforcement to spec against the
// name's published versions (ascending).
func guard(spec ToolSpec, versions []ToolSpec) *PublishError {
	if len(versions) == 0 {
		return nil
	}
	previous, ok := LatestActive(versions)
	if !ok {
		newest := versions[len(versions)-1]
		if spec.Version.Compare(newest.Version) <= 0 {
			return &PublishError{
				Rule: ruleNotNewer, Key: spec.Key(), Against: newest.Version.String(),
				Message: fmt.Sprintf("%s is not newer than %s (no version is active; a new one must be newer than every published version)", spec.Key(), newest.Key()),
			}
		}
		return nil
	}
	prev := previous.Version
	if spec.Version.Compare(prev) <= 0 {
		return &PublishError{
			Rule: ruleNotNewer, Key: spec.Key(), Against: prev.String(),
			Message: fmt.Sprintf("%s is not newer than the current latest %s", spec.Key(), previous.Key()),
		}
	}
	diff := ContractDiff(previous, spec)
	v := spec.Version
	var problem string
	switch diff.Class {
	case schema.Major:
		if v.Major() != prev.Major()+1 {
			problem = fmt.Sprintf("major version must be %d", prev.Major()+1)
		}
	case schema.Minor:
		if v.Major() != prev.Major() || v.Minor() <= prev.Minor() {
			problem = fmt.Sprintf("expected %d.%d.0 (same major, higher minor)", prev.Major(), prev.Minor()+1)
		}
	}
	if problem == "" {
		return nil
	}
	return &PublishError{
		Rule: ruleBumpTooSmall, Key: spec.Key(), Against: prev.String(), Diff: diff,
		Message: fmt.Sprintf("%s: schema change is %s; %s", spec.Key(), diff.Class, problem),
	}
}

// ContractDiff classifies the change from previous to next, as the publish
// guard does (and the breaking-change gate reports): the input
// schema in the Input direction, the output schema in the Output direction
// (a nil output schema is the schema that allows anything, which is what a
// tool without one promises), the more severe class winning.
func ContractDiff(previous, next ToolSpec) schema.Diff {
	in := schema.Classify(previous.InputSchema, next.InputSchema, schema.Input)
	out := schema.Classify(previous.OutputSchema, next.OutputSchema, schema.Output)
	changes := slices.Clip(in.Changes)
	for _, c := range out.Changes {
		c.Path = "output:" + c.Path
		changes = append(changes, c)
	}
	return schema.Diff{Class: max(in.Class, out.Class), Changes: changes}
}

// Deprecate marks name@version deprecated: still reachable by an explicit
// pin, no longer discovered or latest. supersededBy ("name@X.Y.Z") names
// where callers should move; "" keeps the current value. Deprecating a
// retired version is refused (retirement is final); deprecating a
// deprecated version only updates supersededBy.
func (r *Registry) Deprecate(name, version, supersededBy string) error {
	return r.ChangeLifecycles([]LifecycleChange{{Name: name, Version: version, To: Deprecated, SupersededBy: supersededBy}})
}

// Retire marks name@version retired: it is never resolved, discovered or
// entitled again. Retiring a retired version changes nothing.
func (r *Registry) Retire(name, version string) error {
	return r.ChangeLifecycles([]LifecycleChange{{Name: name, Version: version, To: Retired}})
}

// LifecycleChange moves one published version forward, the only edit a
// published version ever receives: a preview to Active (its promotion:
// from then on it is what discovery lists and unpinned calls reach, where
// it is the newest), to Deprecated (with SupersededBy, "name@X.Y.Z",
// naming where callers should move; "" keeps the current value) or to
// Retired.
type LifecycleChange struct {
	Name, Version string
	To            Lifecycle
	SupersededBy  string
}

// Key is name@version, as errors name the change.
func (c LifecycleChange) Key() string { return c.Name + "@" + c.Version }

// ChangeLifecycles applies changes all or none. Each is checked against
// the estate as it stands, under the registry's lock: it names a published
// version, not named by another change; it moves the lifecycle forward, to
// Deprecated or Retired; its successor is a newer published version of the
// same tool (CheckSuccessor). Only when every one
// passes are they applied, together: one generation, one notification,
// and no reader ever sees some of them without the others. A change that
// changes nothing is accepted and is no change. The error lists every
// change refused, each with its key; nothing is changed then.
func (r *Registry) ChangeLifecycles(changes []LifecycleChange) error {
	type edit struct {
		name string
		i    int
		to   ToolSpec
	}
	var edits []edit
	var errs []error
	r.mu.Lock()
	named := map[string]bool{}
	for _, c := range changes {
		name, i, updated, err := r.planLocked(c)
		switch {
		case err != nil:
			errs = append(errs, err)
		case named[c.Key()]:
			errs = append(errs, fmt.Errorf("%s is named twice", c.Key()))
		case updated.Lifecycle != r.tools[name][i].Lifecycle || updated.SupersededBy != r.tools[name][i].SupersededBy:
			edits = append(edits, edit{name, i, updated})
		}
		named[c.Key()] = true
	}
	if len(errs) > 0 || len(edits) == 0 {
		r.mu.Unlock()
		return errors.Join(errs...)
	}
	changed := map[string][]ToolSpec{}
	for _, e := range edits {
		if changed[e.name] == nil {
			changed[e.name] = slices.Clone(r.tools[e.name])
		}
		changed[e.name][e.i] = e.to
	}
	for name, versions := range changed {
		r.setVersions(name, versions)
	}
	r.changedLocked()
	r.mu.Unlock()
	r.notify()
	return nil
}

// planLocked checks one change against the estate and returns the version
// it edits (its name and index in r.tools) as it would be after it. r.mu
// must be held.
func (r *Registry) planLocked(c LifecycleChange) (name string, i int, updated ToolSpec, err error) {
	v, err := ParseVersion(c.Version)
	if err != nil {
		return "", 0, ToolSpec{}, fmt.Errorf("%s: %v", c.Key(), err)
	}
	if c.To != Active && c.To != Deprecated && c.To != Retired {
		return "", 0, ToolSpec{}, fmt.Errorf("%s: lifecycle %q (want active, deprecated or retired)", c.Key(), c.To)
	}
	versions := r.tools[c.Name]
	i, ok := slices.BinarySearchFunc(versions, v, byVersion)
	if !ok {
		return "", 0, ToolSpec{}, fmt.Errorf("no such tool version: %s", c.Key())
	}
	spec := versions[i]
	if c.SupersededBy != "" {
		next := spec
		next.SupersededBy = c.SupersededBy
		if err := CheckSuccessor(next, versionNumbers(versions)); err != nil {
			return "", 0, ToolSpec{}, fmt.Errorf("%s: %v", c.Key(), err)
		}
	}
	if !spec.Lifecycle.CanMoveTo(c.To) {
		return "", 0, ToolSpec{}, fmt.Errorf("%s is %s; a lifecycle only moves forward (%s)", spec.Key(), spec.Lifecycle, LifecycleOrder)
	}
	updated = spec
	updated.Lifecycle = c.To
	if c.SupersededBy != "" {
		updated.SupersededBy = c.SupersededBy
	}
	return c.Name, i, updated, nil
}

// CheckSuccessors applies CheckSuccessor to each of specs, a batch about to
// be published, against the versions the registry holds and those of the
// batch: a package publishes a deprecated version before its successor
// (ascending), so the batch is checked whole, before any of it is
// published, and a successor missing from both is refused with nothing
// published. The error names every spec refused.
func (r *Registry) CheckSuccessors(specs []ToolSpec) error {
	batch := map[string][]Version{}
	for _, s := range specs {
		batch[s.Name] = append(batch[s.Name], s.Version)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	var errs []error
	for _, s := range specs {
		if s.SupersededBy == "" {
			continue
		}
		versions := append(versionNumbers(r.tools[s.Name]), batch[s.Name]...)
		if err := CheckSuccessor(s, versions); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.Key(), err))
		}
	}
	return errors.Join(errs...)
}

// versionNumbers returns the version numbers of specs, in their order.
func versionNumbers(specs []ToolSpec) []Version {
	out := make([]Version, len(specs))
	for i, s := range specs {
		out[i] = s.Version
	}
	return out
}

// changedLocked records a change; r.mu must be held for writing.
func (r *Registry) changedLocked() {
	r.gen++
	r.clearViewsLocked()
}

// notify calls every subscriber, outside r.mu so a subscriber may read the
// registry.
func (r *Registry) notify() {
	r.subMu.Lock()
	subs := make([]func(), 0, len(r.subs))
	ids := make([]uint64, 0, len(r.subs))
	for id := range r.subs {
		ids = append(ids, id)
	}
	slices.Sort(ids) // in registration order
	for _, id := range ids {
		subs = append(subs, r.subs[id])
	}
	r.subMu.Unlock()
	for _, f := range subs {
		f()
	}
}

// Generation increases on every change (publish, deprecate, retire); a
// cache stamped with it is current while it is unchanged.
func (r *Registry) Generation() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.gen
}

// OnChange registers f to be called after every change, synchronously in
// the goroutine that made it and outside the registry's lock (f may read the
// registry). Subscribers are called in registration order. The returned
// function unregisters f; calling it again does nothing.
func (r *Registry) OnChange(f func()) (cancel func()) {
	r.subMu.Lock()
	id := r.nextID
	r.nextID++
	r.subs[id] = f
	r.subMu.Unlock()
	return func() {
		r.subMu.Lock()
		delete(r.subs, id)
		r.subMu.Unlock()
	}
}

// Names returns every published tool name, sorted, whatever the lifecycle
// of its versions.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.names)
}

// Versions returns every published version of name, ascending, in every
// lifecycle state.
func (r *Registry) Versions(name string) []ToolSpec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	versions := r.tools[name]
	if len(versions) == 0 {
		return nil
	}
	out := make([]ToolSpec, len(versions))
	for i, s := range versions {
		out[i] = s.clone()
	}
	return out
}

// Get returns name@v in whatever lifecycle state it is.
func (r *Registry) Get(name string, v Version) (ToolSpec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	versions := r.tools[name]
	i, ok := slices.BinarySearchFunc(versions, v, byVersion)
	if !ok {
		return ToolSpec{}, false
	}
	return versions[i].clone(), true
}

// Latest returns the newest ACTIVE version of name: a deprecated version is
// still reachable by a pin, but it is never what "latest" means.
func (r *Registry) Latest(name string) (ToolSpec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := LatestActive(r.tools[name])
	return s.clone(), ok
}

// Resolve returns the version of name a pin c reaches (see pinnedIn),
// without regard to who calls.
func (r *Registry) Resolve(name string, c Constraint) (ToolSpec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, _ := pinnedIn(r.tools[name], c, func(s *ToolSpec) (bool, error) { return s.Lifecycle != Retired, nil })
	if s == nil {
		return ToolSpec{}, false
	}
	return s.clone(), true
}

// pinnedIn is the one implementation of "the version a pin reaches": the
// newest version of versions (ascending) that satisfies c and that ok
// accepts (never a retired one), deprecated versions included (that is
// what a pin is for) — but a preview version only when no other version
// satisfies c. A preview is for the callers who pin it: "^2" or "2.0.0"
// reaches 2.0.0 while it is the only 2.x, while "*" or ">=1" stays on the
// active line, as an unpinned call does. A pointer into versions; nil
// when none.
func pinnedIn(versions []ToolSpec, c Constraint, ok func(*ToolSpec) (bool, error)) (*ToolSpec, error) {
	var preview *ToolSpec
	for i := len(versions) - 1; i >= 0; i-- {
		s := &versions[i]
		if !c.Check(s.Version) || (preview != nil && s.Lifecycle == Preview) {
			continue
		}
		yes, err := ok(s)
		if err != nil {
			return nil, err
		}
		switch {
		case !yes:
		case s.Lifecycle == Preview:
			preview = s
		default:
			return s, nil
		}
	}
	return preview, nil
}

// LatestActive returns the newest active spec of versions (ascending): the
// version a new one is compared with. Exported for the breaking-change gate.
func LatestActive(versions []ToolSpec) (ToolSpec, bool) {
	for i := len(versions) - 1; i >= 0; i-- {
		if versions[i].Lifecycle == Active {
			return versions[i], true
		}
	}
	return ToolSpec{}, false
}

func byVersion(s ToolSpec, v Version) int { return s.Version.Compare(v) }
