package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// update rewrites the expected output files inside the scripts from what
// the commands print (testscript's UpdateScripts):
//
//	go test ./cmd/mcpgen -run TestScript -update
//
// Review the diff before committing it.
var update = flag.Bool("update", false, "update the expected outputs in testdata/script from the actual ones")

// TestMain makes the CLI available to the scripts as the command mcpgen,
// run as its own process, exactly as a user runs it.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpgen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the scripts in testdata/script: each reads like a
// terminal session of a team using mcpgen (see their comments).
//
// Besides testscript's own commands, the scripts have:
//
//	status N PROG [ARGS...]  run PROG and insist on exit status N (the CLI's
//	                         statuses mean something: 0 accepted, 1 refused,
//	                         2 bad input or usage)
//	sarif FILE               validate FILE (or "stdout") against the SARIF
//	                         2.1.0 schema kept in testdata/sarif; "! sarif"
//	                         insists that it is not valid
//	ls DIR                   list DIR's entries, hidden ones too, one a
//	                         line, sorted; "/" marks a directory and "@" a
//	                         symbolic link, so a script can see stray files
//	                         and which files were replaced
//	freeport VAR             set VAR to a TCP port on 127.0.0.1 that was
//	                         free a moment ago, for a server the script starts
//	waitport ADDR            wait (up to 60s) until ADDR accepts connections:
//	                         a server started in the background is serving
//	append SRC DST           add SRC's content to the end of DST, as a team
//	                         adds a version to the end of a manifest
//	haslines stdout|stderr FILE
//	                         insist that every line of FILE is a line of the
//	                         last command's stdout (stderr), for output a
//	                         document quotes in part
//
// and the environment variable MCPGEN_ROOT, the absolute path of this
// module, for a script that builds a module against it. Go's own settings
// (module cache, build cache, proxy, flags) are passed through so that a
// script can run `go build` offline with what `go test` already fetched.
func TestScript(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goVars, err := goEnv()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join(root, "testdata", "script"),
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("MCPGEN_ROOT", root)
			// git looks for a repository no higher than the script's
			// own directory, so a script that runs no git init is
			// outside git wherever the tests run, and the baseline of
			// mcpgen check is the same every time.
			env.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(env.WorkDir))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// Fixed dates make a script's commit hashes, which
			// mcpgen check prints, the same on every run.
			env.Setenv("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
			env.Setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
			if os.Getenv("GORACE") == "" {
				// Under -race each mcpgen run would sleep a second
				// at exit, waiting for races to report: it has no
				// goroutines left by then.
				env.Setenv("GORACE", "atexit_sleep_ms=10")
			}
			for k, v := range goVars {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":   cmdStatus,
			"ls":       cmdLs,
			"sarif":    cmdSarif,
			"freeport": cmdFreePort,
			"waitport": cmdWaitPort,
			"append":   cmdAppend,
			"haslines": cmdHasLines,
		},
	})
}

// goEnvVars are the go command's settings a script's `go build` needs from
// the developer's environment. The scripts' HOME is not the developer's,
// so the defaults derived from it would be wrong: the values are asked of
// `go env` once and passed explicitly.
var goEnvVars = []string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOFLAGS", "GOSUMDB", "GONOSUMDB", "GOPRIVATE"}

// goEnv returns the go command's settings, or none when go is not on PATH
// (the scripts that need it skip themselves with [!exec:go]).
//
// GOTOOLCHAIN is set to local: a script builds with the toolchain running
// the tests and never downloads another. GOSUMDB stays the developer's: a
// script's module copies this module's go.sum, which already holds every
// checksum its build needs, so the checksum database is never consulted.
func goEnv() (map[string]string, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return nil, nil
	}
	out, err := exec.Command("go", append([]string{"env"}, goEnvVars...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(goEnvVars) {
		return nil, fmt.Errorf("go env printed %d lines for %d variables", len(lines), len(goEnvVars))
	}
	vars := map[string]string{"GOTOOLCHAIN": "local"}
	for i, name := range goEnvVars {
		vars[name] = lines[i]
	}
	return vars, nil
}

// cmdStatus runs a program and checks its exit status: "status 1 mcpgen
// check ..." is a refusal, "status 2 ..." bad input. Its output is the
// script's stdout and stderr, as after exec.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status (name the status expected)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %q is not an exit status", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdLs lists a directory (an empty one prints nothing, and that is its
// stdout: not the previous command's).
func cmdLs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: ls dir")
	}
	stdout := ts.Stdout()
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range entries { // sorted by name
		name := e.Name()
		switch {
		case e.Type()&os.ModeSymlink != 0:
			name += "@"
		case e.IsDir():
			name += "/"
		}
		fmt.Fprintln(stdout, name)
	}
}

// sarifSchema is the SARIF 2.1.0 JSON schema, compiled once.
var sarifSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	file, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(file, doc); err != nil {
		return nil, err
	}
	return c.Compile(file)
})

// cmdSarif validates a SARIF log against the SARIF 2.1.0 schema, offline:
// what code scanning would refuse, the script refuses.
func cmdSarif(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] sarif FILE|stdout")
	}
	data := ts.ReadFile(args[0])
	sch, err := sarifSchema()
	ts.Check(err)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(data))
	if err != nil {
		ts.Fatalf("sarif: %s is not JSON: %v", args[0], err)
	}
	err = sch.Validate(doc)
	switch {
	case err != nil && !neg:
		ts.Fatalf("sarif: %s is not valid SARIF 2.1.0: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("sarif: %s is valid SARIF 2.1.0, and should not be", args[0])
	}
}

// cmdFreePort sets a variable to a port that was free on the loopback
// address: the kernel picks it, and the listener is closed at once.
func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// cmdWaitPort waits until a server listens on the address.
func cmdWaitPort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitport ADDR")
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", args[0], time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nothing listens on %s: %v", args[0], err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cmdAppend adds a file's content to the end of another file.
func cmdAppend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: append SRC DST")
	}
	data := ts.ReadFile(args[0])
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_APPEND|os.O_WRONLY, 0)
	ts.Check(err)
	_, err = f.WriteString(data)
	ts.Check(errors.Join(err, f.Close()))
}

// cmdHasLines checks that the output holds every line of a file.
func cmdHasLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[0] != "stdout" && args[0] != "stderr") {
		ts.Fatalf("usage: haslines stdout|stderr FILE")
	}
	out := strings.Split(ts.ReadFile(args[0]), "\n")
	for _, line := range strings.Split(strings.TrimSuffix(ts.ReadFile(args[1]), "\n"), "\n") {
		if !slices.Contains(out, line) {
			ts.Fatalf("no line %q in %s", line, args[0])
		}
	}
}
