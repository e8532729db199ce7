package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeFuzzRunsEveryTarget runs `make fuzz` with a stand-in go command
// whose first target fails: the loop goes on to the others, reports each,
// and the run fails.
func TestMakeFuzzRunsEveryTarget(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	fakeGo := filepath.Join(dir, "go")
	log := filepath.Join(dir, "ran")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\ncase \"$*\" in *FuzzFirst*) exit 1;; esac\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "fuzz", "GO="+fakeGo, "FUZZ_TARGETS=./a:FuzzFirst ./b:FuzzSecond ./c:FuzzThird")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("make fuzz succeeded although a target failed:\n%s", out)
	}
	ran, _ := os.ReadFile(log)
	for _, fn := range []string{"FuzzFirst", "FuzzSecond", "FuzzThird"} {
		if !strings.Contains(string(ran), fn) {
			t.Errorf("%s did not run; ran:\n%s", fn, ran)
		}
	}
	for _, line := range []string{"FAIL ./a:FuzzFirst", "ok   ./b:FuzzSecond", "ok   ./c:FuzzThird"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("the report lacks %q:\n%s", line, out)
		}
	}
}
