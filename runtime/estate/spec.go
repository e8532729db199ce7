package estate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// ToolSpec is one version of one tool. Immutable once published: a change is
// a new version, never an edit; the registry only ever moves Lifecycle and
// SupersededBy. The Registry keeps its own copy of the slices, and the
// specs it hands out share their slices and schemas with other readers:
// treat them as read-only.
type ToolSpec struct {
	// Name is the tool's MCP name: 1 to 128 characters from A-Z, a-z, 0-9,
	// '_', '-' and '.', as MCP recommends (so "@" in a Key is unambiguous).
	Name string
	// WireName, when set, is the name the tool is published and called
	// by instead of Name: the name an existing server gave the tool, kept
	// so that its clients keep working, where the name rules above refuse
	// it (a tool brought over by mcpgen import). Name stays the tool's
	// name everywhere else (keys, pins, the estate record, Go names).
	WireName string
	Version  Version
	Title    string
	// Description is prompt surface: the model reads it to choose tools.
	Description string
	// InputSchema is required and describes an object (MCP's rule).
	InputSchema *schema.Schema
	// OutputSchema is nil when the tool declares none; when present it
	// describes an object.
	OutputSchema *schema.Schema
	// SideEffect is required; there is no default.
	SideEffect SideEffect
	// RequiredScopes must all be held by a caller (a subset test).
	RequiredScopes []string
	// DataClassification is required; a caller's clearance must reach it.
	DataClassification Classification
	// Owner is the accountable team; required.
	Owner string
	// Tenants is an allow-list; empty means all tenants.
	Tenants []string
	// Lifecycle is the version's state; "" means Active.
	Lifecycle Lifecycle
	// SupersededBy is "name@X.Y.Z" or "": where callers should move to.
	SupersededBy string
}

// Key identifies the version: "payments.lookup@1.0.0".
func (s ToolSpec) Key() string { return s.Name + "@" + s.Version.String() }

// MaxNameLength is MCP's recommended upper bound on a tool name.
const MaxNameLength = 128

// CheckName reports why name is not a tool name, or nil: the rule a
// ToolSpec's Name is held to, for a caller that has a name and no spec (an
// importer choosing a manifest name for a published one).
func CheckName(name string) error {
	if msg := checkName(name); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// checkName reports why name is not a tool name, or "".
func checkName(name string) string {
	if name == "" {
		return "name is empty"
	}
	if len(name) > MaxNameLength {
		return fmt.Sprintf("name is longer than %d characters", MaxNameLength)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
		if !ok {
			return fmt.Sprintf("name %q has character %q (allowed: A-Z a-z 0-9 _ - .)", name, r)
		}
	}
	return ""
}

// Published is the name the tool is listed and called by: WireName when
// set, otherwise Name.
func (s ToolSpec) Published() string {
	if s.WireName != "" {
		return s.WireName
	}
	return s.Name
}

// checkWireName reports why name cannot be a wire name, or "". A wire name
// is whatever an existing server published, so the rule is loose: 1 to
// MaxNameLength*4 bytes of valid UTF-8 without control characters (it is
// echoed in messages and logs).
func checkWireName(name string) string {
	if !utf8.ValidString(name) {
		return "wireName is not valid UTF-8"
	}
	if len(name) > MaxNameLength*4 {
		return fmt.Sprintf("wireName is longer than %d bytes", MaxNameLength*4)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Sprintf("wireName %q has a control character", name)
		}
	}
	return ""
}

// parseKey splits "name@X.Y.Z" into a name and a version.
func parseKey(key string) (string, Version, error) {
	name, ver, ok := strings.Cut(key, "@")
	if !ok {
		return "", Version{}, fmt.Errorf("%q is not name@X.Y.Z", key)
	}
	if msg := checkName(name); msg != "" {
		return "", Version{}, fmt.Errorf("%q is not name@X.Y.Z: %s", key, msg)
	}
	v, err := ParseVersion(ver)
	if err != nil {
		return "", Version{}, fmt.Errorf("%q is not name@X.Y.Z: %v", key, err)
	}
	return name, v, nil
}

