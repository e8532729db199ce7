package manifest

import (
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// sampleDir is the bank's sample estate shipped with the project.
var sampleDir = filepath.Join("..", "..", "manifests")

// The sample estate (docs/concepts.md#the-estate); these are its tools as the
// worked session publishes them (payments.lookup 2.0.0 as in its versioning
// and deprecation sections).
var sampleTools = []struct {
	key, title, description string
	sideEffect              estate.SideEffect
	scopes                  []string
	class                   estate.Classification
	owner                   string
	tenants                 []string
	lifecycle               estate.Lifecycle
	supersededBy            string
	input                   string
}{
	{
		"crm.notes.append@1.0.0", "Append a CRM note", "Append a note to a customer record.",
		estate.WriteIdempotent, []string{"crm.write"}, estate.Internal, "retail-crm", nil, estate.Active, "",
		`{"type": "object", "properties": {"customer_id": {"type": "string"}, "note": {"type": "string"}},
		  "required": ["customer_id", "note"], "additionalProperties": false}`,
	},
	{
		"payments.lookup@1.0.0", "Look up a payment", "Return the status, amount and counterparties of a payment by its reference.",
		estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil, estate.Deprecated, "payments.lookup@2.0.0",
		`{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"}, "include_legs": {"type": "boolean"}},
		  "required": ["reference"], "additionalProperties": false}`,
	},
	{
		"payments.lookup@2.0.0", "Look up a payment", "Return the status of a payment as of a point in time.",
		estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil, estate.Active, "",
		`{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"}, "include_legs": {"type": "boolean"},
		  "as_of": {"type": "string"}}, "required": ["reference", "as_of"], "additionalProperties": false}`,
	},
	{
		"payments.lookup@3.0.0", "Look up a payment", "Return the status of a payment as of a date.",
		estate.Read, []string{"payments.read"}, estate.Confidential, "wholesale-payments", nil, estate.Active, "",
		`{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"}, "include_legs": {"type": "boolean"},
		  "as_of": {"type": "string", "format": "date", "description": "The date the status is asked for, as YYYY-MM-DD."}},
		  "required": ["reference", "as_of"], "additionalProperties": false}`,
	},
	{
		"payments.release@1.0.0", "Release a held payment", "Release a payment currently on hold. Requires dual control above threshold.",
		estate.Irreversible, []string{"payments.release"}, estate.Restricted, "wholesale-payments", []string{"wholesale"}, estate.Active, "",
		`{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
		  "amount_minor": {"type": "integer", "minimum": 1}, "currency": {"type": "string", "enum": ["AED", "USD", "EUR"]}},
		  "required": ["reference", "amount_minor", "currency"], "additionalProperties": false}`,
	},
}

func TestSampleEstate(t *testing.T) {
	e, err := LoadDir(sampleDir)
	if err != nil {
		t.Fatalf("LoadDir(%s):\n%v", sampleDir, err)
	}
	specs := e.Specs()
	if len(specs) != len(sampleTools) {
		t.Fatalf("%d versions, want %d", len(specs), len(sampleTools))
	}
	for i, want := range sampleTools {
		got := specs[i]
		if got.Key() != want.key {
			t.Errorf("version %d is %s, want %s", i, got.Key(), want.key)
			continue
		}
		if got.Title != want.title || got.Description != want.description || got.SideEffect != want.sideEffect ||
			!slices.Equal(got.RequiredScopes, want.scopes) || got.DataClassification != want.class ||
			got.Owner != want.owner || !slices.Equal(got.Tenants, want.tenants) || got.Lifecycle != want.lifecycle ||
			got.SupersededBy != want.supersededBy || got.OutputSchema != nil {
			t.Errorf("%s = %+v, want %+v", want.key, got, want)
		}
		input, err := schema.DecodeJSON([]byte(want.input))
		if err != nil {
			t.Fatal(err)
		}
		if !schema.Equal(got.InputSchema.Document(), input) {
			t.Errorf("%s input schema = %v, want %v", want.key, got.InputSchema.Document(), input)
		}
	}

	s := e.Server
	if s == nil {
		t.Fatal("the sample has no server file")
	}
	if s.Name != "bank-payments-mcp" || s.Version != "2.3.1" {
		t.Errorf("server = %s %s, want bank-payments-mcp 2.3.1", s.Name, s.Version)
	}
	wantResource := Resource{
		URI: "policy://sanctions/hold-release", Name: "Hold release policy", MIMEType: "text/markdown",
		Text: "Releases above 100k need dual control.", Tenants: []string{"wholesale"},
	}
	if len(s.Resources) != 1 {
		t.Fatalf("resources = %v, want one", s.Resources)
	}
	r := *s.Resources[0]
	r.Pos = Pos{}
	if r.URI != wantResource.URI || r.Name != wantResource.Name || r.MIMEType != wantResource.MIMEType ||
		r.Text != wantResource.Text || !slices.Equal(r.Tenants, wantResource.Tenants) {
		t.Errorf("resource = %+v, want %+v", r, wantResource)
	}
	if len(s.Prompts) != 1 {
		t.Fatalf("prompts = %v, want one", s.Prompts)
	}
	p := s.Prompts[0]
	if p.Name != "investigate" || p.Description != "Investigate a held payment" ||
		!slices.Equal(p.Arguments, []Argument{{Name: "reference", Required: true}}) ||
		p.Template != "Investigate payment {reference}. State the hold reason." {
		t.Errorf("prompt = %+v", *p)
	}
}

// TestSamplePublishes publishes the sample into a registry in version
// order, first as the manifests state it, then as the worked session does
// it (every version active, then the deprecation), so that the publish
// guard's bump rule is applied to payments.lookup 2.0.0.
func TestSamplePublishes(t *testing.T) {
	e, err := LoadDir(sampleDir)
	if err != nil {
		t.Fatal(err)
	}
	r := estate.NewRegistry()
	for _, spec := range e.Specs() {
		if err := r.Publish(spec); err != nil {
			t.Errorf("Publish(%s): %v", spec.Key(), err)
		}
	}
	var keys []string
	for _, name := range r.Names() {
		for _, spec := range r.Versions(name) {
			keys = append(keys, spec.Key()+" "+string(spec.Lifecycle))
		}
	}
	want := []string{
		"crm.notes.append@1.0.0 active", "payments.lookup@1.0.0 deprecated",
		"payments.lookup@2.0.0 active", "payments.lookup@3.0.0 active", "payments.release@1.0.0 active",
	}
	if !slices.Equal(keys, want) {
		t.Errorf("registry holds %v, want %v", keys, want)
	}

	r = estate.NewRegistry()
	for _, t0 := range e.Tools {
		for _, v := range t0.Versions {
			spec := v.Spec()
			spec.Lifecycle, spec.SupersededBy = estate.Active, ""
			if err := r.Publish(spec); err != nil {
				t.Errorf("Publish(%s) as active: %v", spec.Key(), err)
			}
		}
	}
	for _, t0 := range e.Tools {
		for _, v := range t0.Versions {
			if v.Lifecycle == estate.Deprecated {
				if err := r.Deprecate(v.Name, v.Version.String(), v.SupersededBy); err != nil {
					t.Errorf("Deprecate(%s): %v", v.Key(), err)
				}
			}
		}
	}
	if latest, ok := r.Latest("payments.lookup"); !ok || latest.Version.String() != "3.0.0" {
		t.Errorf("latest payments.lookup = %v, want 3.0.0", latest.Key())
	}
}

// TestSpecIsACopy checks that editing a spec's slices cannot edit the
// loaded model.
func TestSpecIsACopy(t *testing.T) {
	e, err := LoadDir(sampleDir)
	if err != nil {
		t.Fatal(err)
	}
	v := e.Tools[2].Versions[0] // payments.release@1.0.0
	spec := v.Spec()
	spec.Tenants[0] = "retail"
	spec.RequiredScopes[0] = "x"
	if v.Tenants[0] != "wholesale" || v.RequiredScopes[0] != "payments.release" {
		t.Errorf("editing a Spec edited the model: %v %v", v.Tenants, v.RequiredScopes)
	}
}

func TestVersionPos(t *testing.T) {
	const file = `name: t.pos
versions:
  - version: 1.0.0
    description: A tool.
    sideEffect: read
    dataClassification: public
    owner: team
    inputSchema:
      type: object
      properties:
        amount: {type: number, minimum: 1}
        tags:
          type: array
          items: {type: string}
      required: [amount, tags]
  - {version: 1.1.0, description: B, sideEffect: read, dataClassification: public, owner: team, inputSchema: {type: object}}
`
	e, err := LoadFS(fstest.MapFS{"t.yaml": {Data: []byte(file)}}, "m")
	if err != nil {
		t.Fatal(err)
	}
	v, w := e.Tools[0].Versions[0], e.Tools[0].Versions[1]
	at := func(line, col int) Pos { return Pos{filepath.Join("m", "t.yaml"), line, col} }
	tests := []struct {
		got, want Pos
	}{
		{v.Pos(""), at(3, 5)},
		{v.Pos("name"), at(1, 7)},
		{v.Pos("sideEffect"), at(5, 5)},
		{v.Pos("inputSchema"), at(8, 5)},
		{v.Pos("inputSchema", "properties", "amount"), at(11, 9)},
		{v.Pos("inputSchema", "properties", "amount", "minimum"), at(11, 32)},
		{v.Pos("inputSchema", "properties", "tags", "items", "type"), at(14, 19)},
		{v.Pos("inputSchema", "required", "1"), at(15, 26)},
		// Not written: the deepest part of the path that is.
		{v.Pos("inputSchema", "properties", "missing", "type"), at(10, 7)},
		{v.Pos("inputSchema", "required", "7"), at(15, 7)},
		{v.Pos("outputSchema", "properties"), at(3, 5)},
		{v.Pos("tenants"), at(3, 5)},
		{w.Pos(""), at(16, 5)},
		{w.Pos("inputSchema", "type"), at(16, 111)},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: Pos = %v, want %v", i, tt.got, tt.want)
		}
	}
}
