package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestOnboardingFollowsTheREADME holds the README's onboarding section
// (between <!-- onboarding --> and <!-- /onboarding -->) to the script
// that runs it, testdata/script/onboarding.txtar: every command of its sh
// blocks is a command of the script, in the README's order, and every
// other block (a file to write, an output quoted) is part of a file of
// the script's archive, which the script uses. A step the README adds,
// changes or reorders that the script does not run fails here.
func TestOnboardingFollowsTheREADME(t *testing.T) {
	readme, ar := onboardingFiles(t)
	problems, err := onboardingDrift(readme, ar)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestOnboardingDriftIsFound changes the README the ways it could drift
// from the script, and insists that each is found.
func TestOnboardingDriftIsFound(t *testing.T) {
	readme, ar := onboardingFiles(t)
	for _, tc := range []struct{ name, old, new, want string }{
		{"a command changed", "\ngo build -o greeter .\ngo tool mcpgen check", "\ngo build -o hello .\ngo tool mcpgen check", `"go build -o hello .", where the script runs "go build -o greeter ."`},
		{"commands reordered", "go tool mcpgen check -manifests manifests -out tools\ngit commit -am 'greet 1.1.0'\n", "git commit -am 'greet 1.1.0'\ngo tool mcpgen check -manifests manifests -out tools\n", `"git commit -am 'greet 1.1.0'", where the script runs "go tool mcpgen check`},
		{"a command added", "./greeter -agent dev -lifecycle lifecycle.json < session.jsonl\n", "./greeter -agent dev -lifecycle lifecycle.json < session.jsonl\ngit commit -am 'greet 2.0.0'\n", `"git commit -am 'greet 2.0.0'", after the script's last command`},
		{"a command left out", "git commit -am 'greet 1.1.0'\n", "", `where the script runs "git commit -am 'greet 1.1.0'"`},
		{"a file changed", "        honorific: {type: string, maxLength: 20,", "        honorific: {type: string, maxLength: 30,", "this yaml block is in no file"},
		{"an output changed", "mcpgen check: refused: 2 errors\n", "mcpgen check: refused: 1 error\n", "this text block is in no file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(readme, tc.old) {
				t.Fatalf("the README has no %q to change", tc.old)
			}
			problems, err := onboardingDrift(strings.Replace(readme, tc.old, tc.new, 1), ar)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("problems %q, want one saying %s", problems, tc.want)
			}
		})
	}
}

func onboardingFiles(t *testing.T) (string, *txtar.Archive) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "script", "onboarding.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return string(readme), ar
}

// onboardingDrift lists where the README's onboarding section and the
// script part.
func onboardingDrift(readme string, ar *txtar.Archive) ([]string, error) {
	blocks, err := onboardingBlocks(readme)
	if err != nil {
		return nil, err
	}
	var problems []string
	script := scriptCommands(string(ar.Comment))
	n := 0 // commands of the README so far
	for _, b := range blocks {
		if b.lang != "sh" {
			if !inArchive(ar, b.text) {
				problems = append(problems, fmt.Sprintf("README.md:%d: this %s block is in no file of onboarding.txtar:\n%s", b.line, b.lang, b.text))
			}
			continue
		}
		for _, c := range readmeCommands(b.text) {
			switch {
			case n >= len(script):
				problems = append(problems, fmt.Sprintf("README.md:%d: %q, after the script's last command", b.line, c))
			case script[n] != c:
				problems = append(problems, fmt.Sprintf("README.md:%d: %q, where the script runs %q", b.line, c, script[n]))
			}
			n++
		}
	}
	for _, c := range script[min(n, len(script)):] {
		problems = append(problems, fmt.Sprintf("the script runs %q after the README's last command", c))
	}
	if n < 10 {
		problems = append(problems, fmt.Sprintf("the README's onboarding section has %d commands: its sh blocks were not found", n))
	}
	return problems, nil
}

// A block is a fenced code block of the README.
type block struct {
	lang, text string
	line       int // of the opening fence
}

var fence = regexp.MustCompile("(?m)^```([a-z]*)\n")

// onboardingBlocks returns the fenced blocks between the section's
// markers.
func onboardingBlocks(readme string) ([]block, error) {
	const start, end = "<!-- onboarding -->\n", "<!-- /onboarding -->\n"
	i, j := strings.Index(readme, start), strings.Index(readme, end)
	if i < 0 || j < i {
		return nil, fmt.Errorf("README.md has no section between %s and %s", strings.TrimSpace(start), strings.TrimSpace(end))
	}
	var blocks []block
	for pos := i; ; {
		m := fence.FindStringSubmatchIndex(readme[pos:j])
		if m == nil {
			return blocks, nil
		}
		open, body := pos+m[0], pos+m[1]
		stop := strings.Index(readme[body:j], "```\n")
		if stop < 0 {
			return nil, fmt.Errorf("README.md:%d: the block is not closed", strings.Count(readme[:open], "\n")+1)
		}
		blocks = append(blocks, block{
			lang: readme[pos+m[2] : pos+m[3]],
			text: readme[body : body+stop],
			line: strings.Count(readme[:open], "\n") + 1,
		})
		pos = body + stop + len("```\n")
	}
}

// readmeCommands splits a shell block into commands: one a line, or
// several joined by &&, without comments.
func readmeCommands(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		for _, c := range strings.Split(line, "&&") {
			if c = strings.Join(strings.Fields(c), " "); c != "" && !strings.HasPrefix(c, "#") {
				out = append(out, c)
			}
		}
	}
	return out
}

// scriptCommands lists the steps of a script that a reader of the README
// runs too, as a shell reads them: the commands expected to succeed (exec,
// cd and mkdir; a negated one shows a refusal the README quotes), without
// conditions, exec, and $exe (empty where the README runs), with a
// preceding stdin as "< FILE". The replace of mcpgen by the checkout is the
// script's own.
func scriptCommands(script string) []string {
	var out []string
	stdin := ""
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		for len(f) > 0 && strings.HasPrefix(f[0], "[") {
			f = f[1:]
		}
		if len(f) < 2 || f[0] == "!" {
			continue
		}
		switch f[0] {
		case "stdin":
			stdin = f[1]
			continue
		case "exec":
			f = f[1:]
		case "cd", "mkdir":
		default:
			continue
		}
		c := strings.ReplaceAll(strings.Join(f, " "), "$exe", "")
		if strings.HasPrefix(c, "go mod edit -replace=github.com/mcpgen/mcpgen=") {
			continue
		}
		if stdin != "" {
			c += " < " + stdin
			stdin = ""
		}
		out = append(out, c)
	}
	return out
}

// inArchive reports whether text is part of a file of the archive.
func inArchive(ar *txtar.Archive, text string) bool {
	for _, f := range ar.Files {
		if strings.Contains(string(f.Data), text) {
			return true
		}
	}
	return false
}
