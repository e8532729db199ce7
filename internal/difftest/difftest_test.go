package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/gen/record"
	"github.com/mcpgen/mcpgen/internal/difftest/specs"
	"github.com/mcpgen/mcpgen/internal/gentest"
	corpus "github.com/mcpgen/mcpgen/internal/schemacorpus"
	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/optional"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// version is one generated tool version as the tests call it (the table of
// them, versions, is generated: see specs.TableFile).
type version struct {
	name, version string
	// decode is the generated Decode function, its typed value as an any.
	decode func(data []byte) (any, schema.Errors, error)
	// dropped is the same reading into a value that is dropped
	// (decode.Checker): the errors, or one at "$" for text that is not
	// JSON.
	dropped func(data json.RawMessage) schema.Errors
	// output is the generated Decode function of the version's output
	// type, its value as the Appender it is; nil for a version without
	// an output schema.
	output func(data []byte) (encode.Appender, schema.Errors, error)
}

// checkDropped fails t unless reading data into a value that is dropped
// finds errs, the Decode function's errors, and leaves data as it was
// (its strings are data's own bytes; a path may be written over a copy).
func (s subject) checkDropped(t *testing.T, data []byte, errs schema.Errors) {
	t.Helper()
	was := string(data)
	if got := s.dropped(data); !slices.Equal(got, errs) {
		t.Fatalf("%s on %q:\nread into a dropped value: %q\nDecode: %q", s.key(), was, got.Strings(), errs.Strings())
	}
	if string(data) != was {
		t.Fatalf("%s: a reading into a dropped value changed its input %q to %q", s.key(), was, data)
	}
}

// key is the version's name@version.
func (v version) key() string { return v.name + "@" + v.version }

// repair is the generated repair of the version's arguments.
func (v version) repair(data []byte, defaults map[string]any) ([]byte, schema.Errors, error) {
	return RepairArguments(v.name, v.version, data, defaults)
}

// typed gives a generated Decode function the one signature the table holds.
func typed[T any](decode func([]byte) (T, schema.Errors, error)) func([]byte) (any, schema.Errors, error) {
	return func(data []byte) (any, schema.Errors, error) { return decode(data) }
}

// appending gives an output type's generated Decode function the one
// signature the table holds.
func appending[T encode.Appender](decode func([]byte) (T, schema.Errors, error)) func([]byte) (encode.Appender, schema.Errors, error) {
	return func(data []byte) (encode.Appender, schema.Errors, error) { return decode(data) }
}

// loadSet reads what the package was generated from, once.
var loadSet = sync.OnceValues(func() (*specs.Set, error) { return specs.Load(specs.ManifestDir) })

// subject is a generated version with what it was generated from.
type subject struct {
	version
	spec estate.ToolSpec
	ir   *ir.Version
	// tool is set for a version made of a corpus schema.
	tool *specs.CorpusTool
}

// subjects pairs every entry of the generated table with its spec and IR,
// and checks that the table, the specs and the generated Specs() list the
// same versions with the same schemas.
func subjects(t testing.TB) []subject {
	t.Helper()
	set, err := loadSet()
	if err != nil {
		t.Fatalf("loading the sources: %v", err)
	}
	specByKey := map[string]estate.ToolSpec{}
	for _, s := range set.Specs {
		specByKey[s.Key()] = s
	}
	irByKey := map[string]*ir.Version{}
	for _, tool := range set.Package.Tools {
		for _, v := range tool.Versions {
			irByKey[v.Spec.Key()] = v
		}
	}
	embedded := Specs()
	if len(versions) != len(set.Specs) || len(embedded) != len(set.Specs) {
		t.Fatalf("%d versions in the table, %d generated specs, %d sources: regenerate (go generate)",
			len(versions), len(embedded), len(set.Specs))
	}
	out := make([]subject, len(versions))
	for i, v := range versions {
		spec, ok := specByKey[v.key()]
		if !ok {
			t.Fatalf("the table lists %s, which is not among the sources: regenerate", v.key())
		}
		if got := embedded[i]; got.Key() != v.key() || got.InputSchema.Hash() != spec.InputSchema.Hash() {
			t.Fatalf("generated spec %d is %s with hash %s; the source %s hashes %s: regenerate",
				i, got.Key(), got.InputSchema.Hash(), v.key(), spec.InputSchema.Hash())
		}
		out[i] = subject{version: v, spec: spec, ir: irByKey[v.key()]}
		if tool, ok := set.Corpus[v.key()]; ok {
			out[i].tool = &tool
		}
	}
	return out
}

