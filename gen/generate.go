// Package gen is mcpgen as a library: Generate turns a directory of tool
// manifests into a Go package, after the breaking-change gate (package
// check) has accepted the release against the estate record of the
// previous output. cmd/mcpgen is a thin shell over it.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// Options say what to generate from where.
type Options struct {
	// Manifests is the directory of tool manifests (and server.yaml).
	Manifests string
	// Out is the directory of the generated package; it need not exist.
	Out string
	// Package is the Go package name; "" derives it from Out's last
	// element.
	Package string
	// Against, when set, is the estate record to compare with instead of
	// the one in Out (mcpgen check -against reads it from a git revision).
	Against *record.Record
}

// Result says what a run did.
type Result struct {
	Package   string
	Tools     int
	Versions  int
	Written   []string // files written (names relative to Out)
	Unchanged []string // files already up to date, left untouched
	Report    *check.Report
}

// Summary is the one line a run ends with.
func (r *Result) Summary() string {
	return fmt.Sprintf("mcpgen: package %s: %d tools, %d versions; %d files written, %d unchanged",
		r.Package, r.Tools, r.Versions, len(r.Written), len(r.Unchanged))
}

// RefusedError is a release the breaking-change gate refused; nothing was
// written.
type RefusedError struct{ Report *check.Report }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("release refused: %d reasons", len(e.Report.Findings))
}

// Load reads the manifests and the record to compare with, and runs the
// gate. It is what Generate and mcpgen check share.
func Load(opts Options) (*manifest.Estate, *check.Report, error) {
	est, err := manifest.LoadDir(opts.Manifests)
	if err != nil {
		return nil, nil, err
	}
	rec := opts.Against
	if rec == nil {
		if rec, err = record.Load(opts.Out); err != nil {
			return nil, nil, err
		}
	}
	recorded, err := rec.Specs()
	if err != nil {
		return nil, nil, err
	}
	return est, check.Run(recorded, est), nil
}

// Generate runs the gate and, when it accepts, writes the package. Files
// whose content is unchanged are not rewritten (the build cache stays
// warm); the others are written atomically, all or none.
func Generate(opts Options) (*Result, error) {
	est, report, err := Load(opts)
	if err != nil {
		return nil, err
	}
	if !report.OK() {
		return nil, &RefusedError{Report: report}
	}
	pkgName := opts.Package
	if pkgName == "" {
		pkgName = PackageName(opts.Out)
	}
	if !token.IsIdentifier(pkgName) {
		return nil, fmt.Errorf("package name %q is not a Go identifier", pkgName)
	}
	specs := est.Specs()
	p, err := ir.Build(pkgName, specs, serverOf(est))
	if err != nil {
		return nil, positioned(err, est)
	}
	files, err := emit.Package(p)
	if err != nil {
		return nil, err
	}
	rec, err := record.FromSpecs(specs).Marshal()
	if err != nil {
		return nil, err
	}
	files = append(files, emit.File{Name: record.FileName, Data: rec})
	res := &Result{Package: pkgName, Tools: len(est.Tools), Versions: len(specs), Report: report}
	if err := writeAll(opts.Out, files, res); err != nil {
		return nil, err
	}
	return res, nil
}

// PackageName derives a package name from a directory: its last element,
// lower-cased, without anything that cannot be in an identifier.
func PackageName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || !unicode.IsLetter([]rune(name)[0]) {
		name = "tools" + name
	}
	return name
}

// positioned turns the IR's naming errors into manifest errors with
// file:line:col.
func positioned(err error, est *manifest.Estate) error {
	var names ir.Errors
	if !errors.As(err, &names) {
		return err
	}
	byKey := map[string]*manifest.Version{}
	for _, t := range est.Tools {
		for _, v := range t.Versions {
			byKey[v.Key()] = v
		}
	}
	var list manifest.List
	for _, ne := range names {
		pos := manifest.Pos{File: est.Dir}
		if v := byKey[ne.Key]; v != nil {
			pos = v.Pos(ne.Field, ne.Path...)
		}
		list = append(list, &manifest.Error{Pos: pos, Msg: ne.Msg})
	}
	return list
}

// writeAll writes files into dir atomically: every changed file is first
// written to a temporary file beside its target, and only when all are
// written are they renamed into place. A failure removes the temporary
// files and leaves the previous output as it was.
func writeAll(dir string, files []emit.File, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type pending struct{ tmp, final, name string }
	var todo []pending
	cleanup := func() {
		for _, p := range todo {
			os.Remove(p.tmp)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		final := filepath.Join(dir, f.Name)
		if old, err := os.ReadFile(final); err == nil && bytes.Equal(old, f.Data) {
			res.Unchanged = append(res.Unchanged, f.Name)
			continue
		}
		tmp, err := os.CreateTemp(dir, "."+f.Name+".tmp*")
		if err != nil {
			cleanup()
			return err
		}
		todo = append(todo, pending{tmp.Name(), final, f.Name})
		if _, err := tmp.Write(f.Data); err != nil {
			tmp.Close()
			cleanup()
			return err
		}
		if err := tmp.Close(); err != nil {
			cleanup()
			return err
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			cleanup()
			return err
		}
	}
	for i, p := range todo {
		if err := os.Rename(p.tmp, p.final); err != nil {
			for _, rest := range todo[i:] {
				os.Remove(rest.tmp)
			}
			return err
		}
		res.Written = append(res.Written, p.name)
	}
	return nil
}

// serverOf converts server.yaml's description for the IR.
func serverOf(est *manifest.Estate) ir.Server {
	var s ir.Server
	if est.Server == nil {
		return s
	}
	s.Name, s.Version = est.Server.Name, est.Server.Version
	for _, r := range est.Server.Resources {
		s.Resources = append(s.Resources, mcp.Resource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Text: r.Text, Tenants: r.Tenants})
	}
	for _, p := range est.Server.Prompts {
		mp := mcp.Prompt{Name: p.Name, Description: p.Description, Template: p.Template}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		s.Prompts = append(s.Prompts, mp)
	}
	return s
}
