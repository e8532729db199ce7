package emit_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/internal/difftest/specs"
	corpus "github.com/mcpgen/mcpgen/internal/schemacorpus"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// FuzzGenerate generates a package from an arbitrary schema, as a tool's
// input and output schema: whatever the schema, the generator either
// refuses it with its errors or renders Go that parses and is gofmt'ed
// (jennifer formats what it renders, and fails on text that does not
// parse). It must never panic or recurse without end: a schema is a
// team's input, and the generator runs in its CI.
func FuzzGenerate(f *testing.F) {
	for _, e := range specs.EdgeSchemas {
		f.Add([]byte(e.Doc))
	}
	for seed := range uint64(40) {
		data, err := json.Marshal(corpus.New(seed).Schema(0))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.ParseJSON(data)
		if err != nil {
			return
		}
		spec := estate.ToolSpec{
			Name: "fuzz.tool", Version: estate.MustParseVersion("1.0.0"), Title: "t", Description: "d",
			InputSchema: s, OutputSchema: s,
			SideEffect: estate.Read, DataClassification: estate.Internal, Owner: "o",
		}
		if spec.Validate() != nil {
			return
		}
		p, err := ir.Build("fuzz", []estate.ToolSpec{spec}, ir.Server{Name: "fuzz", Version: "1.0.0"})
		if err != nil {
			var errs ir.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("Build of %s: %v (%T), not a list of errors", data, err, err)
			}
			return
		}
		if _, err := emit.Package(p, emit.Layout{}); err != nil {
			t.Fatalf("the package generated from %s does not render: %v", data, err)
		}
	})
}