// TestGeneratedIsUpToDate renders the package again, twice, from freshly
// loaded sources, and requires both renderings to be byte for byte the
// committed files: generation is deterministic, and the committed output is
// what the current generator makes of the current manifests and corpus. Run
// go generate in this directory after changing either.
func TestGeneratedIsUpToDate(t *testing.T) {
	render := func() []string {
		set, err := specs.Load(specs.ManifestDir)
		if err != nil {
			t.Fatalf("loading the sources: %v", err)
		}
		files, err := set.Files()
		if err != nil {
			t.Fatalf("rendering: %v", err)
		}
		var names []string
		for _, f := range files {
			names = append(names, f.Name)
			committed, err := os.ReadFile(f.Name)
			if err != nil {
				t.Errorf("%s: %v (run go generate)", f.Name, err)
				continue
			}
			if !bytes.Equal(committed, f.Data) {
				t.Errorf("%s differs from what the generator writes now, at %s (run go generate)", f.Name, firstDifference(committed, f.Data))
			}
		}
		return names
	}
	first, second := render(), render()
	if !slices.Equal(first, second) {
		t.Errorf("two renderings give different files: %q and %q", first, second)
	}
	// A file the generator no longer writes would still be compiled in.
	onDisk, err := filepath.Glob("*.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	onDisk = append(onDisk, specs.TableFile, record.FileName)
	for _, name := range onDisk {
		if !slices.Contains(first, name) {
			t.Errorf("%s is not written by the generator any more: delete it", name)
		}
	}
}

// firstDifference locates the first differing line of two files.
func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  committed: %s\n  generated: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("the end (%d lines committed, %d generated)", len(la), len(lb))
}

// sampleExamples are the argument objects of the worked session, for every
// version of the sample estate: the traced call and its repair, the release call, the 2.0.0
// lookup, and the usual mistakes.
var sampleExamples = []string{
	`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`,
	`{"reference": "PMT771", "include_legs": "yes"}`,
	`{"reference": "PMT-771", "include_legs": true}`,
	`{"reference": "PMT-771"}`,
	`{"reference": "PMT-771", "as_of": "2026-03-12"}`,
	`{"reference": "PMT-771", "include_legs": "TRUE", "as_of": 20260312}`,
	`{"reference": "PMT-771", "amount_minor": 1, "currency": "AED"}`,
	`{"reference": "PMT-771", "amount_minor": "250000", "currency": "GBP"}`,
	`{"reference": 771, "amount_minor": 5.0, "currency": "EUR", "note": null}`,
	`{"reference": "PMT-771", "amount_minor": 0, "currency": "USD"}`,
	`{"reference": "PMT-771", "amount_minor": 9223372036854775808, "currency": "USD"}`,
	`{"customer_id": "C-1", "note": "called about the hold"}`,
	`{"customer_id": 1, "note": ["x"], "extra": {}}`,
	`{}`,
	`[]`,
	`"PMT-771"`,
	`null`,
}

