package estate

import "fmt"

// SideEffect is what calling a tool does to the world. It is a required
// field with no default: retry policy and the MCP annotations are derived
// from it by the platform, never chosen per agent, and a default of "read" is
// how a payment tool ends up retried.
type SideEffect string

// The side-effect classes, from harmless to permanent.
const (
	// Read changes nothing.
	Read SideEffect = "read"
	// WriteIdempotent changes state, and doing it twice is the same as once.
	WriteIdempotent SideEffect = "write_idempotent"
	// WriteNonIdempotent changes state, and doing it twice does it twice.
	WriteNonIdempotent SideEffect = "write_non_idempotent"
	// Irreversible changes state in a way that cannot be undone.
	Irreversible SideEffect = "irreversible"
)

// sideEffects is every member, in declaration order. Each member's rules
// live in its entry, so adding a member without deciding them is impossible.
var sideEffects = []struct {
	effect    SideEffect
	retryable bool
	hints     Hints
}{
	{Read, true, Hints{ReadOnly: true, Destructive: false, Idempotent: true}},
	{WriteIdempotent, true, Hints{ReadOnly: false, Destructive: false, Idempotent: true}},
	// A non-idempotent write is marked destructive: a repeated call applies
	// its effect again (a second transfer, a second order), which is not the
	// "additive only" promise destructiveHint=false makes, and MCP itself
	// assumes destructive for a tool that is not read-only unless told
	// otherwise. Under-warning a client is the failure to avoid.
	{WriteNonIdempotent, false, Hints{ReadOnly: false, Destructive: true, Idempotent: false}},
	{Irreversible, false, Hints{ReadOnly: false, Destructive: true, Idempotent: false}},
}

// SideEffects returns every SideEffect, from Read to Irreversible.
func SideEffects() []SideEffect {
	out := make([]SideEffect, len(sideEffects))
	for i, e := range sideEffects {
		out[i] = e.effect
	}
	return out
}

// ParseSideEffect returns the SideEffect named s. An unknown or empty name is
// an error, never a default.
func ParseSideEffect(s string) (SideEffect, error) {
	for _, e := range sideEffects {
		if string(e.effect) == s {
			return e.effect, nil
		}
	}
	return "", fmt.Errorf("unknown side effect %q (want read, write_idempotent, write_non_idempotent or irreversible)", s)
}

// Retryable reports whether the platform may retry a failed call on its own:
// true for Read and WriteIdempotent, false for the others. A non-idempotent
// write is retryable only with an idempotency key, which is the caller's
// business, not this default. An unknown value is not retryable.
func (s SideEffect) Retryable() bool {
	for _, e := range sideEffects {
		if e.effect == s {
			return e.retryable
		}
	}
	return false
}

// Hints are the MCP tool annotations derived from a side effect.
type Hints struct {
	// ReadOnly is readOnlyHint: the tool does not modify its environment.
	ReadOnly bool
	// Destructive is destructiveHint: the tool may do more than add.
	Destructive bool
	// Idempotent is idempotentHint: repeating a call has no further effect.
	Idempotent bool
}

// Hints derives the MCP annotations readOnlyHint, destructiveHint and
// idempotentHint. An unknown value gets the most cautious hints (not
// read-only, destructive, not idempotent); a validated ToolSpec never has
// one.
func (s SideEffect) Hints() Hints {
	for _, e := range sideEffects {
		if e.effect == s {
			return e.hints
		}
	}
	return Hints{Destructive: true}
}

// Classification is the sensitivity of the data a tool touches. A principal
// has a clearance; a tool classified above it is invisible to them.
type Classification string

// The classifications, in increasing order of sensitivity.
const (
	Public       Classification = "public"
	Internal     Classification = "internal"
	Confidential Classification = "confidential"
	Restricted   Classification = "restricted"
)

// classifications is the order that Rank reports.
var classifications = []Classification{Public, Internal, Confidential, Restricted}

// ParseClassification returns the Classification named s; an unknown or
// empty name is an error.
func ParseClassification(s string) (Classification, error) {
	c := Classification(s)
	if _, err := c.Rank(); err != nil {
		return "", err
	}
	return c, nil
}

// Rank returns the position of c in public < internal < confidential <
// restricted, from 0. An unknown classification is an error, never a
// default: a typo must not make a tool visible.
func (c Classification) Rank() (int, error) {
	for i, k := range classifications {
		if k == c {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown data classification %q (want public, internal, confidential or restricted)", string(c))
}

// Lifecycle is where a tool version is in its life. A preview version is
// callable only by a caller who pins it (a rollout: a team ships a major as
// preview, lets pinned clients try it, then promotes it to active without a
// redeploy); it is not discovered, not "latest", and not what an unpinned
// call reaches. Deprecated versions stay callable by an explicit pin (that
// is what makes a migration window real) but are no longer discovered or
// "latest"; retired versions are gone.
type Lifecycle string

// The lifecycle states. A version moves forward only: preview → active →
// deprecated → retired, skipping any.
const (
	Preview    Lifecycle = "preview"
	Active     Lifecycle = "active"
	Deprecated Lifecycle = "deprecated"
	Retired    Lifecycle = "retired"
)

// LifecycleOrder is the forward order of the states, as errors state it.
const LifecycleOrder = "preview, active, deprecated, retired"

// ParseLifecycle returns the Lifecycle named s. The empty string is an error
// here; a manifest loader that wants "absent means active" says so itself.
func ParseLifecycle(s string) (Lifecycle, error) {
	switch l := Lifecycle(s); l {
	case Preview, Active, Deprecated, Retired:
		return l, nil
	}
	return "", fmt.Errorf("unknown lifecycle %q (want preview, active, deprecated or retired)", s)
}

// effective returns the lifecycle a spec field means: "" is Active. An
// unknown value is an error, so that a misspelt "retired" cannot leave a
// version visible.
func (l Lifecycle) effective() (Lifecycle, error) {
	return ParseLifecycle(string(l.OrActive()))
}

// OrActive is the lifecycle a spec field means when it is left empty:
// Active. Everything that prints or compares a lifecycle reads it this way.
func (l Lifecycle) OrActive() Lifecycle {
	if l == "" {
		return Active
	}
	return l
}

// CanMoveTo reports whether a version in lifecycle l may move to to: a
// lifecycle only moves forward (LifecycleOrder). The registry
// and the breaking-change gate both apply this rule.
func (l Lifecycle) CanMoveTo(to Lifecycle) bool {
	return to.OrActive().stage() >= l.OrActive().stage()
}

// stage orders lifecycle states for the forward-only rule.
func (l Lifecycle) stage() int {
	switch l {
	case Preview:
		return -1
	case Deprecated:
		return 1
	case Retired:
		return 2
	}
	return 0
}
