package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Level is how much a finding weighs: an error blocks the release, a
// warning is worth a reviewer's look, info is context. A gate that called
// everything an error would teach a team to stop reading it.
type Level string

// The levels, from the weightiest.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Info    Level = "info"
)

// Levels lists the levels a -fail-on flag accepts, weightiest first.
var Levels = []Level{Error, Warning, Info}

// rank orders levels: a higher rank weighs more.
func (l Level) rank() int {
	switch l {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// AtLeast reports whether l weighs as much as min or more.
func (l Level) AtLeast(min Level) bool { return l.rank() >= min.rank() && min.rank() > 0 }

// ParseLevel reads a level name; "none" is the level nothing reaches (a
// -fail-on that never fails).
func ParseLevel(s string) (Level, error) {
	if s == "none" {
		return "", nil
	}
	for _, l := range Levels {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown level %q (want error, warning, info or none)", s)
}

// ClassLevel is the level of a contract change that no version number
// decides (mcpgen diff): a major change breaks some caller, a minor one
// changes what callers may send or receive, a patch touches annotations
// only.
func ClassLevel(c schema.Class) Level {
	switch c {
	case schema.Major:
		return Error
	case schema.Minor:
		return Warning
	}
	return Info
}

// The rule ids of the gate's own rules. Refusals from the publish guard
// carry the guard's ids ("not-newer", "bump-too-small", "invalid-spec"),
// and the reasons under a refused bump the classifier's
// ("required-added"): one implementation of each rule, named once.
const (
	RulePublishedChanged = "published-changed"
	RuleVersionRemoved   = "version-removed"
	RuleLifecycleBack    = "lifecycle-reversed"
	RuleRecordMissing    = "record-missing"
	RuleRecordRewritten  = "record-rewritten"
	RuleWaiverExpired    = "waiver-expired"
	RuleWaiverUnused     = "waiver-unused"
	RuleBumpTooSmall     = "bump-too-small"
	RuleNotNewer         = "not-newer"
	RuleInvalidSpec      = "invalid-spec"
)

// ruleHelp is one line on each rule of the gate, for SARIF's rule
// descriptors and the docs. A rule of the classifier not listed here is
// described by its class.
var ruleHelp = map[string]string{
	RulePublishedChanged: "The contract of a published version changed; a published version is immutable.",
	RuleVersionRemoved:   "A published version is missing from the manifests; history is append-only.",
	RuleLifecycleBack:    "A lifecycle went backwards; it only moves from preview to active to deprecated to retired.",
	RuleRecordMissing:    "The estate record is missing from the change while the baseline had one.",
	RuleRecordRewritten:  "The estate record in the change rewrites or drops a version the baseline recorded.",
	RuleWaiverExpired:    "A waiver is past its expiry date and no longer accepts its finding.",
	RuleWaiverUnused:     "A waiver matches no finding; remove it, or it may one day accept a finding nobody reviewed.",
	RuleBumpTooSmall:     "A new version's number is too small for how its contract changed.",
	RuleNotNewer:         "A new version is not newer than the version it follows.",
	RuleInvalidSpec:      "A new version is not a valid tool specification.",
}

// RuleHelp describes a rule in one line.
func RuleHelp(rule string) string {
	if h, ok := ruleHelp[rule]; ok {
		return h
	}
	if h, ok := lintHelp[rule]; ok {
		return h
	}
	return "A change of the contract, as the runtime's classifier names it (" + rule + ")."
}

// Finding is one thing the gate says about a release: a reason it is
// refused (Error), something to look at (Warning), or context (Info).
type Finding struct {
	Rule  string `json:"rule"`
	Level Level  `json:"level"`
	// Tool is the version concerned, "name@X.Y.Z".
	Tool string `json:"tool"`
	// Against is the version Tool was compared with, "name@X.Y.Z", when
	// the finding compares two.
	Against string `json:"against,omitempty"`
	// Path is the schema path in value terms ("$.as_of",
	// "output:$.status"), or the manifest field, or "".
	Path    string       `json:"path,omitempty"`
	Message string       `json:"message"`
	Pos     manifest.Pos `json:"-"`
	File    string       `json:"file,omitempty"`
	Line    int          `json:"line,omitempty"`
	Col     int          `json:"col,omitempty"`
	// Waiver, when set, is the reviewed waiver that accepts this
	// finding: it no longer blocks, and it is printed as accepted.
	Waiver *Waiver `json:"waiver,omitempty"`
}

// Blocks reports whether the finding refuses the release.
func (f Finding) Blocks() bool { return f.Level == Error && f.Waiver == nil }

// label is the level as printed: "accepted" for a waived finding.
func (f Finding) label() string {
	if f.Waiver != nil {
		return "accepted"
	}
	return string(f.Level)
}

func (f Finding) location() string {
	if f.Line == 0 {
		if f.File == "" {
			return "-"
		}
		return f.File
	}
	return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
}

// subject is "rule tool path", what the finding is about.
func (f Finding) subject() string {
	return strings.TrimSpace(f.Rule + " " + f.about())
}

// about is "tool path", or less when the finding concerns no version (a
// missing record).
func (f Finding) about() string {
	return strings.TrimSpace(f.Tool + " " + f.Path)
}

// line is the finding's message after what it is about.
func (f Finding) line(text string) string {
	if a := f.about(); a != "" {
		return a + ": " + text
	}
	return text
}

// text is the message with, for an accepted finding, the waiver's reason.
func (f Finding) text() string {
	if f.Waiver == nil {
		return f.Message
	}
	return fmt.Sprintf("%s (waived at %s: %s)", f.Message, f.Waiver.Pos, f.Waiver.Reason)
}

// Count is n and the noun, plural unless n is 1: every count mcpgen
// prints goes through it, so none reads "1 reasons".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