// edgeExamples are inputs for the edge schemas (specs.EdgeSchemas), by
// tool name: where Go values and JSON values part ways.
var edgeExamples = map[string][]string{
	"edge.unique": {
		`{"ints": [5, 5.0]}`, `{"ints": ["a", "b"]}`, `{"ints": [1, 2, 1]}`, `{"ints": [0, "0"]}`,
		`{"ints": [9223372036854775808, 9223372036854775808.0]}`, `{"ints": [9223372036854775807, 9223372036854775806]}`,
		`{"nums": [9007199254740993, 9007199254740992]}`, `{"nums": [9007199254740993, 9007199254740993.0]}`,
		`{"nums": [1, 1.0, 1e0]}`, `{"nums": [0.1, 0.10]}`, `{"nums": [1e400, 1e400]}`, `{"nums": [-0, 0.0]}`,
		`{"strs": [1, 2]}`, `{"strs": ["abcd", "abcd"]}`, `{"strs": ["", null]}`, `{"strs": ["é", "e\u0301"]}`,
		`{"bools": [true, "x", "y"]}`, `{"bools": [true, false, true]}`, `{"bools": [false, 0]}`,
		`{"enums": ["c", "c"]}`, `{"enums": ["a", "b", "a"]}`, `{"anys": [1, "1", 1.0]}`, `{"objs": [{"a": 1}, {"a": 1.0}]}`,
	},
	"edge.numbers": {
		`{"big": 9223372036854775807}`, `{"big": 9223372036854775296}`, `{"big": 9223372036854775295}`,
		`{"big": 1}`, `{"big": 2}`, `{"big": 1.0}`, `{"huge": 123456789012345678901234567890}`,
		`{"frac": 100}`, `{"frac": 0}`, `{"frac": -0}`, `{"frac": 3}`, `{"frac": 2}`,
		`{"num": 1.0}`, `{"num": 1e300}`, `{"num": 1E+300}`, `{"num": 2.50}`, `{"num": 2.4999999999999999999}`,
		`{"iconst": 5}`, `{"iconst": -1}`, `{"iconst": 5.0}`, `{"nconst": 0.1}`, `{"nconst": 0.10000000000000001}`,
		`{"bconst": false}`, `{"bconst": true}`, `{"benum": true}`, `{"sconst": "y"}`, `{"sconst": "x"}`,
		`{"snum": "a"}`, `{"snum": "b"}`, `{"snum": 1}`, `{"nstr": 1}`, `{"nstr": null}`,
		`{"bounds": -9223372036854775808}`, `{"bounds": 9223372036854775807}`, `{"bounds": 9223372036854775806}`,
		`{"fbounds": 0}`, `{"fbounds": 0.30000000000000004}`, `{"fbounds": 0.3}`, `{"fbounds": 1e-400}`,
	},
	"edge.exact": {
		`{"int": 9007199254740993}`, `{"int": 9007199254740992}`, `{"int": 9007199254740994}`,
		`{"num": 9007199254740993}`, `{"num": 9007199254740992}`, `{"any": 9007199254740993}`, `{"any": 9007199254740992}`,
	},
	"edge.unions": {
		`{"method": {"kind": "card", "last4": "1234"}, "note": null, "when": "2026-02-28", "amount": {"amount": 19.99, "currency": "EUR"}}`,
		`{"method": {"last4": "1234", "kind": "card"}, "note": "hello", "when": null, "size": 3, "tree": {"name": "a", "children": [{"name": "b", "children": []}]}}`,
		`{"method": {"last4": "12", "kind": "card", "x": 1}, "note": "too long", "when": "2026-02-30", "id": "not-a-uuid"}`,
		`{"method": {"kind": "iban", "iban": "DE89370400440532013000"}, "size": "small", "limits": {"day": {"amount": 100, "currency": "EUR"}}}`,
		`{"method": {"kind": "cash"}, "size": "medium", "limits": {"a": {"amount": 0.001, "currency": "eur"}, "b": {}, "c": 1}}`,
		`{"method": {"iban": "x"}, "note": 5, "when": 20260101, "size": 0.5, "amount": {"amount": -1}}`,
		`{"method": "card", "tree": {"children": [{"name": 1}, {"name": "c", "children": [{}, {}, {}, {}]}]}}`,
		`{"both": {"a": 1, "b": true}, "pair": ["x", 1]}`, `{"both": {"b": "no"}, "pair": ["x", 1, 2]}`, `{"pair": [1, "x"]}`,
		`{"first": "a"}`, `{"first": "a", "second": "b"}`, `{}`, `{"id": "123e4567-e89b-12d3-a456-426614174000"}`,
		`{"amount": {"amount": 0.3, "currency": "USD"}}`, `{"amount": {"amount": 1e400, "currency": "USD"}}`,
	},
	"edge.nested": {
		`{"rows": [{"n": 1, "x": "s", "y": 2}], "raw": [1, {"a": []}], "grid": [[1], [], [1.5, "x"]], "open": {"a": "x", "b": 1}}`,
		`{"rows": [], "closed": {"a": 1}, "null": null, "zz": {"k": "true", "j": 1}, "yy": 5}`,
		`{"rows": [{}, {"n": "1"}], "closed": {}, "null": false, "grid": [["1"]], "raw": "x"}`,
	},
}

// input is one value to check, with the defaults a repair may fill from.
type input struct {
	value    any
	defaults map[string]any
}

// inputsPerSchema is how many valid values, and as many mutations of them,
// each version is checked with.
const inputsPerSchema = 1000

