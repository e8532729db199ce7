// Command mcpgen generates a typed Go package from versioned MCP tool
// manifests, and is the team's breaking-change gate in CI.
//
//	mcpgen generate -manifests DIR -out DIR [-package NAME]
//	mcpgen check    -manifests DIR -out DIR [-against REF] [-format text|json|github]
//	mcpgen diff     [-format F] OLD.yaml NEW.yaml
//	mcpgen diff     [-format F] -manifests DIR -tool NAME V1 V2
//	mcpgen estate   -manifests DIR [-principals FILE] [-format text|markdown|json]
//
// Exit status: 0 accepted, 1 refused, 2 bad input or usage. It is a thin
// shell over the library in package gen; every rule lives there and in the
// runtime.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
)

// Exit statuses.
const (
	exitOK      = 0
	exitRefused = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `mcpgen turns versioned MCP tool manifests into a typed Go package.

Usage:
  mcpgen generate -manifests DIR -out DIR [-package NAME]
  mcpgen check    -manifests DIR -out DIR [-against REF] [-format text|json|github]
  mcpgen diff     [-format text|json|github] OLD.yaml NEW.yaml
  mcpgen diff     [-format text|json|github] -manifests DIR -tool NAME V1 V2
  mcpgen estate   -manifests DIR [-principals FILE] [-format text|markdown|json]

Run "mcpgen COMMAND -h" for a command's flags.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "generate":
		return generate(args[1:], stdout, stderr)
	case "check":
		return checkCmd(args[1:], stdout, stderr)
	case "diff":
		return diffCmd(args[1:], stdout, stderr)
	case "estate":
		return estateCmd(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "mcpgen: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mcpgen "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags and insists on the required ones.
func parse(fs *flag.FlagSet, args []string, required map[string]*string) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return false
	}
	for name, v := range required {
		if *v == "" {
			fmt.Fprintf(fs.Output(), "%s: -%s is required\n", fs.Name(), name)
			return false
		}
	}
	return true
}

func generate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("generate", stderr)
	manifests := fs.String("manifests", "", "directory of tool manifests (and server.yaml)")
	out := fs.String("out", "", "directory of the generated package")
	pkg := fs.String("package", "", "Go package name (default: the last element of -out)")
	if !parse(fs, args, map[string]*string{"manifests": manifests, "out": out}) {
		return exitUsage
	}
	res, err := gen.Generate(gen.Options{Manifests: *manifests, Out: *out, Package: *pkg})
	if code := report(err, "text", stdout, stderr); code != exitOK {
		return code
	}
	fmt.Fprintln(stdout, res.Summary())
	return exitOK
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	manifests := fs.String("manifests", "", "directory of tool manifests")
	out := fs.String("out", "", "directory of the previously generated package (its estate record)")
	against := fs.String("against", "", "compare with the estate record at this git revision instead of the working tree")
	format := fs.String("format", "text", "output format: text, json or github")
	if !parse(fs, args, map[string]*string{"manifests": manifests, "out": out}) {
		return exitUsage
	}
	if !validFormat(*format) {
		fmt.Fprintf(stderr, "mcpgen check: unknown format %q\n", *format)
		return exitUsage
	}
	opts := gen.Options{Manifests: *manifests, Out: *out}
	if *against != "" {
		rec, err := record.LoadGit(*out, *against)
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen check: %v\n", err)
			return exitUsage
		}
		opts.Against = rec
	}
	_, rep, err := gen.Load(opts)
	if err != nil {
		return report(err, *format, stdout, stderr)
	}
	if err := rep.Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "mcpgen check: %v\n", err)
		return exitUsage
	}
	if !rep.OK() {
		return exitRefused
	}
	return exitOK
}

func diffCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	format := fs.String("format", "text", "output format: text, json or github")
	manifests := fs.String("manifests", "", "with -tool: the directory of manifests")
	tool := fs.String("tool", "", "compare two versions of this tool in -manifests")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if !validFormat(*format) || fs.NArg() != 2 {
		fmt.Fprintln(stderr, "usage: mcpgen diff [-format text|json|github] OLD.yaml NEW.yaml\n       mcpgen diff [-format F] -manifests DIR -tool NAME V1 V2")
		return exitUsage
	}
	var old, new *manifest.Version
	if *tool != "" {
		if *manifests == "" {
			fmt.Fprintln(stderr, "mcpgen diff: -tool needs -manifests")
			return exitUsage
		}
		est, err := manifest.LoadDir(*manifests)
		if err != nil {
			return report(err, *format, stdout, stderr)
		}
		if old, err = findVersion(est, *tool, fs.Arg(0)); err == nil {
			new, err = findVersion(est, *tool, fs.Arg(1))
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen diff: %v\n", err)
			return exitUsage
		}
	} else {
		a, err := manifest.LoadFile(fs.Arg(0))
		if err != nil {
			return report(err, *format, stdout, stderr)
		}
		b, err := manifest.LoadFile(fs.Arg(1))
		if err != nil {
			return report(err, *format, stdout, stderr)
		}
		// A manifest lists every version: compare the newest of each.
		old, new = a.Versions[len(a.Versions)-1], b.Versions[len(b.Versions)-1]
	}
	if err := check.Compare(old, new).Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "mcpgen diff: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func findVersion(est *manifest.Estate, name, version string) (*manifest.Version, error) {
	for _, t := range est.Tools {
		if t.Name != name {
			continue
		}
		for _, v := range t.Versions {
			if v.Version.String() == version {
				return v, nil
			}
		}
		return nil, fmt.Errorf("%s has no version %s", name, version)
	}
	return nil, fmt.Errorf("no tool %s in the manifests", name)
}

func estateCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("estate", stderr)
	manifests := fs.String("manifests", "", "directory of tool manifests")
	principals := fs.String("principals", "", "YAML or JSON list of principals (agent, tenant, scopes, clearance): show what each sees")
	format := fs.String("format", "text", "output format: text, markdown or json")
	if !parse(fs, args, map[string]*string{"manifests": manifests}) {
		return exitUsage
	}
	est, err := manifest.LoadDir(*manifests)
	if err != nil {
		return report(err, "text", stdout, stderr)
	}
	var ps []gen.PrincipalFile
	if *principals != "" {
		if ps, err = gen.LoadPrincipals(*principals); err != nil {
			fmt.Fprintf(stderr, "mcpgen estate: %v\n", err)
			return exitUsage
		}
	}
	view, err := gen.View(est, ps)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen estate: %v\n", err)
		return exitUsage
	}
	if err := view.Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "mcpgen estate: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func validFormat(f string) bool {
	for _, known := range check.Formats {
		if f == known {
			return true
		}
	}
	return false
}

// report prints an error the way its kind asks and returns the exit status.
func report(err error, format string, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var refused *gen.RefusedError
	if errors.As(err, &refused) {
		refused.Report.Write(stderr, format)
		fmt.Fprintln(stderr, "mcpgen: nothing was written")
		return exitRefused
	}
	var list manifest.List
	if errors.As(err, &list) {
		list.Print(stderr)
		return exitUsage
	}
	fmt.Fprintf(stderr, "mcpgen: %v\n", err)
	return exitUsage
}
