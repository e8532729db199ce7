// Package record is the estate record a generated package carries: every
// tool version it was generated from, with its whole contract and schema
// hashes. The record is "the previously generated version" the next
// generate or check compares against (docs/concepts.md#the-estate): a published version's
// contract may never change, and history is append-only.
//
// The record is a JSON file (FileName) written beside the generated Go
// files and embedded into the package, so a CI job can read it from a
// checkout or from any git revision without building anything.
package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// FileName is the record's file name in a generated package.
const FileName = "mcpgen.estate.json"

// Format is the version of the record's layout.
const Format = 1

// Record is the estate as generated.
type Record struct {
	Format    int     `json:"format"`
	Generator string  `json:"generator"`
	Tools     []Entry `json:"tools"` // sorted by name, then version
}

// Entry is one tool version. Every field but Lifecycle and SupersededBy is
// the immutable contract.
type Entry struct {
	Name string `json:"name"`
	// WireName is the name the tool is published under when it is not
	// Name (see estate.ToolSpec.WireName).
	WireName           string         `json:"wireName,omitempty"`
	Version            string         `json:"version"`
	Title              string         `json:"title"`
	Description        string         `json:"description"`
	SideEffect         string         `json:"sideEffect"`
	RequiredScopes     []string       `json:"requiredScopes"`
	DataClassification string         `json:"dataClassification"`
	Owner              string         `json:"owner"`
	Tenants            []string       `json:"tenants"`
	Lifecycle          string         `json:"lifecycle"`
	SupersededBy       string         `json:"supersededBy,omitempty"`
	InputSchema        map[string]any `json:"inputSchema"`
	InputSchemaHash    string         `json:"inputSchemaHash"`
	OutputSchema       map[string]any `json:"outputSchema,omitempty"`
	OutputSchemaHash   string         `json:"outputSchemaHash,omitempty"`
	// FormatAnnotations are the formats the schemas serve without
	// asserting them, which the manifest listed (see schema.Options).
	FormatAnnotations []string `json:"formatAnnotations,omitempty"`
}

// Key is "name@version".
func (e Entry) Key() string { return e.Name + "@" + e.Version }

// FromSpecs records specs.
func FromSpecs(specs []estate.ToolSpec) *Record {
	r := &Record{Format: Format, Generator: "mcpgen"}
	for _, s := range specs {
		e := Entry{
			Name: s.Name, WireName: s.WireName, Version: s.Version.String(), Title: s.Title, Description: s.Description,
			SideEffect: string(s.SideEffect), RequiredScopes: nonNil(s.RequiredScopes),
			DataClassification: string(s.DataClassification), Owner: s.Owner, Tenants: nonNil(s.Tenants),
			Lifecycle: string(s.Lifecycle.OrActive()), SupersededBy: s.SupersededBy,
			InputSchema: s.InputSchema.Document(), InputSchemaHash: s.InputSchema.Hash(),
		}
		e.FormatAnnotations = s.InputSchema.AnnotationFormats()
		if s.OutputSchema != nil {
			e.OutputSchema, e.OutputSchemaHash = s.OutputSchema.Document(), s.OutputSchema.Hash()
			for _, f := range s.OutputSchema.AnnotationFormats() {
				if !slices.Contains(e.FormatAnnotations, f) {
					e.FormatAnnotations = append(e.FormatAnnotations, f)
				}
			}
			slices.Sort(e.FormatAnnotations)
		}
		r.Tools = append(r.Tools, e)
	}
	r.sort()
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (r *Record) sort() {
	slices.SortFunc(r.Tools, func(a, b Entry) int {
		if a.Name != b.Name {
			if a.Name < b.Name {
				return -1
			}
			return 1
		}
		va, errA := estate.ParseVersion(a.Version)
		vb, errB := estate.ParseVersion(b.Version)
		if errA != nil || errB != nil {
			if a.Version < b.Version {
				return -1
			}
			return 1
		}
		return va.Compare(vb)
	})
}

// Marshal renders the record: indented, keys sorted, no HTML escaping, a
// final newline. The same record always renders to the same bytes.
func (r *Record) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Parse reads a record.
func Parse(data []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("estate record: %w", err)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("estate record: format %d, this mcpgen reads format %d", r.Format, Format)
	}
	r.sort()
	return &r, nil
}

// Load reads the record in dir. A directory without one (nothing generated
// yet) is the empty record, not an error.
func Load(dir string) (*Record, error) {
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return &Record{Format: Format, Generator: "mcpgen"}, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, FileName), err)
	}
	return r, nil
}