// inputs returns the values a version is checked with: for a corpus version
// its corpus stream's values (wrapped when the version wraps its schema),
// for a sample-estate version the worked session's examples and values the corpus stream of
// seed makes for its schema.
func (s subject) inputs(t *testing.T, n int, seed uint64) []input {
	var out []input
	if s.tool != nil {
		corpus.Pairs(s.tool.Seed, 1, n, func(p corpus.Pair) {
			if !reflect.DeepEqual(p.Doc, s.tool.Doc) {
				t.Fatalf("%s: seed %d no longer gives its schema: regenerate", s.key(), p.Seed)
			}
			out = append(out, wrap(s.tool, p.Value, p.Defaults))
		})
		return out
	}
	for _, text := range append(slices.Clone(sampleExamples), edgeExamples[s.spec.Name]...) {
		v, err := schema.DecodeJSON([]byte(text))
		if err != nil {
			t.Fatalf("sample example %s: %v", text, err)
		}
		out = append(out, input{value: v, defaults: map[string]any{"$.reference": "PMT-000", "$.currency": "AED"}})
	}
	c := corpus.New(seed)
	for range n {
		v := c.Valid(s.spec.InputSchema, 0)
		m, defaults := c.Mutate(s.spec.InputSchema, v)
		out = append(out, input{value: v}, input{value: m, defaults: defaults})
	}
	return out
}

// wrap turns a value of the corpus schema, and its defaults, into
// arguments of the version.
func wrap(tool *specs.CorpusTool, v any, defaults map[string]any) input {
	if !tool.Wrapped {
		return input{value: v, defaults: defaults}
	}
	wrapped := map[string]any{}
	for path, d := range defaults {
		wrapped[schema.PropertyPath("$", specs.WrapProperty)+strings.TrimPrefix(path, "$")] = d
	}
	return input{value: map[string]any{specs.WrapProperty: v}, defaults: wrapped}
}

// TestDecodersAgreeWithReference runs every generated Decode function and
// the reference validator on the same bytes: thousands of values per
// version, valid ones and mutations of them, spelled compactly and
// indented. They must return the same errors in the same order, and a valid
// value's typed form must encode back to the input (less what the Go type
// does not keep: see kept). Each version is a subtest.
func TestDecodersAgreeWithReference(t *testing.T) {
	var checked, valid, invalid, errorsCompared, unwritable atomic.Int64
	forEachInput(t, inputsPerSchema, func(t *testing.T, s subject, data []byte, _ map[string]any) {
		if data == nil {
			unwritable.Add(1)
			return
		}
		checked.Add(1)
		if errs := s.check(t, data); errs != nil {
			invalid.Add(1)
			errorsCompared.Add(int64(len(errs)))
		} else {
			valid.Add(1)
		}
	})
	if valid.Load() == 0 || invalid.Load() == 0 {
		t.Errorf("the inputs exercise too little: %d valid, %d invalid", valid.Load(), invalid.Load())
	}
	t.Logf("%d versions, %d inputs: %d valid, %d invalid with %d errors; %d mutations not JSON, skipped",
		len(versions), checked.Load(), valid.Load(), invalid.Load(), errorsCompared.Load(), unwritable.Load())
}

// TestRepairAgreesWithReference runs every generated Repair function and
// schema.Repair on the first quarter of the inputs of
// TestDecodersAgreeWithReference (a generated Repair is a thin shell over
// schema.Repair: what can go wrong is the schema it holds and the bytes it
// writes), with their defaults: the same repaired value and the same
// remaining errors.
func TestRepairAgreesWithReference(t *testing.T) {
	var checked, repaired atomic.Int64
	forEachInput(t, inputsPerSchema/4, func(t *testing.T, s subject, data []byte, defaults map[string]any) {
		if data == nil {
			return
		}
		checked.Add(1)
		if s.checkRepair(t, data, defaults) {
			repaired.Add(1)
		}
	})
	if repaired.Load() == 0 {
		t.Error("no input needed repair")
	}
	t.Logf("%d versions, %d inputs, %d changed by repair", len(versions), checked.Load(), repaired.Load())
}

// forEachInput calls fn with the inputs of every version (see inputs; n
// valid values and n mutations) as JSON, nil for a mutation JSON cannot
// write (0 with a zero fraction appended, 00e-1), and their defaults. Each
// version is a parallel subtest of the subtest "versions", which returns
// when they all have.
func forEachInput(t *testing.T, n int, fn func(t *testing.T, s subject, data []byte, defaults map[string]any)) {
	if testing.Short() {
		n = min(n, 100)
	}
	all := subjects(t)
	t.Run("versions", func(t *testing.T) {
		for k, s := range all {
			t.Run(s.key(), func(t *testing.T) {
				t.Parallel()
				for i, in := range s.inputs(t, n, uint64(k)) {
					data, err := marshal(in.value, i%2 == 1)
					if err != nil {
						data = nil
					}
					fn(t, s, data, in.defaults)
				}
			})
		}
	})
}

