package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Formats lists the output formats of a report and of a comparison.
var Formats = []string{"text", "json", "github", "markdown", "sarif"}

// sheet is what every format prints, whichever command produced it: the
// findings, and the lines around them. Report and Comparison both become
// one, so each format is written once.
type sheet struct {
	command  string // "check", "generate", "diff"
	baseline string // "" when there is nothing to say
	findings []Finding
	releases []Release
	verdict  string
	// value is what the json format encodes.
	value any
}

// Write prints the report in the named format:
//
//	text      for people: the baseline, one "file:line:col: level rule
//	          tool path: message" line per finding, the releases, a verdict
//	json      for machines: the whole report
//	github    GitHub Actions workflow commands, one annotation per finding
//	          at its level (::error, ::warning, ::notice)
//	markdown  a pull-request comment: the verdict, a table of findings, the
//	          releases with their reasons
//	sarif     SARIF 2.1.0, for code scanning
func (r *Report) Write(w io.Writer, format string) error {
	cmd := r.Command
	if cmd == "" {
		cmd = "check"
	}
	s := sheet{command: cmd, findings: r.Findings, releases: r.Releases, verdict: r.verdict(),
		value: struct {
			Accepted bool `json:"accepted"`
			*Report
		}{r.OK(), r}}
	if r.Baseline != nil {
		s.baseline = r.Baseline.String()
	}
	return s.write(w, format)
}

// verdict is the last line: refused or accepted, and the counts that
// matter, each said once.
func (r *Report) verdict() string {
	var parts []string
	add := func(n int, noun string) {
		if n > 0 {
			parts = append(parts, Count(n, noun))
		}
	}
	head := "accepted"
	if !r.OK() {
		head = "refused"
		add(r.count(Error), "error")
	} else {
		parts = append(parts, Count(len(r.Releases), "new version"), fmt.Sprintf("%d unchanged", r.Unchanged))
	}
	add(r.count(Warning), "warning")
	if n := r.accepted(); n > 0 {
		parts = append(parts, Count(n, "finding")+" accepted by waiver")
	}
	return head + ": " + strings.Join(parts, ", ")
}

func (s sheet) write(w io.Writer, format string) error {
	var b bytes.Buffer
	switch format {
	case "text", "":
		s.text(&b)
	case "json":
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s.value); err != nil {
			return err
		}
	case "github":
		s.github(&b)
	case "markdown":
		s.markdown(&b)
	case "sarif":
		if err := s.sarif(&b); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (s sheet) text(b *bytes.Buffer) {
	if s.baseline != "" {
		fmt.Fprintf(b, "mcpgen %s: baseline: %s\n", s.command, s.baseline)
	}
	for _, f := range s.findings {
		fmt.Fprintf(b, "%s: %s %s: %s\n", f.location(), f.label(), f.subject(), f.text())
	}
	for _, rel := range s.releases {
		fmt.Fprintf(b, "release %s: %s\n", rel.Tool, rel.summary())
		for _, ch := range rel.Changes {
			fmt.Fprintf(b, "    %s\n", ch)
		}
	}
	fmt.Fprintf(b, "mcpgen %s: %s\n", s.command, s.verdict)
}

// summary says how a release relates to the version before it.
func (rel Release) summary() string {
	switch {
	case rel.Against == "":
		return "first version"
	case len(rel.Changes) == 0:
		return "same contract as " + rel.Against
	}
	return fmt.Sprintf("%s change against %s", rel.Class, rel.Against)
}

// githubEscape escapes a workflow command's message and properties.
func githubEscape(s string, property bool) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

// githubCommand is the workflow command of a level: GitHub's three
// annotation levels are error, warning and notice.
func githubCommand(f Finding) string {
	switch {
	case f.Waiver != nil, f.Level == Info:
		return "notice"
	case f.Level == Warning:
		return "warning"
	}
	return "error"
}

func (s sheet) github(b *bytes.Buffer) {
	for _, f := range s.findings {
		var props []string
		if f.File != "" {
			props = append(props, "file="+githubEscape(f.File, true))
		}
		if f.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Line), fmt.Sprintf("col=%d", f.Col))
		}
		title := "mcpgen " + f.Rule
		if f.Waiver != nil {
			title += " (accepted)"
		}
		props = append(props, "title="+githubEscape(title, true))
		fmt.Fprintf(b, "::%s %s::%s\n", githubCommand(f), strings.Join(props, ","), githubEscape(f.line(f.text()), false))
	}
	title := githubEscape("mcpgen "+s.command, true)
	if s.baseline != "" {
		fmt.Fprintf(b, "::notice title=%s::%s\n", title, githubEscape("baseline: "+s.baseline, false))
	}
	fmt.Fprintf(b, "::notice title=%s::%s\n", title, githubEscape(s.verdict, false))
}

