package decoders

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/internal/jsonsuite"
	"github.com/mcpgen/mcpgen/internal/jsonsuite/suitegen"
	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// typed gives a generated Decode function the one signature the table
// holds.
func typed[T any](decode func([]byte) (T, schema.Errors, error)) func([]byte) (any, schema.Errors, error) {
	return func(data []byte) (any, schema.Errors, error) { return decode(data) }
}

// TestGeneratedIsUpToDate renders the package again: the committed files
// are what the generator writes now (go generate regenerates them).
func TestGeneratedIsUpToDate(t *testing.T) {
	files, err := suitegen.Render(suitegen.SuiteDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		committed, err := os.ReadFile(f.Name)
		if err != nil || !bytes.Equal(committed, f.Data) {
			t.Errorf("%s is not what the generator writes now (run go generate): %v", f.Name, err)
		}
	}
}

// TestSuiteGeneratedDecoders runs the official JSON Schema Test Suite,
// draft 2020-12 with its optional files, through the generated decoders.
// A group without a decoder must be one the language refuses, for a reason
// it documents; for every test of every other group, the generated decoder
// reads the data, reaches the suite's verdict (but for the documented
// differences), and reports exactly the reference validator's errors. The
// table (go test -v -run TestSuiteGeneratedDecoders) shows each keyword
// file: groups passed, refused at generate time, deviated, failed.
func TestSuiteGeneratedDecoders(t *testing.T) {
	groups, err := jsonsuite.Load(suitegen.SuiteDir, true)
	if err != nil {
		t.Fatal(err)
	}
	var table jsonsuite.Table
	for i, g := range groups {
		decode, ok := decoders[i]
		if !ok {
			_, err := schema.ParseJSON(g.Schema)
			if err == nil || !jsonsuite.Documented(err) {
				t.Errorf("%s / %s: no decoder, and the refusal is %v", g.File, g.Description, err)
				table.Add(g.File, jsonsuite.Failed)
				continue
			}
			table.Add(g.File, jsonsuite.Refused)
			continue
		}
		s := schema.MustParseJSON(string(g.Schema))
		outcome := jsonsuite.Passed
		for _, tc := range g.Tests {
			_, errs, err := decode(tc.Data)
			if err != nil {
				t.Errorf("%s / %s / %s: the generated decoder refuses %s: %v", g.File, g.Description, tc.Description, tc.Data, err)
				outcome = jsonsuite.Failed
				continue
			}
			want, _ := s.ValidateJSON(tc.Data)
			if !slices.Equal(errs, want) {
				t.Errorf("%s / %s / %s: data %s\ngenerated: %q\nreference: %q", g.File, g.Description, tc.Description, tc.Data, errs.Strings(), want.Strings())
				outcome = jsonsuite.Failed
				continue
			}
			o := jsonsuite.Judge(g, tc, errs == nil)
			outcome = max(outcome, o)
			if o == jsonsuite.Failed {
				t.Errorf("%s / %s / %s: valid=%v, want %v (errors %v)", g.File, g.Description, tc.Description, errs == nil, tc.Valid, errs)
			}
		}
		table.Add(g.File, outcome)
	}
	var b strings.Builder
	table.Write(&b)
	t.Logf("generated decoders on the JSON Schema Test Suite, draft 2020-12:\n%s", b.String())
	if table.Count(jsonsuite.Passed) < 300 {
		t.Errorf("only %d groups passed", table.Count(jsonsuite.Passed))
	}
}

// valueOf is the value a generated package's value wrapper holds, which
// encoding/json encodes as the wrapper's AppendJSON should write it: a
// wrapper with the wrapper's methods but not its AppendJSON.
type valueOf struct{ v any }

// AppendJSON writes the wrapper's value, as the wrapper's AppendJSON.
func (w valueOf) AppendJSON(b []byte) ([]byte, error) { return w.v.(encode.Appender).AppendJSON(b) }

// MarshalJSON is encoding/json's encoding of the value the wrapper holds
// (the wrapper itself has no json tag).
func (w valueOf) MarshalJSON() ([]byte, error) {
	return encode.Reflect(reflect.ValueOf(w.v).Field(0).Interface())
}

// TestSuiteGeneratedEncoders writes every value the generated decoders
// accept back out with its generated AppendJSON: what encoding/json
// writes of the value (gentest.CheckAppends), and text the decoder reads
// back into an equal value without an error.
func TestSuiteGeneratedEncoders(t *testing.T) {
	groups, err := jsonsuite.Load(suitegen.SuiteDir, true)
	if err != nil {
		t.Fatal(err)
	}
	var written int
	for i, g := range groups {
		decode, ok := decoders[i]
		if !ok {
			continue
		}
		for _, tc := range g.Tests {
			v, errs, err := decode(tc.Data)
			if err != nil || errs != nil {
				continue
			}
			got, err := gentest.CheckAppends(valueOf{v})
			if err != nil {
				t.Errorf("%s / %s / %s: data %s: %v", g.File, g.Description, tc.Description, tc.Data, err)
				continue
			}
			written++
			back, errs, err := decode(got)
			if err != nil || errs != nil {
				t.Errorf("%s / %s / %s: %s reads back with %v %v", g.File, g.Description, tc.Description, got, err, errs)
				continue
			}
			if !reflect.DeepEqual(back, v) {
				t.Errorf("%s / %s / %s: %s reads back as %#v, not %#v", g.File, g.Description, tc.Description, got, back, v)
			}
		}
	}
	if written < 1000 {
		t.Errorf("only %d values written", written)
	}
}