// marshal writes v as JSON, compact or indented.
func marshal(v any, indent bool) ([]byte, error) {
	if indent {
		return json.MarshalIndent(v, "", "\t")
	}
	return json.Marshal(v)
}

// check decodes data, which is JSON, with the generated decoder and the
// reference validator, fails the test where they differ, and returns the
// errors.
func (s subject) check(t *testing.T, data []byte) schema.Errors {
	t.Helper()
	want, err := s.spec.InputSchema.ValidateJSON(data)
	if err != nil {
		t.Fatalf("%s: test bug: the input %s is not JSON: %v", s.key(), data, err)
	}
	got, errs, err := s.decode(data)
	if err != nil {
		t.Fatalf("%s: the generated decoder refuses JSON input %s: %v", s.key(), data, err)
	}
	if !slices.Equal(errs, want) {
		t.Fatalf("%s, input %s:\ngenerated: %q\nreference: %q", s.key(), data, errs.Strings(), want.Strings())
	}
	s.checkDropped(t, data, errs)
	if want != nil {
		return want
	}
	text, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: the typed value of %s does not encode: %v", s.key(), data, err)
	}
	in, _ := schema.DecodeJSON(data)
	s.checkWrittenBack(t, "typed value", data, text, s.ir.Args, in)
	s.checkOutput(t, data, in)
	return nil
}

// checkWrittenBack fails t unless text, what the what of data (valid, in
// as a JSON value) was written back as, is JSON and the part of in that
// its type typ keeps.
func (s subject) checkWrittenBack(t *testing.T, what string, data, text []byte, typ *ir.Type, in any) {
	t.Helper()
	back, err := schema.DecodeJSON(text)
	if err != nil {
		t.Fatalf("%s: the %s of %s is written as %s, which is not JSON: %v", s.key(), what, data, text, err)
	}
	if wantBack := kept(typ, in); !schema.Equal(back, wantBack) {
		t.Fatalf("%s: the %s of %s is written as %s, want %s", s.key(), what, data, text, corpus.JSON(wantBack))
	}
}

// checkOutput reads data, valid, with the version's output decoder (its
// output schema is its input schema) and writes the value back out with
// the output type's AppendJSON: what encoding/json writes of it
// (gentest.CheckAppends), and the part of in the type keeps.
func (s subject) checkOutput(t *testing.T, data []byte, in any) {
	t.Helper()
	if s.output == nil {
		return
	}
	v, errs, err := s.output(data)
	if err != nil || errs != nil {
		t.Fatalf("%s: the output decoder refuses the valid %s: %v %v", s.key(), data, err, errs)
	}
	text, err := gentest.CheckAppends(v)
	if err != nil {
		t.Fatalf("%s: the output value of %s: %v", s.key(), data, err)
	}
	s.checkWrittenBack(t, "output value", data, text, s.ir.Output, in)
}

// kept is the part of the valid value v that its Go type t holds: all of
// it, except the undeclared properties of objects decoded into structs
// without a schema for them, and with numbers of number type as float64
// holds them.
func kept(t *ir.Type, v any) any {
	switch t.Kind {
	case ir.Struct:
		m := v.(map[string]any)
		out := map[string]any{}
		for name, fv := range m {
			declared := false
			for _, f := range t.Fields {
				if f.JSONName == name {
					out[name], declared = kept(f.Type, fv), true
				}
			}
			if !declared && t.Extra != nil {
				out[name] = kept(t.Extra, fv)
			}
		}
		return out
	case ir.Map:
		m := v.(map[string]any)
		out := map[string]any{}
		for name, fv := range m {
			out[name] = kept(t.Elem, fv)
		}
		return out
	case ir.Slice:
		a := v.([]any)
		out := make([]any, len(a))
		for i, e := range a {
			out[i] = kept(t.Elem, e)
		}
		return out
	case ir.Nullable:
		if v == nil {
			return nil
		}
		return kept(t.Elem, v)
	case ir.Pointer:
		return kept(t.Elem, v)
	case ir.Union:
		k := schema.KindOf(v)
		for _, a := range t.Alts {
			if slices.Contains(a.Kinds, k) {
				return kept(a.Type, v)
			}
		}
	case ir.Variants:
		tag, _ := v.(map[string]any)[t.Tag].(string)
		for _, a := range t.Alts {
			if a.Tag == tag {
				return kept(a.Type, v)
			}
		}
	case ir.Number:
		// A float64 holds the double nearest to the literal: an integer
		// beyond 2^53 may come back as another integer.
		f, _ := schema.NumberValue(v)
		return f
	}
	return v
}

