// Package gen is mcpgen as a library: Generate turns a directory of tool
// manifests, or a Go package whose structs declare tool versions (package
// gostruct), into a Go package, after the breaking-change gate (package
// check) has accepted the release against the estate record of the
// previous output. cmd/mcpgen is a thin shell over it.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/gostruct"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

// Options say what to generate from where.
type Options struct {
	// Manifests is the directory of tool manifests (and server.yaml).
	Manifests string
	// Source, instead of Manifests, is a Go package (a directory, or an
	// import path) whose struct types declare tool versions with
	// //mcpgen:tool directives (see package gostruct). A version the estate
	// record holds that no struct declares any more stays as recorded, with
	// a generated argument type: history is append-only. One a struct still
	// declares keeps the form of schema it was published in (named types
	// written in full, or as $defs entries).
	Source string
	// Out is the directory of the generated package; it need not exist.
	Out string
	// Package is the Go package name; "" derives it from Out's last
	// element.
	Package string
	// Against, when set, is the estate record to compare with instead of
	// the one in Out (mcpgen check -against reads it from a git revision).
	Against *record.Record
	// Waivers is a waivers file (see check.Waiver) whose waivers accept
	// the findings they name; "" for none. Today dates their expiry (the
	// zero time: now).
	Waivers string
	Today   time.Time
	// ShardSize is the most tool versions one Go package of the output
	// holds; a larger estate is emitted as a root package and shards (see
	// emit.Layout). Zero or less means emit.DefaultShardSize.
	ShardSize int
}

// Result says what a run did.
type Result struct {
	Package   string
	Tools     int
	Versions  int
	Written   []string // files written (names relative to Out)
	Unchanged []string // files already up to date, left untouched
	Removed   []string // generated files of an earlier run no longer generated
	Report    *check.Report
}

// Summary is the one line a generate run ends with.
func (r *Result) Summary() string { return r.SummaryOf("package " + r.Package) }

// SummaryOf is the one line a run ends with, naming what it wrote as what.
func (r *Result) SummaryOf(what string) string {
	line := fmt.Sprintf("mcpgen: %s: %s, %s; %s written, %d unchanged", what,
		count(r.Tools, "tool"), count(r.Versions, "version"), count(len(r.Written), "file"), len(r.Unchanged))
	if len(r.Removed) > 0 {
		line += fmt.Sprintf(", %d removed", len(r.Removed))
	}
	return line
}

// count is check.Count: one helper for every count mcpgen prints.
var count = check.Count

// RefusedError is a release the breaking-change gate refused; nothing was
// written.
type RefusedError struct{ Report *check.Report }

func (e *RefusedError) Error() string {
	return "release refused: " + check.Count(e.Report.Blocking(), "error")
}

// Load reads the manifests (or the Go source) and the record to compare
// with, and runs the gate. It is what Generate and mcpgen check share.
func Load(opts Options) (*manifest.Estate, *check.Report, error) {
	l, err := load(opts, true)
	if err != nil {
		return nil, nil, err
	}
	return l.est, check.Run(l.recorded, l.est), nil
}

// Check is mcpgen check: the gate run against a baseline read from
// history (see record.ResolveBaseline; against names the git revision, ""
// lets it choose), with the estate record the change leaves in Out held
// against that baseline, and opts.Waivers (when named) applied.
// opts.Against is ignored: the baseline takes its place.
func Check(opts Options, against string) (*check.Report, error) {
	ws, err := loadWaivers(opts)
	if err != nil {
		return nil, err
	}
	base, err := record.ResolveBaseline(opts.Out, against)
	if err != nil {
		return nil, err
	}
	opts.Against = base.Record
	_, rep, err := Load(opts)
	if err != nil {
		return nil, err
	}
	rep.Baseline = base
	work, found, err := record.WorkTree(opts.Out)
	if err != nil {
		return nil, err
	}
	if !found {
		work = nil
	}
	rep.Add(check.RecordFindings(base, work, filepath.Join(opts.Out, record.FileName))...)
	rep.ApplyWaivers(ws, today(opts))
	return rep, nil
}

func loadWaivers(opts Options) ([]*check.Waiver, error) {
	if opts.Waivers == "" {
		return nil, nil
	}
	return check.LoadWaivers(opts.Waivers)
}

