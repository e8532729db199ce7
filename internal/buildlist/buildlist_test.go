package buildlist

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

const root = "../.."

// readmeRows is the README's requirements table: module path -> the
// "used by" column.
func readmeRows(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "<!-- requirements -->")
	end := strings.Index(text, "<!-- /requirements -->")
	if start < 0 || end < start {
		t.Fatal("README.md has no <!-- requirements --> table")
	}
	rows := map[string]string{}
	row := regexp.MustCompile("^\\| `([^`]+)` \\| (.*) \\|$")
	for _, line := range strings.Split(text[start:end], "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			rows[m[1]] = m[2]
		}
	}
	return rows
}

// TestRequirementsAreTheREADMEs: go.mod's direct requirements are exactly
// the README's table; a module the table says is needed at run time is
// imported by some non-test package of the main module, and one it says
// is not (tests, the reflector program) is imported by none. Nested
// modules (bench, interop, the sdkclient adapter) are not in ./..., so
// what they import does not count.
func TestRequirementsAreTheREADMEs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeRows(t)
	var direct []string
	for _, r := range mod.Require {
		if !r.Indirect {
			direct = append(direct, r.Mod.Path)
		}
	}
	var listed []string
	for p := range rows {
		listed = append(listed, p)
	}
	slices.Sort(direct)
	slices.Sort(listed)
	if !slices.Equal(direct, listed) {
		t.Errorf("go.mod requires\n  %s\nthe README's table lists\n  %s", strings.Join(direct, "\n  "), strings.Join(listed, "\n  "))
	}

	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./...: %v", err)
	}
	imported := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		imported[p] = true
	}
	for p, use := range rows {
		runTime := strings.HasPrefix(use, "run time")
		if runTime && !imported[p] {
			t.Errorf("the README says %s is needed at run time, but no non-test package imports it", p)
		}
		if !runTime && imported[p] {
			t.Errorf("the README says %s is not imported at run time (%s), but a non-test package imports it", p, use)
		}
	}
	// The SDK and what only it brings stay out of the build list.
	all := exec.Command("go", "list", "-m", "all")
	all.Dir = root
	out, err = all.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	for _, p := range []string{"github.com/modelcontextprotocol/go-sdk", "github.com/google/jsonschema-go", "github.com/yosida95/uritemplate/v3", "github.com/segmentio/encoding"} {
		if slices.Contains(strings.Fields(string(out)), p) {
			t.Errorf("the main module's build list has %s", p)
		}
	}
}

// TestNoTestingPackageAtRunTime: what a user links — the CLI, the
// generator and the runtime — imports no package of the standard library's
// testing tree (testing, testing/fstest, …): those belong to tests, and a
// production path that needs an in-memory file takes its bytes instead.
func TestNoTestingPackageAtRunTime(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/...", "./gen/...", "./runtime/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") {
			t.Errorf("a non-test package of cmd/, gen/ or runtime/ imports %s (go list -deps)", p)
		}
	}
}