// checkRepair runs the generated Repair and schema.Repair on data and
// fails the test where they differ; it reports whether repair changed the
// value.
func (s subject) checkRepair(t *testing.T, data []byte, defaults map[string]any) bool {
	t.Helper()
	v, err := schema.DecodeJSON(data)
	if err != nil {
		t.Fatalf("%s: test bug: %v", s.key(), err)
	}
	defaultsCopy := maps.Clone(defaults)
	fixed, wantRemaining := schema.Repair(v, s.spec.InputSchema, defaults)
	got, remaining, err := s.repair(data, defaults)
	if err != nil {
		t.Fatalf("%s: the generated Repair refuses JSON input %s: %v", s.key(), data, err)
	}
	gotValue, err := schema.DecodeJSON(got)
	if err != nil {
		t.Fatalf("%s: the generated Repair of %s returns %s, which is not JSON: %v", s.key(), data, got, err)
	}
	if !schema.Equal(gotValue, fixed) || !slices.Equal(remaining, wantRemaining) {
		t.Fatalf("%s: repair of %s with defaults %s:\ngenerated: %s %q\nreference: %s %q",
			s.key(), data, corpus.JSON(defaults), got, remaining.Strings(), corpus.JSON(fixed), wantRemaining.Strings())
	}
	if !reflect.DeepEqual(defaults, defaultsCopy) {
		t.Fatalf("%s: repair changed the defaults", s.key())
	}
	return !schema.Equal(fixed, v)
}

// fuzzKeys are the decoders FuzzDecoders drives: the sample estate's contracts, and
// one corpus version for each kind of Go representation (TestFuzzKeys
// checks that every kind is covered). The fuzzer's first argument picks
// one, modulo the length; keep the order, or the kept corpus under
// testdata/fuzz means other things.
var fuzzKeys = []string{
	"payments.lookup@1.0.0",  // the traced call: closed struct, pattern, boolean
	"payments.release@1.0.0", // integer bound, string enum
	"edge.unique@1.0.0",      // uniqueItems arrays of every scalar, and of values
	"edge.numbers@1.0.0",     // numeric enums, consts and bounds at the edges of int64
	"edge.nested@1.0.0",      // arrays without items, nested structs, additionalProperties schemas, null
	"corpus.s03@1.0.0",       // open objects in open objects, untyped values
	"corpus.s13@1.0.0",       // an additionalProperties schema beside a union
	"corpus.s40@1.0.0",       // arrays of values, numbers, string enums in a closed struct
	"edge.unions@1.0.0",      // $defs, tagged and typed unions, nullable values, formats, recursion
}

// fuzzSubjects are the subjects of fuzzKeys, in order.
func fuzzSubjects(t testing.TB) []subject {
	all := subjects(t)
	out := make([]subject, len(fuzzKeys))
	for i, key := range fuzzKeys {
		j := slices.IndexFunc(all, func(s subject) bool { return s.key() == key })
		if j < 0 {
			t.Fatalf("fuzz decoder %s is not generated", key)
		}
		out[i] = all[j]
	}
	return out
}

// TestFuzzKeys checks that the fuzzed decoders cover every kind of Go
// representation the IR has, and shows which version stands for which.
func TestFuzzKeys(t *testing.T) {
	covered := map[ir.Kind][]string{}
	for _, s := range fuzzSubjects(t) {
		for k := range kinds(s.ir.Args) {
			covered[k] = append(covered[k], s.key())
		}
	}
	for _, k := range []ir.Kind{ir.Any, ir.Struct, ir.String, ir.Integer, ir.Number, ir.Boolean, ir.Slice} {
		if len(covered[k]) == 0 {
			t.Errorf("no fuzzed decoder has a node of kind %v", k)
		}
	}
}

// kinds lists the kinds of the nodes of t.
func kinds(t *ir.Type) map[ir.Kind]bool {
	out := map[ir.Kind]bool{}
	seen := map[*ir.Type]bool{}
	var walk func(t *ir.Type)
	walk = func(t *ir.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		out[t.Kind] = true
		for _, f := range t.Fields {
			walk(f.Type)
		}
		walk(t.Extra)
		walk(t.Elem)
		for _, a := range t.Alts {
			walk(a.Type)
		}
	}
	walk(t)
	return out
}