func today(opts Options) time.Time {
	if opts.Today.IsZero() {
		return time.Now()
	}
	return opts.Today
}

// LoadEstate reads the estate of the manifests, or of the Go source with
// the versions only Out's estate record still holds (when Out is set),
// without running the gate: what mcpgen diff and mcpgen estate read.
func LoadEstate(opts Options) (*manifest.Estate, error) {
	l, err := load(opts, opts.Out != "" || opts.Against != nil)
	if err != nil {
		return nil, err
	}
	return l.est, nil
}

// loaded is what load reads.
type loaded struct {
	est      *manifest.Estate
	recorded []estate.ToolSpec
	// source is the Go package of the structs, nil for manifests.
	source *gostruct.Source
}

// load reads the estate and, when withRecord is set, the record to compare
// with (Against, or Out's), which for a Go source also completes the
// estate with the versions only the record holds, and keeps each version
// the record holds in the form it was published in (see gostruct.Load).
func load(opts Options, withRecord bool) (*loaded, error) {
	var l loaded
	var err error
	switch {
	case opts.Manifests != "" && opts.Source != "":
		return nil, errors.New("name the manifests or the Go source, not both")
	case opts.Manifests != "":
		if l.est, err = manifest.LoadDir(opts.Manifests); err != nil {
			return nil, err
		}
	case opts.Source == "":
		return nil, errors.New("no manifests and no Go source to read")
	}
	if withRecord {
		rec := opts.Against
		if rec == nil {
			if rec, err = record.Load(opts.Out); err != nil {
				return nil, err
			}
		}
		if l.recorded, err = rec.Specs(); err != nil {
			return nil, err
		}
	}
	if opts.Source != "" {
		if l.source, err = gostruct.Load(opts.Source, l.recorded); err != nil {
			return nil, err
		}
		l.est, err = sourceEstate(l.source, l.recorded, filepath.Join(opts.Out, record.FileName))
		if err != nil {
			return nil, err
		}
	}
	return &l, nil
}

// sourceEstate is the estate of a Go source: the versions its structs
// declare, and every recorded version that no struct declares any more,
// as the record (recordFile) has it. A struct that still declares a
// recorded version is compared with the record by the gate like a
// manifest: a published contract does not change.
func sourceEstate(src *gostruct.Source, recorded []estate.ToolSpec, recordFile string) (*manifest.Estate, error) {
	versions := append([]*manifest.Version(nil), src.Versions...)
	for _, spec := range recorded {
		if _, declared := src.Types[spec.Key()]; declared {
			continue
		}
		versions = append(versions, manifest.NewVersion(spec, func(string, ...string) manifest.Pos {
			return manifest.Pos{File: recordFile}
		}))
	}
	return manifest.NewEstate(src.Dir, src.Server, versions)
}