// Validate reports every missing required field and unknown enum value, in
// one error, so a manifest author fixes them in one pass. The rules: a valid
// name and version, a known side effect, classification and lifecycle ("" is
// Active), a non-empty owner, an input schema of type "object" (and an
// output schema of type "object" when declared), no empty scope or tenant,
// and a SupersededBy that is "" or names a newer version of the same tool as
// name@X.Y.Z (that the version exists is CheckSuccessor's question).
func (s ToolSpec) Validate() error {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if msg := checkName(s.Name); msg != "" {
		fail("%s", msg)
	}
	if s.WireName != "" {
		if msg := checkWireName(s.WireName); msg != "" {
			fail("%s", msg)
		}
	}
	if s.Version.IsZero() {
		fail("version is missing")
	}
	if _, err := ParseSideEffect(string(s.SideEffect)); err != nil {
		fail("%v", err)
	}
	if _, err := s.DataClassification.Rank(); err != nil {
		fail("%v", err)
	}
	if _, err := s.Lifecycle.effective(); err != nil {
		fail("%v", err)
	}
	if strings.TrimSpace(s.Owner) == "" {
		fail("owner is empty")
	}
	switch {
	case s.InputSchema == nil:
		fail("input schema is missing")
	case !isObjectSchema(s.InputSchema):
		fail(`input schema must have type "object"%s`, topRefHint(s.InputSchema))
	}
	if s.OutputSchema != nil && !isObjectSchema(s.OutputSchema) {
		fail(`output schema must have type "object"%s`, topRefHint(s.OutputSchema))
	}
	if slices.Contains(s.RequiredScopes, "") {
		fail("required scopes contain an empty scope")
	}
	if slices.Contains(s.Tenants, "") {
		fail("tenants contain an empty tenant")
	}
	if s.SupersededBy != "" {
		if _, err := checkSuccessor(s.Name, s.Version, s.SupersededBy); err != nil {
			fail("%v", err)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	subject := s.Key()
	if s.Name == "" || s.Version.IsZero() {
		subject = "tool spec " + fmt.Sprintf("%q", s.Key())
	}
	return errors.New(subject + ": " + strings.Join(problems, "; "))
}

// checkSuccessor checks what can be known of supersededBy from the version
// alone: it is name@X.Y.Z, of the same tool, and newer than v. A successor
// is where a pinned caller is told to move, so it must be a version the
// caller can pin in place of this one and that the estate will still
// publish after it; an older or another tool's version is neither. That it
// exists needs the estate, and is CheckSuccessor's part of the rule.
func checkSuccessor(name string, v Version, supersededBy string) (Version, error) {
	sname, sv, err := parseKey(supersededBy)
	if err != nil {
		return Version{}, fmt.Errorf("supersededBy %v", err)
	}
	switch c := sv.Compare(v); {
	case sname != name:
		return Version{}, fmt.Errorf("supersededBy %q names another tool (a successor is a newer version of %s)", supersededBy, name)
	case c == 0:
		return Version{}, fmt.Errorf("supersededBy %q names the version itself", supersededBy)
	case c < 0:
		return Version{}, fmt.Errorf("supersededBy %q names an older version (a successor is newer than %s)", supersededBy, v)
	}
	return sv, nil
}

// ErrNoSuccessor is the error CheckSuccessor wraps when the successor is
// well formed but names no version of the estate, so that a caller can
// say where it looked (a manifest directory, a registry).
var ErrNoSuccessor = errors.New("names a version that is not published")

// CheckSuccessor is the whole supersededBy rule: "" or name@X.Y.Z naming a
// version of the same tool, newer than spec's, among versions (the
// versions of spec's tool that exist, in any order). Validate applies the
// part that needs no estate; whoever holds the estate (the registry when a
// server registers its versions or a lifecycle change names a successor,
// the manifest loader for a directory) applies the rest with this, so the
// generator and the server refuse the same successors.
func CheckSuccessor(spec ToolSpec, versions []Version) error {
	if spec.SupersededBy == "" {
		return nil
	}
	sv, err := checkSuccessor(spec.Name, spec.Version, spec.SupersededBy)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(versions, func(v Version) bool { return v.Compare(sv) == 0 }) {
		return fmt.Errorf("supersededBy %q %w", spec.SupersededBy, ErrNoSuccessor)
	}
	return nil
}

// isObjectSchema reports whether s declares exactly type "object", as MCP
// requires of a tool's input and output schemas.
func isObjectSchema(s *schema.Schema) bool {
	t := s.Types()
	return len(t) == 1 && t[0] == schema.KindObject
}

// clone returns s with its own copies of the slices, so that neither the
// publisher nor a reader can edit a published version through them.
// Schemas are immutable after parsing and are shared.
func (s ToolSpec) clone() ToolSpec {
	s.RequiredScopes = slices.Clone(s.RequiredScopes)
	s.Tenants = slices.Clone(s.Tenants)
	return s
}

// topRefHint says how to fix a schema whose top is only a $ref, as
// invopop/jsonschema writes one: MCP's Tool type requires type "object" at
// the top of inputSchema and outputSchema, and clients check it.
func topRefHint(s *schema.Schema) string {
	if ref, _ := s.Ref(); ref != nil && len(s.Types()) == 0 {
		return ` at its top, as MCP requires: add type: object beside the $ref`
	}
	return ""
}
