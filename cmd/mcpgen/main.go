// Command mcpgen generates a typed Go package from versioned MCP tool
// manifests, or from Go structs that declare tool versions, and is the
// team's breaking-change gate in CI.
//
//	mcpgen generate -manifests DIR | -source PKG  -out DIR [-package NAME] [-shard-size N] [-waivers FILE]
//	mcpgen check    -manifests DIR | -source PKG  -out DIR [-against REF] [-waivers FILE] [-format F]
//	mcpgen changelog -out DIR -from REF [-to REF] [-format text|markdown|json]
//	mcpgen diff     [-format F] [-fail-on LEVEL] OLD.yaml NEW.yaml
//	mcpgen diff     [-format F] [-fail-on LEVEL] -manifests DIR | -source PKG [-out DIR]  -tool NAME V1 V2
//	mcpgen extract  -source PKG -manifests DIR [-out DIR]
//	mcpgen estate   -manifests DIR | -source PKG [-out DIR]  [-principals FILE] [-format text|markdown|json]
//	mcpgen import   [-check] -manifests DIR [decisions] -file FILE | -url URL [-token-env VAR] | -- COMMAND [ARGS]
//	mcpgen init     [-dir DIR]
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
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/manifest"
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

const usage = `mcpgen turns versioned MCP tool manifests, or Go structs that declare
tool versions, into a typed Go package.

Usage:
  mcpgen generate -manifests DIR | -source PKG  -out DIR [-package NAME] [-shard-size N] [-waivers FILE]
  mcpgen check    -manifests DIR | -source PKG  -out DIR [-against REF] [-waivers FILE] [-format F]
  mcpgen changelog -out DIR -from REF [-to REF] [-format text|markdown|json]
  mcpgen diff     [-format F] [-fail-on LEVEL] OLD.yaml NEW.yaml
  mcpgen diff     [-format F] [-fail-on LEVEL] -manifests DIR | -source PKG [-out DIR]  -tool NAME V1 V2
  mcpgen extract  -source PKG -manifests DIR [-out DIR]
  mcpgen estate   -manifests DIR | -source PKG [-out DIR]  [-principals FILE] [-format text|markdown|json]
  mcpgen import   [-check] -manifests DIR [decisions] -file FILE | -url URL [-token-env VAR] | -- COMMAND [ARGS]
  mcpgen init     [-dir DIR]

F is one of text, json, github, markdown, sarif. check compares with the
estate record in git history (-against REF, or the merge base of HEAD and
the default branch), never with the record the change itself may rewrite.
changelog lists, per tool, the versions added (with their change class and
reasons), promoted, deprecated and retired between two revisions' records.

-source names a Go package (a directory or an import path) whose struct
types carry //mcpgen:tool directives; it takes the place of -manifests.
import brings an existing MCP server's tools over as manifests. init
starts a service in a Go module: a manifest, the go:generate lines, a
main.go and handlers that answer the tool.

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
	case "changelog":
		return changelogCmd(args[1:], stdout, stderr)
	case "estate":
		return estateCmd(args[1:], stdout, stderr)
	case "extract":
		return extractCmd(args[1:], stdout, stderr)
	case "import":
		return importCmd(args[1:], stdout, stderr)
	case "init":
		return initCmd(args[1:], stdout, stderr)
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

// parse parses flags and insists on the required ones. When the command
// is not to run, ok is false and code is its exit status: 0 after -h (help
// was asked for and given), 2 on a usage error.
func parse(fs *flag.FlagSet, args []string, required map[string]*string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		return parseStatus(err), false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, false
	}
	for _, name := range slices.Sorted(maps.Keys(required)) { // one message, the same each run
		if *required[name] == "" {
			fmt.Fprintf(fs.Output(), "%s: -%s is required\n", fs.Name(), name)
			return exitUsage, false
		}
	}
	return exitOK, true
}

// parseStatus is the exit status after a flag parsing error: -h is a
// request, not a mistake.
func parseStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// sourceFlags are -manifests and -source, of which a command reads one.
type sourceFlags struct{ manifests, source *string }

func addSourceFlags(fs *flag.FlagSet) sourceFlags {
	return sourceFlags{
		manifests: fs.String("manifests", "", "directory of tool manifests (and server.yaml)"),
		source:    fs.String("source", "", "instead of -manifests: Go package (directory or import path) whose structs carry //mcpgen:tool directives"),
	}
}

// one insists on exactly one of the two.
func (s sourceFlags) one(fs *flag.FlagSet) bool {
	if (*s.manifests == "") == (*s.source == "") {
		fmt.Fprintf(fs.Output(), "%s: give -manifests or -source (one of them)\n", fs.Name())
		return false
	}
	return true
}

func generate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("generate", stderr)
	src := addSourceFlags(fs)
	out := fs.String("out", "", "directory of the generated package")
	pkg := fs.String("package", "", "Go package name (default: the last element of -out)")
	waivers := fs.String("waivers", "", "YAML file of reviewed waivers, each accepting one finding of the gate (as mcpgen check -waivers)")
	shardSize := fs.Int("shard-size", emit.DefaultShardSize, "most tool versions one Go package holds; a larger estate gets shards under -out/internal")
	if code, ok := parse(fs, args, map[string]*string{"out": out}); !ok {
		return code
	}
	if !src.one(fs) {
		return exitUsage
	}
	if *shardSize < 1 {
		fmt.Fprintf(stderr, "mcpgen generate: -shard-size %d: a package holds at least one tool version\n", *shardSize)
		return exitUsage
	}
	res, err := gen.Generate(gen.Options{Manifests: *src.manifests, Source: *src.source, Out: *out, Package: *pkg, ShardSize: *shardSize, Waivers: *waivers})
	if code := report(err, "text", stdout, stderr); code != exitOK {
		return code
	}
	fmt.Fprintln(stdout, res.Summary())
	return exitOK
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	src := addSourceFlags(fs)
	out := fs.String("out", "", "directory of the previously generated package (its estate record)")
	against := fs.String("against", "", "compare with the estate record at this git revision (default: the merge base of HEAD and the default branch, else HEAD)")
	format := fs.String("format", "text", "output format: "+formatList)
	waivers := fs.String("waivers", "", "YAML file of reviewed waivers, each accepting one finding (rule, tool, path, reason, expires)")
	if code, ok := parse(fs, args, map[string]*string{"out": out}); !ok {
		return code
	}
	if !src.one(fs) {
		return exitUsage
	}
	if !validFormat(*format) {
		fmt.Fprintf(stderr, "mcpgen check: unknown format %q\n", *format)
		return exitUsage
	}
	opts := gen.Options{Manifests: *src.manifests, Source: *src.source, Out: *out, Waivers: *waivers}
	rep, err := gen.Check(opts, *against)
	if err != nil {
		var list manifest.List
		if errors.As(err, &list) {
			return report(err, *format, stdout, stderr)
		}
		fmt.Fprintf(stderr, "mcpgen check: %v\n", err)
		return exitUsage
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

func changelogCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("changelog", stderr)
	out := fs.String("out", "", "directory of the generated package (its estate record)")
	from := fs.String("from", "", "git revision of the earlier estate record (a tag, a branch, a commit)")
	to := fs.String("to", "", "git revision of the later estate record (default: the record in the work tree)")
	format := fs.String("format", "text", "output format: "+strings.Join(check.ChangelogFormats, ", "))
	if code, ok := parse(fs, args, map[string]*string{"out": out, "from": from}); !ok {
		return code
	}
	if !slices.Contains(check.ChangelogFormats, *format) {
		fmt.Fprintf(stderr, "mcpgen changelog: unknown format %q (want one of %s)\n", *format, strings.Join(check.ChangelogFormats, ", "))
		return exitUsage
	}
	cl, err := gen.Changelog(*out, *from, *to)
	if err == nil {
		err = cl.Write(stdout, *format)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen changelog: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func diffCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	format := fs.String("format", "text", "output format: "+formatList)
	failOn := fs.String("fail-on", "none", "exit 1 when a change reaches this level: error (major), warning (minor), info (any), or none")
	src := addSourceFlags(fs)
	out := fs.String("out", "", "with -source: the generated package, whose estate record holds the versions no struct declares any more, and the form of schema each published version keeps")
	tool := fs.String("tool", "", "compare two versions of this tool in -manifests or -source")
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if !validFormat(*format) || fs.NArg() != 2 {
		fmt.Fprintln(stderr, "usage: mcpgen diff [-format F] [-fail-on LEVEL] OLD.yaml NEW.yaml\n       mcpgen diff [-format F] [-fail-on LEVEL] -manifests DIR | -source PKG [-out DIR] -tool NAME V1 V2")
		return exitUsage
	}
	failLevel, err := check.ParseLevel(*failOn)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen diff: -fail-on: %v\n", err)
		return exitUsage
	}
	var old, new *manifest.Version
	if *tool != "" {
		if !src.one(fs) {
			return exitUsage
		}
		est, err := gen.LoadEstate(gen.Options{Manifests: *src.manifests, Source: *src.source, Out: *out})
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
	cmp := check.Compare(old, new)
	if err := cmp.Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "mcpgen diff: %v\n", err)
		return exitUsage
	}
	if cmp.Fails(failLevel) {
		return exitRefused
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
	src := addSourceFlags(fs)
	out := fs.String("out", "", "with -source: the generated package, whose estate record holds the versions no struct declares any more, and the form of schema each published version keeps")
	principals := fs.String("principals", "", "YAML or JSON list of principals (agent, tenant, scopes, clearance): show what each sees")
	format := fs.String("format", "text", "output format: text, markdown or json")
	if code, ok := parse(fs, args, nil); !ok {
		return code
	}
	if !src.one(fs) {
		return exitUsage
	}
	est, err := gen.LoadEstate(gen.Options{Manifests: *src.manifests, Source: *src.source, Out: *out})
	if err != nil {
		return report(err, "text", stdout, stderr)
	}
	var ps []PrincipalFile
	if *principals != "" {
		if ps, err = LoadPrincipals(*principals); err != nil {
			fmt.Fprintf(stderr, "mcpgen estate: %v\n", err)
			return exitUsage
		}
	}
	view, err := View(est, ps)
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

func extractCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("extract", stderr)
	source := fs.String("source", "", "Go package (directory or import path) whose structs carry //mcpgen:tool directives")
	manifests := fs.String("manifests", "", "directory to write the equivalent YAML manifests into")
	out := fs.String("out", "", "the generated package: also write the versions only its estate record holds, so the manifests carry the whole history, and keep each published version's schema in the form it was published in")
	if code, ok := parse(fs, args, map[string]*string{"source": source, "manifests": manifests}); !ok {
		return code
	}
	res, err := gen.Extract(gen.Options{Source: *source, Manifests: *manifests, Out: *out})
	if code := report(err, "text", stdout, stderr); code != exitOK {
		return code
	}
	fmt.Fprintln(stdout, res.SummaryOf(*manifests))
	return exitOK
}

func initCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("init", stderr)
	dir := fs.String("dir", ".", "directory of the service's main package, inside a Go module; it must hold no Go files yet")
	if code, ok := parse(fs, args, nil); !ok {
		return code
	}
	res, err := gen.Init(gen.InitOptions{Dir: *dir})
	if res != nil {
		fmt.Fprintf(stdout, "mcpgen init: service %s: wrote %s\n", res.Name, strings.Join(res.Files, ", "))
		if res.Generated != nil {
			fmt.Fprintln(stdout, res.Generated.Summary())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen init: %v\n", err)
		if res != nil {
			printNext(stdout, res.Next)
		}
		return exitUsage
	}
	printNext(stdout, res.Next)
	return exitOK
}

func printNext(w io.Writer, commands []string) {
	fmt.Fprintln(w, "Next:")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%s\n", c)
	}
}

// formatList names the formats of check and diff for their usage lines.
var formatList = strings.Join(check.Formats, ", ")

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