// Generate runs the gate and, when it accepts, writes the package. Files
// whose content is unchanged are not rewritten (the build cache stays
// warm); the others are written atomically, all or none.
func Generate(opts Options) (*Result, error) {
	ws, err := loadWaivers(opts)
	if err != nil {
		return nil, err
	}
	l, err := load(opts, true)
	if err != nil {
		return nil, err
	}
	est, report := l.est, check.Run(l.recorded, l.est)
	report.Command = "generate"
	report.ApplyWaivers(ws, today(opts))
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
	args, err := argsTypes(l.source, opts.Out)
	if err != nil {
		return nil, err
	}
	p, err := ir.BuildWithArgs(pkgName, specs, serverOf(est), args)
	if err != nil {
		return nil, positioned(err, est)
	}
	layout := emit.Layout{ShardSize: opts.ShardSize}
	if layout.Sharded(p.Tools) {
		if layout.ImportPath, err = ImportPath(opts.Out); err != nil {
			return nil, fmt.Errorf("%d tool versions are emitted as a package with shards, which it imports by its import path: %w", len(specs), err)
		}
	}
	files, err := emit.Package(p, layout)
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

// Extract writes the YAML manifests that state what a Go source states
// (opts.Source) into the directory opts.Manifests: one manifest per tool,
// NAME.yaml, and the server file beside the structs, if any. With opts.Out
// set, the versions only Out's estate record still holds are written too,
// so that the manifests carry the whole history, as manifests must, and
// each version the record holds keeps the form of schema it was published
// in. Generating from the manifests gives the same schemas and hashes as
// generating from the structs. Files are written as Generate writes them:
// unchanged ones are left alone, the others replaced all or none.
func Extract(opts Options) (*Result, error) {
	dir := opts.Manifests
	if dir == "" || opts.Source == "" {
		return nil, errors.New("extract needs the Go source and the manifests directory to write")
	}
	opts.Manifests = ""
	l, err := load(opts, opts.Out != "")
	if err != nil {
		return nil, err
	}
	res := &Result{Tools: len(l.est.Tools), Report: &check.Report{}}
	var files []emit.File
	for _, t := range l.est.Tools {
		res.Versions += len(t.Versions)
		data, err := gostruct.ManifestYAML(t, "Extracted by mcpgen from the Go package "+l.source.PkgPath+".")
		if err != nil {
			return nil, err
		}
		files = append(files, emit.File{Name: t.Name + ".yaml", Data: data})
	}
	if srv := l.est.Server; srv != nil {
		data, err := os.ReadFile(srv.File)
		if err != nil {
			return nil, err
		}
		files = append(files, emit.File{Name: filepath.Base(srv.File), Data: data})
	}
	if err := writeAll(dir, files, res); err != nil {
		return nil, err
	}
	return res, nil
}

// argsTypes maps each version a struct of src declares to that struct, the
// argument type of the generated handler and client.
func argsTypes(src *gostruct.Source, out string) (map[string]ir.External, error) {
	if src == nil {
		return nil, nil
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	if absOut == src.PkgDir {
		return nil, fmt.Errorf("-out %s is the package of the structs: generate into a package of its own (it imports the structs' package)", out)
	}
	args := map[string]ir.External{}
	for key, name := range src.Types {
		args[key] = ir.External{Path: src.PkgPath, Package: src.PkgName, Name: name, Value: src.Values[key]}
	}
	return args, nil
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

// rename is os.Rename, for writeAll's renames and their rollback; a test
// replaces it to make a rename fail half way through a write.
var rename = os.Rename

// writeAll writes files into dir (a file's name may have a directory, a
// shard's) atomically: every changed file is first written to a temporary
// file beside its target, and only when all are written are they renamed
// into place. A generated file of an earlier run that this run does not
// write (a shard the estate no longer needs) is removed in the same step.
// A failure removes the temporary files and the directories this run made,
// and puts back every file already replaced or removed, so that the
// previous output is as it was; should that fail too, the error says so,
// with what could not be undone.
func writeAll(dir string, files []emit.File, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	stale, err := staleFiles(dir, files)
	if err != nil {
		return err
	}
	type pending struct{ tmp, final, name string }
	type moved struct{ backup, final string }
	var (
		todo     []pending
		madeDirs []string
		renamed  int      // todo[:renamed] are in place
		done     []moved  // files moved aside, to put back
		created  []string // files that did not exist before this run
	)
	// fail undoes what this run did, newest first, and returns err with
	// whatever could not be undone.
	fail := func(err error) error {
		var undo []error
		remove := func(name string) {
			if e := os.Remove(name); e != nil && !errors.Is(e, fs.ErrNotExist) {
				undo = append(undo, e)
			}
		}
		for _, p := range todo[renamed:] {
			remove(p.tmp)
		}
		for _, f := range created {
			remove(f)
		}
		for i := len(done) - 1; i >= 0; i-- {
			if e := rename(done[i].backup, done[i].final); e != nil {
				undo = append(undo, e)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			remove(madeDirs[i])
		}
		if len(undo) > 0 {
			return fmt.Errorf("%w; restoring the previous output of %s failed too, it may hold a mix of both runs: %w", err, dir, errors.Join(undo...))
		}
		return err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		final := filepath.Join(dir, filepath.FromSlash(f.Name))
		if st, err := os.Lstat(final); err == nil && st.IsDir() {
			return fail(fmt.Errorf("%s is a directory; the generator writes a file there", final))
		}
		if old, err := os.ReadFile(final); err == nil && bytes.Equal(old, f.Data) {
			res.Unchanged = append(res.Unchanged, f.Name)
			continue
		}
		made, err := mkdirs(filepath.Dir(final))
		madeDirs = append(madeDirs, made...)
		if err != nil {
			return fail(err)
		}
		tmp, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp*")
		if err != nil {
			return fail(err)
		}
		todo = append(todo, pending{tmp.Name(), final, f.Name})
		if _, err := tmp.Write(f.Data); err != nil {
			tmp.Close()
			return fail(err)
		}
		if err := tmp.Close(); err != nil {
			return fail(err)
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			return fail(err)
		}
	}
	// The record goes last: were a rename to fail half way, the record
	// must never claim versions the Go files do not yet hold. Every file
	// replaced or removed is first moved aside, so a failure puts the old
	// ones back.
	slices.SortStableFunc(todo, func(a, b pending) int {
		return cmpBool(a.name == record.FileName, b.name == record.FileName)
	})
	for _, final := range stale {
		backup := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".old")
		if err := rename(final, backup); err != nil {
			return fail(err)
		}
		done = append(done, moved{backup, final})
	}
	for _, p := range todo {
		existed := false
		if _, err := os.Lstat(p.final); err == nil {
			existed = true
			backup := p.tmp + ".old"
			if err := rename(p.final, backup); err != nil {
				return fail(err)
			}
			done = append(done, moved{backup, p.final})
		}
		if err := rename(p.tmp, p.final); err != nil {
			return fail(err)
		}
		renamed++
		if !existed {
			created = append(created, p.final)
		}
	}
	for _, m := range done {
		os.Remove(m.backup)
	}
	for _, p := range todo {
		res.Written = append(res.Written, p.name)
	}
	for _, final := range stale {
		rel, _ := filepath.Rel(dir, final)
		res.Removed = append(res.Removed, filepath.ToSlash(rel))
		if shardDir := filepath.Dir(final); shardDir != dir {
			// A shard's directory goes with its last file, and internal
			// with its last shard; os.Remove leaves a directory that
			// still holds anything.
			os.Remove(shardDir)
			os.Remove(filepath.Dir(shardDir))
		}
	}
	sort.Strings(res.Written)
	sort.Strings(res.Removed)
	return nil
}

// staleFiles lists the generated files in dir and in its shards'
// directories (internal/shard*) that files does not hold: those mcpgen
// wrote in an earlier run (named *.gen.go and starting with the generated
// header) and this run would leave behind. Other files are never touched.
func staleFiles(dir string, files []emit.File) ([]string, error) {
	keep := map[string]bool{}
	for _, f := range files {
		keep[filepath.Join(dir, filepath.FromSlash(f.Name))] = true
	}
	shardDirs, err := filepath.Glob(filepath.Join(dir, "internal", "shard*"))
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, d := range append([]string{dir}, shardDirs...) {
		names, err := filepath.Glob(filepath.Join(d, "*.gen.go"))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if keep[name] {
				continue
			}
			generated, err := hasGeneratedHeader(name)
			if err != nil {
				return nil, err
			}
			if generated {
				stale = append(stale, name)
			}
		}
	}
	return stale, nil
}

// hasGeneratedHeader reports whether the file name starts with the line
// mcpgen begins every generated Go file with.
func hasGeneratedHeader(name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	header := "// " + emit.Header + "\n"
	buf := make([]byte, len(header))
	n, _ := io.ReadFull(f, buf)
	return string(buf[:n]) == header, nil
}

// mkdirs creates dir and the directories above it that do not exist, and
// returns those it created, outermost first, for a rollback to remove.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil {
			return made, err
		}
		made = append(made, missing[i])
	}
	return made, nil
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// serverOf converts server.yaml's description for the IR.
func serverOf(est *manifest.Estate) ir.Server {
	var s ir.Server
	if est.Server == nil {
		return s
	}
	s.Name, s.Version = est.Server.Name, est.Server.Version
	for _, r := range est.Server.Resources {
		s.Resources = append(s.Resources, ir.Resource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Text: r.Text, Tenants: r.Tenants})
	}
	for _, p := range est.Server.Prompts {
		mp := ir.Prompt{Name: p.Name, Description: p.Description, Template: p.Template}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, ir.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		s.Prompts = append(s.Prompts, mp)
	}
	return s
}
