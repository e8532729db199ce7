package estate

import (
	"slices"
	"strconv"
	"strings"
)

// Principal is who is asking. Discovery and entitlement are answered
// relative to a principal, never in the abstract. Principals are never
// logged.
type Principal struct {
	AgentID string
	Tenant  string
	// Scopes are the scopes the caller's credential carries.
	Scopes []string
	// MaxClassification is the caller's clearance. It is required: an empty
	// or unknown clearance is an error, not "internal".
	MaxClassification Classification
}

// Entitled reports whether p may see and call s: s is not retired, p's
// tenant is on s's allow-list (an empty list admits every tenant), s's
// classification ranks at or below p's clearance, and p holds every scope s
// requires. Deprecated versions are entitled — an explicit pin may still
// reach them — although discovery does not list them. An unknown
// classification or lifecycle, on either side, is an error.
func (p Principal) Entitled(s ToolSpec) (bool, error) {
	v, err := p.view()
	if err != nil {
		return false, err
	}
	return v.entitles(&s)
}

// view is a principal reduced to what entitlement depends on. Two principals
// with the same view see the same estate, so a view is also the discovery
// cache's key.
type view struct {
	tenant    string
	scopes    []string // sorted, without duplicates
	clearance int      // rank of MaxClassification
}

func (p Principal) view() (view, error) {
	rank, err := p.MaxClassification.Rank()
	if err != nil {
		return view{}, err
	}
	// A view only reads its scopes, so a set already in order is not
	// copied on every call.
	return view{tenant: p.Tenant, scopes: scopeSet(p.Scopes), clearance: rank}, nil
}

// SameAs reports whether p and q are the same principal: the same agent,
// tenant and clearance, and the same set of scopes (order and duplicates
// ignored). A transport uses it to check that a session is resumed by the
// principal that opened it.
func (p Principal) SameAs(q Principal) bool {
	if p.AgentID != q.AgentID || p.Tenant != q.Tenant || p.MaxClassification != q.MaxClassification {
		return false
	}
	return slices.Equal(scopeSet(p.Scopes), scopeSet(q.Scopes))
}

// Normalized is p with its scopes in the form every check reads them:
// sorted, each once. The checks accept scopes in any order, but copy and
// sort them on every call when they are not in that form; a principal
// made once and checked on every call (a session's, a remembered token's)
// is normalised where it is made. p's own slice is never modified.
func (p Principal) Normalized() Principal {
	p.Scopes = scopeSet(p.Scopes)
	return p
}

// scopeSet is scopes sorted without duplicates: scopes itself when it is
// already so (the usual case), a sorted copy otherwise. It must only be
// read.
func scopeSet(scopes []string) []string {
	if strictlyAscending(scopes) {
		return scopes
	}
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	return slices.Compact(scopes)
}

// strictlyAscending reports whether s is sorted without duplicates.
func strictlyAscending(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

// entitles is the one implementation of the entitlement rule; Entitled,
// Discover and ResolveFor all use it.
func (v view) entitles(s *ToolSpec) (bool, error) {
	life, err := s.Lifecycle.effective()
	if err != nil {
		return false, err
	}
	rank, err := s.DataClassification.Rank()
	if err != nil {
		return false, err
	}
	if life == Retired {
		return false, nil
	}
	if len(s.Tenants) > 0 && !slices.Contains(s.Tenants, v.tenant) {
		return false, nil
	}
	if rank > v.clearance {
		return false, nil
	}
	for _, scope := range s.RequiredScopes {
		if _, held := slices.BinarySearch(v.scopes, scope); !held {
			return false, nil
		}
	}
	return true, nil
}

// key renders the view unambiguously (every string length-prefixed), for
// use as a map key.
func (v view) key() string {
	var b strings.Builder
	write := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	b.WriteString(strconv.Itoa(v.clearance))
	b.WriteByte('|')
	write(v.tenant)
	for _, s := range v.scopes {
		write(s)
	}
	return b.String()
}