// mdCell makes s safe inside a markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func mdCode(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func (s sheet) markdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "### mcpgen %s: %s\n\n", s.command, s.verdict)
	if s.baseline != "" {
		fmt.Fprintf(b, "Baseline: %s\n\n", s.baseline)
	}
	if len(s.findings) > 0 {
		b.WriteString("| level | rule | tool | path | where | message |\n|---|---|---|---|---|---|\n")
		for _, f := range s.findings {
			level := "**" + f.label() + "**"
			if f.Level != Error || f.Waiver != nil {
				level = f.label()
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", level, mdCode(f.Rule), mdCode(f.Tool), mdCell(mdCode(f.Path)),
				mdCell(f.location()), mdCell(f.text()))
		}
		b.WriteString("\n")
	}
	if len(s.releases) > 0 {
		b.WriteString("Releases:\n\n")
		for _, rel := range s.releases {
			summary := rel.summary()
			if rel.Against != "" {
				summary = strings.Replace(summary, rel.Against, mdCode(rel.Against), 1)
			}
			fmt.Fprintf(b, "- %s: %s\n", mdCode(rel.Tool), summary)
			for _, ch := range rel.Changes {
				fmt.Fprintf(b, "  - %s %s %s: %s\n", ch.Class, mdCode(ch.Rule), mdCode(ch.Path), ch.Text)
			}
		}
	}
}

// The SARIF 2.1.0 log (OASIS SARIF 2.1.0, §3): one run of one tool whose
// rules are the rules that fired, and one result per finding. A finding a
// waiver accepts carries an external suppression (§3.35) with the waiver's
// reason as its justification, so code scanning shows it as dismissed by
// review rather than hiding it.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID               string    `json:"id"`
	ShortDescription sarifText `json:"shortDescription"`
}

type sarifResult struct {
	RuleID       string             `json:"ruleId"`
	RuleIndex    int                `json:"ruleIndex"`
	Level        string             `json:"level"`
	Message      sarifText          `json:"message"`
	Locations    []sarifLocation    `json:"locations,omitempty"`
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
	Properties   map[string]string  `json:"properties,omitempty"`
}

type sarifLocation struct {
	Physical *sarifPhysical `json:"physicalLocation,omitempty"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// sarifLevel is SARIF's name of a level (§3.27.10): "note" for info.
func sarifLevel(l Level) string {
	if l == Info {
		return "note"
	}
	return string(l)
}

func (s sheet) sarif(b *bytes.Buffer) error {
	var rules []string
	for _, f := range s.findings {
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	slices.Sort(rules)
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "mcpgen", InformationURI: "https://github.com/mcpgen/mcpgen", Rules: []sarifRule{}}},
		Results: []sarifResult{}}
	for _, id := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifText{RuleHelp(id)}})
	}
	for _, f := range s.findings {
		res := sarifResult{RuleID: f.Rule, RuleIndex: slices.Index(rules, f.Rule), Level: sarifLevel(f.Level),
			Message: sarifText{f.line(f.Message)}, Properties: map[string]string{}}
		if f.Tool != "" {
			res.Properties["tool"] = f.Tool
		}
		if f.Path != "" {
			res.Properties["path"] = f.Path
		}
		if f.Against != "" {
			res.Properties["against"] = f.Against
		}
		loc := sarifLocation{}
		if f.File != "" {
			loc.Physical = &sarifPhysical{Artifact: sarifArtifact{URI: toURI(f.File)}}
			if f.Line > 0 {
				loc.Physical.Region = &sarifRegion{StartLine: f.Line, StartColumn: max(f.Col, 1)}
			}
		}
		if f.Tool != "" {
			name := f.Tool
			if f.Path != "" {
				name += "/" + f.Path
			}
			loc.Logical = []sarifLogical{{FullyQualifiedName: name, Kind: "member"}}
		}
		if loc.Physical != nil || loc.Logical != nil {
			res.Locations = []sarifLocation{loc}
		}
		if f.Waiver != nil {
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: f.Waiver.Reason}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
		Version: "2.1.0", Runs: []sarifRun{run}})
}

// toURI turns a file path into a relative URI reference (RFC 3986): slash
// separated, with the characters a path may hold but a URI may not
// escaped.
func toURI(file string) string {
	file = strings.ReplaceAll(file, `\`, "/")
	var b strings.Builder
	for _, c := range []byte(file) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"%<>\^`+"`{|}#?[]", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
