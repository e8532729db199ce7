package bench

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// generateSizes are the estates generated: tools, three versions each.
var generateSizes = []int{100, 1000, 5000}

// buildSizes are the estates whose generated package BenchmarkBuild
// compiles: a build of 1,000 tools takes minutes on two cores, so the
// larger ones run on request (-args -build-sizes=100,1000,5000).
var buildSizes = flag.String("build-sizes", "100", "comma-separated estate sizes (tools) that BenchmarkBuild compiles")

// writeManifests writes n tool manifests of three versions each into dir
// (1.0.0; 1.1.0 adds an optional property, a minor change; 2.0.0 makes a
// property required, a major one), and a server.yaml. Every description
// ends with run, so that another run changes every tool.
func writeManifests(tb testing.TB, dir string, n int, run string) {
	tb.Helper()
	for i := 0; i < n; i++ {
		name := toolName(i)
		m := fmt.Sprintf(`name: %[1]s
versions:
  - version: 1.0.0
    title: Look up payment %[2]d
    description: Return the status of payment %[2]d by its reference.%[3]s
    sideEffect: read
    requiredScopes: [payments.read]
    dataClassification: confidential
    owner: wholesale-payments
    inputSchema:
      type: object
      properties:
        reference: { type: string, pattern: '^PMT-\d{3,}$' }
        include_legs: { type: boolean }
        amount_minor: { type: integer, minimum: 1 }
        currency: { type: string, enum: [AED, USD, EUR] }
      required: [reference]
      additionalProperties: false
  - version: 1.1.0
    title: Look up payment %[2]d
    description: Return the status of payment %[2]d, optionally as of a date.%[3]s
    sideEffect: read
    requiredScopes: [payments.read]
    dataClassification: confidential
    owner: wholesale-payments
    inputSchema:
      type: object
      properties:
        reference: { type: string, pattern: '^PMT-\d{3,}$' }
        include_legs: { type: boolean }
        amount_minor: { type: integer, minimum: 1 }
        currency: { type: string, enum: [AED, USD, EUR] }
        as_of: { type: string, minLength: 10, maxLength: 10 }
      required: [reference]
      additionalProperties: false
  - version: 2.0.0
    title: Look up payment %[2]d
    description: Return the status of payment %[2]d as of a date.%[3]s
    sideEffect: read
    requiredScopes: [payments.read]
    dataClassification: confidential
    owner: wholesale-payments
    inputSchema:
      type: object
      properties:
        reference: { type: string, pattern: '^PMT-\d{3,}$' }
        include_legs: { type: boolean }
        amount_minor: { type: integer, minimum: 1 }
        currency: { type: string, enum: [AED, USD, EUR] }
        as_of: { type: string, minLength: 10, maxLength: 10 }
        legs: { type: array, items: { type: string }, maxItems: 8 }
      required: [reference, as_of]
      additionalProperties: false
`, name, i, run)
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(m), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "server.yaml"), []byte("name: bench-estate\nversion: 1.0.0\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkGenerate is mcpgen generate (gen.Generate, what the CLI runs)
// for estates of 100 to 5,000 tools of three versions each: manifests
// loaded, the breaking-change gate, the IR, every file emitted and written
// into an empty directory.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range generateSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			manifests := b.TempDir()
			writeManifests(b, manifests, n, "")
			outs := b.TempDir() // a module: the shards' import path comes from its go.mod
			if err := os.WriteFile(filepath.Join(outs, "go.mod"), []byte("module benchgen\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			var bytes, lines int64
			for i := 0; i < b.N; i++ {
				out := filepath.Join(outs, fmt.Sprintf("run%d", i), "estate")
				res, err := gen.Generate(gen.Options{Manifests: manifests, Out: out})
				if err != nil {
					b.Fatal(err)
				}
				if res.Versions != 3*n {
					b.Fatalf("generated %d versions, want %d", res.Versions, 3*n)
				}
				if i == 0 {
					bytes = dirBytes(b, out)
					lines = goLines(b, out)
				}
			}
			b.ReportMetric(float64(bytes), "out-bytes")
			b.ReportMetric(float64(lines)/float64(3*n), "lines/version")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(3*n), "ns/version")
		})
	}
}

// BenchmarkBuild is go build of what BenchmarkGenerate writes, in a module
// of its own that requires this repository: the generated package alone is
// compiled (its dependencies are built once, before timing), with its
// shards when it has them. Each run first regenerates, outside the timer,
// from manifests whose every description has changed, so that the package
// and every shard are compiled afresh rather than taken from the build
// cache. peak-MiB is the largest process of the builds, the largest
// compilation: go build runs up to GOMAXPROCS of them at once.
func BenchmarkBuild(b *testing.B) {
	goTool := goCommand()
	var sizes []int
	for _, f := range strings.Split(*buildSizes, ",") {
		var n int
		if _, err := fmt.Sscan(f, &n); err != nil || n <= 0 {
			b.Fatalf("-build-sizes: %q is not a number of tools", f)
		}
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			mod := buildModule(b, goTool)
			manifests := b.TempDir()
			out := filepath.Join(mod, "estate")
			regenerate := func(run string) {
				writeManifests(b, manifests, n, run)
				os.RemoveAll(out)
				if _, err := gen.Generate(gen.Options{Manifests: manifests, Out: out}); err != nil {
					b.Fatal(err)
				}
			}
			var peakKB int64 // the largest process of any build: the compiler
			build := func() {
				cmd := exec.Command(goTool, "build", "./estate")
				cmd.Dir = mod
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
				if outp, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("go build: %v\n%s", err, outp)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peakKB = max(peakKB, int64(ru.Maxrss))
				}
			}
			// The dependencies into the build cache, with the package of one
			// tool: it imports what the large one imports.
			writeManifests(b, manifests, 1, "")
			if _, err := gen.Generate(gen.Options{Manifests: manifests, Out: out}); err != nil {
				b.Fatal(err)
			}
			build()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				regenerate(fmt.Sprintf(" (run %d of %d)", i+1, b.N))
				b.StartTimer()
				build()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(3*n), "ns/version")
			// Linux reports the peak resident set of the go command and the
			// processes it waited for, in KiB.
			b.ReportMetric(float64(peakKB)/1024, "peak-MiB")
		})
	}
}

// buildModule creates an empty module that requires this repository
// (through a replace directive, as the bench module does) and returns its
// directory.
func buildModule(tb testing.TB, goTool string) string {
	tb.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	goMod := fmt.Sprintf("module benchgen\n\ngo %s\n\nrequire github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\nreplace github.com/mcpgen/mcpgen => %s\n",
		strings.TrimPrefix(runtime.Version(), "go"), repo)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		tb.Fatal(err)
	}
	sums, err := os.ReadFile("go.sum")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// dirBytes is the size of the files in dir and below it.
func dirBytes(tb testing.TB, dir string) int64 {
	tb.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// goLines counts the non-blank lines of the Go files in dir and below it:
// what a reviewer reads.
func goLines(tb testing.TB, dir string) int64 {
	tb.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) != "" {
				n++
			}
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}
