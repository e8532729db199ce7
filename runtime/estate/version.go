package estate

import (
	"errors"
	"fmt"

	"github.com/Masterminds/semver/v3"
)

// Version is a tool version: strictly "X.Y.Z" with no leading "v", no
// leading zeros, no pre-release and no build metadata. The zero value is not
// a valid version (see IsZero) and sorts before every valid one.
//
// Pre-release versions are refused on purpose: a published version is an
// immutable contract that callers pin, and the estate has no notion of a
// contract that is published but not released. Because no tool version has a
// pre-release part, the semver rule that ranges skip pre-releases never comes
// into play when a Constraint is checked.
type Version struct {
	// v holds the parsed version. It is a value rather than a pointer so that
	// copies of a Version never alias. Its Original() is the canonical text,
	// because strict parsing admits exactly one spelling per version.
	v semver.Version
}

// ParseVersion parses a strict "X.Y.Z" version. The error names the text.
func ParseVersion(s string) (Version, error) {
	v, err := semver.StrictNewVersion(s)
	if err != nil {
		return Version{}, fmt.Errorf("not a version %q: want X.Y.Z (%v)", s, err)
	}
	if v.Prerelease() != "" || v.Metadata() != "" {
		return Version{}, fmt.Errorf("not a version %q: want X.Y.Z without pre-release or build metadata", s)
	}
	return Version{v: *v}, nil
}

// MustParseVersion is ParseVersion for versions known to be valid, such as
// those written into generated code. It panics on error.
func MustParseVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic("estate: " + err.Error())
	}
	return v
}

// String returns the version as "X.Y.Z", or "" for the zero Version.
func (v Version) String() string { return v.v.Original() }

// Major returns X of X.Y.Z.
func (v Version) Major() uint64 { return v.v.Major() }

// Minor returns Y of X.Y.Z.
func (v Version) Minor() uint64 { return v.v.Minor() }

// Patch returns Z of X.Y.Z.
func (v Version) Patch() uint64 { return v.v.Patch() }

// IsZero reports whether v is the zero Version, which is not a valid version.
func (v Version) IsZero() bool { return v.v.Original() == "" }

// Compare returns -1, 0 or +1 as v is older than, the same as, or newer than
// o. The zero Version is older than every valid version.
func (v Version) Compare(o Version) int {
	switch vz, oz := v.IsZero(), o.IsZero(); {
	case vz && oz:
		return 0
	case vz:
		return -1
	case oz:
		return 1
	}
	return v.v.Compare(&o.v)
}

// Constraint is the range of versions a caller can tolerate, in the syntax
// of github.com/Masterminds/semver/v3: "^1.2.0" (>=1.2.0 <2.0.0), "~1.2.0"
// (>=1.2.0 <1.3.0), an exact "1.0.0", "*", comparisons such as ">=1.2, <2",
// and alternatives joined with "||".
//
// For major version 0 the caret follows that library (and npm) rather than
// reading "^0.2.3" as "any 0.x at or above 0.2.3": "^0.2.3" is >=0.2.3
// <0.3.0, because before 1.0.0 a minor bump may break.
//
// A constraint may name a pre-release (">=1.0.0-rc.1"); it then compares
// as semver says, and since tool versions never carry a pre-release the only
// effect is where the lower bound falls (1.0.0 satisfies ">=1.0.0-rc.1").
//
// The zero Constraint accepts every version and prints as "*".
type Constraint struct {
	c    *semver.Constraints
	text string
}

// ParseConstraint parses a version constraint. The empty string is refused:
// a pin that says nothing is more likely a mistake than a wish for "*".
func ParseConstraint(s string) (Constraint, error) {
	if s == "" {
		return Constraint{}, errors.New(`empty version constraint (use "*" for any version)`)
	}
	c, err := semver.NewConstraint(s)
	if err != nil {
		return Constraint{}, fmt.Errorf("not a version constraint %q: %v", s, err)
	}
	return Constraint{c: c, text: s}, nil
}

// Check reports whether v satisfies the constraint. The zero Version
// satisfies none.
func (c Constraint) Check(v Version) bool {
	if v.IsZero() {
		return false
	}
	if c.c == nil {
		return true
	}
	return c.c.Check(&v.v)
}

// String returns the constraint as it was written ("*" for the zero
// Constraint).
func (c Constraint) String() string {
	if c.c == nil {
		return "*"
	}
	return c.text
}