// fuzzSyntaxSeeds are inputs at the edges of what is JSON.
var fuzzSyntaxSeeds = []string{
	``, ` `, `{`, `}`, `{"reference": "PMT-771"`, `{"reference": "PMT-771"} {}`, `{"reference": "PMT-771"},`,
	`{"reference": "PMT-771", "reference": "PMT-772"}`, `{"a": 1, "a": 2}`, `{"v": {"a": 1, "a": 2}}`,
	`{"reference": {"a": 1, "a": 2}}`, `{"reference": [{"a": 1, "a": 2}]}`, `{"amount_minor": [{"x": 1, "x": 1}]}`,
	`{"v": [{"x": 1, "x": 1}]}`, `{"\u0061": 1, "a": 2}`, "{\"a\xff\": 1}", "{\"v\": \"\xff\"}",
	`{"v": "\ud800"}`, `{"reference": "PMT-\ud800"}`, `{"v": "\udc00\ud800"}`, `{"v": "\ud83d\ude00"}`, `{"\ud800": 1}`,
	`{"v": 01}`, `{"v": 1.}`, `{"v": .5}`, `{"v": -}`, `{"v": 1e}`, `{"v": +1}`, `{"v": 0x10}`,
	`{"v": NaN}`, `{"v": Infinity}`, `{"v": 1e400}`, `{"v": -1e-400}`, `{"v": 123456789012345678901234567890}`,
	`{} {"a":`, `{} [`, `"" {"":`, `{} "`, `{} t`, `{"v": tru}`, `{"v": nul}`, `{"v": True}`, `{"v": 'x'}`, "{\"v\": \"a\tb\"}", `{"v": "\x"}`,
	"\ufeff{}", "{}\x00", "{\"v\":\x0c1}", `{"v": [1, 2,]}`, `{"v": [,]}`, `{"v": {"a": 1,}}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
}

// FuzzDecoders runs the fixed decoders of fuzzKeys and the reference on
// arbitrary bytes. Neither may panic; they must agree on whether the bytes
// are one well-formed JSON value with one reading (schema.DecodeJSON's
// rules), and when they are, on every error, in order; a valid value read
// as the version's output is written back by its AppendJSON as
// encoding/json writes it.
func FuzzDecoders(f *testing.F) {
	subs := fuzzSubjects(f)
	for i, s := range subs {
		texts := append(slices.Clone(sampleExamples), edgeExamples[s.spec.Name]...)
		for _, text := range append(texts, fuzzSyntaxSeeds...) {
			f.Add(uint8(i), []byte(text))
		}
		c := corpus.New(uint64(i) + 1)
		for range 8 {
			v := c.Valid(s.spec.InputSchema, 0)
			m, _ := c.Mutate(s.spec.InputSchema, v)
			for _, x := range []any{v, m} {
				data, err := json.Marshal(x)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(i), data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := subs[int(which)%len(subs)]
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: panic on %q: %v\n%s", s.key(), data, r, debug.Stack())
			}
		}()
		_, errs, err := s.decode(data)
		v, jsonErr := schema.DecodeJSON(data)
		switch {
		case (err == nil) != (jsonErr == nil):
			t.Fatalf("%s on %q: the generated decoder says %v, schema.DecodeJSON says %v", s.key(), data, verdict(err), verdict(jsonErr))
		case err != nil:
			return
		}
		if want := s.spec.InputSchema.Validate(v); !slices.Equal(errs, want) {
			t.Fatalf("%s on %q:\ngenerated: %q\nreference: %q", s.key(), data, errs.Strings(), want.Strings())
		}
		s.checkDropped(t, data, errs)
		if errs == nil {
			s.checkOutput(t, data, v)
		}
	})
}

// TestNestingLimit checks the fuzzed decoders against schema.DecodeJSON
// around the deepest nesting either reads (10000 levels), inside a
// declared property, an undeclared one and an array element. The inputs
// are too large to fuzz from.
func TestNestingLimit(t *testing.T) {
	for _, s := range fuzzSubjects(t) {
		for depth := 9998; depth <= 10001; depth++ {
			nested := strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1)
			for _, text := range []string{
				`{"reference": ` + nested + `}`, `{"extra": ` + nested + `}`, `{"ints": ` + nested + `}`,
				`{"raw": ` + nested + `}`, `{"id": ` + nested + `}`, `{"legs": ` + nested + `}`, `{"a b": ` + nested + `}`,
			} {
				_, _, err := s.decode([]byte(text))
				_, jsonErr := schema.DecodeJSON([]byte(text))
				if (err == nil) != (jsonErr == nil) {
					t.Errorf("%s, %.20s... nested %d deep: the generated decoder says %v, schema.DecodeJSON says %v",
						s.key(), text, depth, verdict(err), verdict(jsonErr))
				}
			}
		}
	}
}

// verdict is a readable form of a decoding error.
func verdict(err error) string {
	if err == nil {
		return "well-formed"
	}
	return "not JSON (" + err.Error() + ")"
}

// TestOutputsAppendWhatHandlersBuild holds AppendJSON to encoding/json on
// values no decoder makes but a handler may: every output type's zero
// value (nil slices, maps, pointers and interfaces, unset optionals), a
// variant held by pointer, a nil element of a slice of pointers, an empty
// but not nil map.
func TestOutputsAppendWhatHandlersBuild(t *testing.T) {
	outputs := 0
	for _, s := range subjects(t) {
		if s.output == nil {
			continue
		}
		outputs++
		v, _, err := s.output([]byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		zero := reflect.Zero(reflect.TypeOf(v)).Interface().(encode.Appender)
		if _, err := gentest.CheckAppends(zero); err != nil {
			t.Errorf("%s: the zero output: %v", s.key(), err)
		}
	}
	if outputs < 60 {
		t.Errorf("only %d versions with an output", outputs)
	}
	built := []encode.Appender{
		EdgeUnionsV1_0_0Output{Method: &EdgeUnionsV1_0_0Card2{Kind: "card", Last4: "4242"}},
		EdgeUnionsV1_0_0Output{Method: (*EdgeUnionsV1_0_0Card2)(nil)},
		EdgeUnionsV1_0_0Output{Limits: map[string]EdgeUnionsV1_0_0Money2{}},
		EdgeUnionsV1_0_0Output{Tree: optional.Some(EdgeUnionsV1_0_0Node2{Name: "root",
			Children: optional.Some([]*EdgeUnionsV1_0_0Node2{nil, {Name: "leaf", Children: optional.Some([]*EdgeUnionsV1_0_0Node2{})}})})},
		EdgeNestedV1_0_0Output{Rows: []EdgeNestedV1_0_0OutputRowsItem{{}}, AdditionalProperties: map[string]EdgeNestedV1_0_0OutputValue{"b": {}, "a": {}}},
	}
	for _, v := range built {
		if _, err := gentest.CheckAppends(v); err != nil {
			t.Errorf("%#v: %v", v, err)
		}
	}
}

// TestRecursiveOutputsAppendBoundedly: a recursive output type follows its
// pointers as deep as a chain goes, but a cycle (a node among its own
// children, which a handler can build by mistake) is an error, where
// following it would overflow the stack and end the process. (encoding/json
// does overflow on this one: its cycle detection starts afresh in each
// optional.Value's MarshalJSON, which the cycle passes through.)
func TestRecursiveOutputsAppendBoundedly(t *testing.T) {
	root := &EdgeUnionsV1_0_0Node2{Name: "0"}
	for n, i := root, 1; i < 1000; i++ {
		child := &EdgeUnionsV1_0_0Node2{Name: strconv.Itoa(i)}
		n.Children = optional.Some([]*EdgeUnionsV1_0_0Node2{child})
		n = child
	}
	if _, err := gentest.CheckAppends(root); err != nil {
		t.Errorf("a chain of 1,000 nodes: %v", err)
	}
	loop := &EdgeUnionsV1_0_0Node2{Name: "loop"}
	loop.Children = optional.Some([]*EdgeUnionsV1_0_0Node2{{Name: "leaf"}, loop})
	if b, err := loop.AppendJSON(nil); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a node among its own children: %d bytes, error %v", len(b), err)
	}
	// The same through an interface of variants: a negation of itself.
	var expr EdgeExprV1_0_0Expr2
	expr = EdgeExprV1_0_0ExprNeg2{Kind: "neg", Of: &expr}
	if b, err := (EdgeExprV1_0_0Output{Root: expr}).AppendJSON(nil); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("an expression that negates itself: %d bytes, error %v", len(b), err)
	}
	one := EdgeExprV1_0_0Expr2(EdgeExprV1_0_0ExprNum2{Kind: "num", Value: 1})
	sum := EdgeExprV1_0_0Expr2(&EdgeExprV1_0_0ExprSum2{Kind: "sum", Terms: []*EdgeExprV1_0_0Expr2{&one, nil, &one}})
	if _, err := gentest.CheckAppends(EdgeExprV1_0_0Output{Root: EdgeExprV1_0_0ExprNeg2{Kind: "neg", Of: &sum}}); err != nil {
		t.Errorf("an expression shared twice, not a cycle: %v", err)
	}
}
