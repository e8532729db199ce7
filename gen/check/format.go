package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the output formats of a report.
var Formats = []string{"text", "json", "github"}

// Write prints the report in the named format:
//
//	text    for people: one "file:line:col: rule tool path: message" line per
//	        reason, then a verdict line
//	json    for machines: the whole report
//	github  GitHub Actions workflow commands (::error file=…), so each reason
//	        is an annotation on the pull request's diff
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text", "":
		return r.writeText(w)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	case "github":
		return r.writeGitHub(w)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
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

func (f Finding) subject() string {
	s := f.Rule + " " + f.Tool
	if f.Path != "" {
		s += " " + f.Path
	}
	return s
}

func (r *Report) writeText(w io.Writer) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%s: %s: %s\n", f.location(), f.subject(), f.Message); err != nil {
			return err
		}
	}
	for _, rel := range r.Releases {
		line := fmt.Sprintf("release %s", rel.Tool)
		if rel.Against != "" {
			line += fmt.Sprintf(": %s change against %s", rel.Class, rel.Against)
		} else {
			line += ": first version"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		for _, ch := range rel.Changes {
			if _, err := fmt.Fprintf(w, "    %s\n", ch); err != nil {
				return err
			}
		}
	}
	verdict := fmt.Sprintf("mcpgen check: accepted: %d new versions, %d unchanged", len(r.Releases), r.Unchanged)
	if !r.OK() {
		verdict = fmt.Sprintf("mcpgen check: refused: %d reasons", len(r.Findings))
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}

// githubEscape escapes a workflow command's message and properties.
func githubEscape(s string, property bool) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

func (r *Report) writeGitHub(w io.Writer) error {
	for _, f := range r.Findings {
		props := []string{"title=" + githubEscape("mcpgen "+f.Rule, true)}
		if f.File != "" {
			props = append([]string{"file=" + githubEscape(f.File, true)}, props...)
		}
		if f.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Line), fmt.Sprintf("col=%d", f.Col))
		}
		msg := f.Tool
		if f.Path != "" {
			msg += " " + f.Path
		}
		msg += ": " + f.Message
		if _, err := fmt.Fprintf(w, "::error %s::%s\n", strings.Join(props, ","), githubEscape(msg, false)); err != nil {
			return err
		}
	}
	if r.OK() {
		_, err := fmt.Fprintf(w, "::notice title=mcpgen check::accepted: %d new versions, %d unchanged\n", len(r.Releases), r.Unchanged)
		return err
	}
	return nil
}