// Specs converts the record back to tool specs (schemas parsed).
func (r *Record) Specs() ([]estate.ToolSpec, error) {
	out := make([]estate.ToolSpec, 0, len(r.Tools))
	for _, e := range r.Tools {
		s, err := e.Spec()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Spec converts one entry.
func (e Entry) Spec() (estate.ToolSpec, error) {
	fail := func(err error) (estate.ToolSpec, error) {
		return estate.ToolSpec{}, fmt.Errorf("estate record: %s: %w", e.Key(), err)
	}
	v, err := estate.ParseVersion(e.Version)
	if err != nil {
		return fail(err)
	}
	in, err := schema.ParseWith(e.InputSchema, schema.Options{AnnotationFormats: e.FormatAnnotations})
	if err != nil {
		return fail(err)
	}
	s := estate.ToolSpec{
		Name: e.Name, WireName: e.WireName, Version: v, Title: e.Title, Description: e.Description,
		SideEffect: estate.SideEffect(e.SideEffect), RequiredScopes: e.RequiredScopes,
		DataClassification: estate.Classification(e.DataClassification), Owner: e.Owner,
		Tenants: e.Tenants, Lifecycle: estate.Lifecycle(e.Lifecycle), SupersededBy: e.SupersededBy,
		InputSchema: in,
	}
	if e.OutputSchema != nil {
		out, err := schema.ParseWith(e.OutputSchema, schema.Options{AnnotationFormats: e.FormatAnnotations})
		if err != nil {
			return fail(err)
		}
		s.OutputSchema = out
	}
	return s, nil
}

// ContractChanges lists the contract fields in which b differs from a
// (lifecycle and supersededBy are not contract). Schemas compare as JSON
// documents, so a schema written differently but equal is no change.
func ContractChanges(a, b estate.ToolSpec) []string {
	var out []string
	if a.WireName != b.WireName {
		out = append(out, "wireName")
	}
	if a.Title != b.Title {
		out = append(out, "title")
	}
	if a.Description != b.Description {
		out = append(out, "description")
	}
	if a.SideEffect != b.SideEffect {
		out = append(out, "sideEffect")
	}
	if !sameSet(a.RequiredScopes, b.RequiredScopes) {
		out = append(out, "requiredScopes")
	}
	if a.DataClassification != b.DataClassification {
		out = append(out, "dataClassification")
	}
	if a.Owner != b.Owner {
		out = append(out, "owner")
	}
	if !sameSet(a.Tenants, b.Tenants) {
		out = append(out, "tenants")
	}
	if !schemaEqual(a.InputSchema, b.InputSchema) {
		out = append(out, "inputSchema")
	}
	if !schemaEqual(a.OutputSchema, b.OutputSchema) {
		out = append(out, "outputSchema")
	}
	return out
}

// sameSet compares scope and tenant lists as sets: their order carries no
// meaning.
func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

func schemaEqual(a, b *schema.Schema) bool {
	if a == nil || b == nil {
		return a == b
	}
	return schema.Equal(a.Document(), b.Document())
}

// LoadGit reads the record of the package in dir as it stands at the git
// revision ref (a branch, a tag, a commit): what mcpgen check -against
// compares with, so a CI job checks a pull request against its base. A
// revision at which the package had no record yet is the empty record.
func LoadGit(dir, ref string) (*Record, error) {
	repo, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	if !repo.has(ref) {
		return nil, fmt.Errorf("git revision %q not found", ref)
	}
	r, _, err := repo.record(ref)
	return r, err
}

// repo is the git work tree a package directory lies in.
type repo struct {
	root string // the work tree's top directory
	rel  string // the package directory, relative to root, slash-separated
}

// openRepo finds the git work tree of dir. The directory need not exist
// (a first generate has not written it): git is asked from the nearest
// existing parent.
func openRepo(dir string) (*repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	base := abs
	for {
		if st, err := os.Stat(base); err == nil && st.IsDir() {
			break
		}
		parent := filepath.Dir(base)
		if parent == base {
			break
		}
		base = parent
	}
	top, err := gitOutput(base, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	root := strings.TrimSpace(string(top))
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else if realBase, err := filepath.EvalSymlinks(base); err == nil {
		rest, _ := filepath.Rel(base, abs)
		abs = filepath.Join(realBase, rest)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s is not inside the git work tree %s", dir, root)
	}
	return &repo{root: root, rel: filepath.ToSlash(rel)}, nil
}

// has reports whether rev names a commit this clone holds.
func (g *repo) has(rev string) bool {
	_, err := gitOutput(g.root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	return err == nil
}

// commit is the full hash of rev.
func (g *repo) commit(rev string) (string, error) {
	out, err := gitOutput(g.root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	return strings.TrimSpace(string(out)), err
}

// shallow reports whether the clone lacks part of its history.
func (g *repo) shallow() bool {
	out, err := gitOutput(g.root, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// record reads the package's record at rev; found is false when the
// package had no record at that revision.
func (g *repo) record(rev string) (r *Record, found bool, err error) {
	spec := rev + ":" + pathJoin(g.rel, FileName)
	data, err := gitOutput(g.root, "show", spec)
	if err != nil {
		// The revision exists; the file does not (yet) at it.
		return &Record{Format: Format, Generator: "mcpgen"}, false, nil
	}
	if r, err = Parse(data); err != nil {
		return nil, true, fmt.Errorf("%s: %w", spec, err)
	}
	return r, true, nil
}

// defaultBranch is the branch a change is merged into: the base branch of
// a GitHub pull request when the job says so, then what origin/HEAD names,
// then the usual names. "" when none is found.
func (g *repo) defaultBranch() string {
	if b := os.Getenv("GITHUB_BASE_REF"); b != "" && g.has("origin/"+b) {
		return "origin/" + b
	}
	if out, err := gitOutput(g.root, "symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if b := strings.TrimSpace(string(out)); b != "" && g.has(b) {
			return b
		}
	}
	for _, b := range []string{"main", "master", "origin/main", "origin/master"} {
		if g.has(b) {
			return b
		}
	}
	return ""
}

func gitOutput(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
