package imported

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/internal/imported/importgen"
)

const testdata = "../../testdata/generators"

func TestPackagesAreUpToDate(t *testing.T) {
	out := t.TempDir()
	if err := importgen.Write(testdata, out); err != nil {
		t.Fatal(err)
	}
	for _, dir := range importgen.Generators {
		gentest.SameFiles(t, filepath.Join(out, dir), dir, "run go generate in internal/imported")
	}
	want, err := os.ReadFile(filepath.Join(out, "server", "echo.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join("server", "echo.gen.go")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("server/echo.gen.go is not what importgen writes now: run go generate in internal/imported")
	}
}
