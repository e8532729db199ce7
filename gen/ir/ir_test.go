package ir

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"include_legs":     "IncludeLegs",
		"customer_id":      "CustomerID",
		"payments.lookup":  "PaymentsLookup",
		"crm.notes.append": "CrmNotesAppend",
		"asOf":             "AsOf",
		"HTTPServer":       "HTTPServer",
		"URGENT_FLAG":      "UrgentFlag",
		"iban":             "IBAN",
		"2fa_code":         "X2faCode",
		"a b":              "AB",
		"":                 "X",
		"日付":               "X日付",
		"é_t":              "ÉT",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func spec(name, version, in string) estate.ToolSpec {
	return estate.ToolSpec{Name: name, Version: estate.MustParseVersion(version), Title: "t", Description: "d",
		InputSchema: schema.MustParseJSON(in), SideEffect: estate.Read, DataClassification: estate.Internal, Owner: "o"}
}

func TestBuildNamesAndKinds(t *testing.T) {
	p, err := Build("bank", []estate.ToolSpec{
		spec("payments.lookup", "2.0.0", `{"type":"object","properties":{"reference":{"type":"string"},"as_of":{"type":"string"},"legs":{"type":"array","items":{"type":"object","properties":{"amount":{"type":"integer"}}}},"currency":{"type":"string","enum":["AED","usd","AED"]},"u":{"type":["string","null"]},"n":{"type":"number"}},"required":["reference"]}`),
		spec("payments.lookup", "1.0.0", `{"type":"object","properties":{"reference":{"type":"string"}}}`),
	}, Server{})
	if err != nil {
		t.Fatal(err)
	}
	versions := p.Tools[0].Versions
	if versions[0].GoName != "PaymentsLookupV1_0_0" || versions[1].GoName != "PaymentsLookupV2_0_0" {
		t.Fatalf("versions not sorted or misnamed: %s %s", versions[0].GoName, versions[1].GoName)
	}
	args := versions[1].Args
	kinds := map[string]Kind{}
	for _, f := range args.Fields {
		kinds[f.GoName] = f.Type.Kind
	}
	want := map[string]Kind{"AsOf": String, "Currency": String, "Legs": Slice, "Reference": String, "U": Nullable, "N": Number}
	for n, k := range want {
		if kinds[n] != k {
			t.Errorf("%s is kind %v, want %v", n, kinds[n], k)
		}
	}
	var currency *Type
	for _, f := range args.Fields {
		if f.GoName == "Currency" {
			currency = f.Type
		}
		if f.Required != (f.JSONName == "reference") {
			t.Errorf("%s required = %v", f.JSONName, f.Required)
		}
	}
	consts := currency.Consts
	if len(consts) != 3 || consts[0][0] != "PaymentsLookupV2_0_0ArgsCurrencyAED" || consts[1][0] != "PaymentsLookupV2_0_0ArgsCurrencyUsd" || consts[2][0] != "PaymentsLookupV2_0_0ArgsCurrencyAED2" {
		t.Errorf("enum constants %v", consts)
	}
	if elem := args.Fields[2].Type.Elem; elem.Kind != Struct || elem.Name != "PaymentsLookupV2_0_0ArgsLegsItem" {
		t.Errorf("legs item type %+v", elem)
	}
	for _, f := range args.Fields {
		if f.Type.Delegated {
			t.Errorf("%s is handed to the reference validator (%s); it needs no more than compiled checks", f.JSONName, f.Type.Reason)
		}
	}
}

// field returns the field of t named name.
func field(t *testing.T, typ *Type, name string) *Field {
	t.Helper()
	for _, f := range typ.Fields {
		if f.JSONName == name {
			return f
		}
	}
	t.Fatalf("no field %q in %s", name, typ.Name)
	return nil
}

func build(t *testing.T, doc string) *Version {
	t.Helper()
	p, err := Build("x", []estate.ToolSpec{spec("t", "1.0.0", doc)}, Server{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Tools[0].Versions[0]
}

func TestDefinitionsAreNamedTypesDeclaredOnce(t *testing.T) {
	v := build(t, `{"type": "object", "$defs": {
		"address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
		"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
		"properties": {
			"billing": {"$ref": "#/$defs/address", "description": "Where the bill goes."},
			"shipping": {"allOf": [{"$ref": "#/$defs/address"}]},
			"tree": {"$ref": "#/$defs/node"}}}`)
	billing, shipping := field(t, v.Args, "billing").Type, field(t, v.Args, "shipping").Type
	if billing != shipping || billing.Name != "TV1_0_0Address" || billing.Def != "address" || billing.Kind != Struct {
		t.Errorf("billing %+v, shipping %+v: want one named type for the definition", billing, shipping)
	}
	tree := field(t, v.Args, "tree").Type
	next := field(t, tree, "next").Type
	if next.Kind != Pointer || next.Elem != tree {
		t.Errorf("a recursive definition inside itself is %v, want a pointer to %s", next.Kind, tree.Name)
	}
	if kids := field(t, tree, "kids").Type; kids.Kind != Slice || kids.Elem.Elem != tree {
		t.Errorf("kids %+v", kids)
	}
	names := map[string]int{}
	for _, n := range v.Named {
		names[n.Name]++
	}
	if names["TV1_0_0Address"] != 1 || names["TV1_0_0Node"] != 1 || names["TV1_0_0Args"] != 1 {
		t.Errorf("named types %v", names)
	}
}

// A definition that contains itself through no named type (an array of
// itself, a map of itself, two arrays through each other) has no Go type
// that can hold it: it is any value, checked by the reference validator,
// wherever it is referred to. One that contains itself through an object
// keeps its types.
func TestDefinitionsContainingThemselvesWithoutANameAreAnyValue(t *testing.T) {
	v := build(t, `{"type": "object", "$defs": {
		"list": {"type": "array", "items": {"$ref": "#/$defs/list"}},
		"map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/map"}},
		"a": {"type": "array", "items": {"$ref": "#/$defs/b"}},
		"b": {"type": "array", "items": {"$ref": "#/$defs/a"}},
		"rows": {"type": "array", "items": {"$ref": "#/$defs/row"}},
		"row": {"type": "object", "properties": {"rows": {"$ref": "#/$defs/rows"}}}},
		"properties": {
			"list": {"$ref": "#/$defs/list"}, "map": {"$ref": "#/$defs/map"}, "a": {"$ref": "#/$defs/a"},
			"rows": {"$ref": "#/$defs/rows"}}}`)
	for _, name := range []string{"list", "map", "a"} {
		typ := field(t, v.Args, name).Type
		if typ.Kind != Any || !typ.Delegated || !strings.Contains(typ.Reason, "contains itself") || len(typ.Roots) == 0 {
			t.Errorf("%s: %v, delegated %v (%s), %d roots; want any value the reference validator checks", name, typ.Kind, typ.Delegated, typ.Reason, len(typ.Roots))
		}
	}
	rows := field(t, v.Args, "rows").Type
	if rows.Kind != Slice || rows.Elem.Kind != Struct {
		t.Fatalf("rows: %v of %v, want a slice of the row struct", rows.Kind, rows.Elem.Kind)
	}
	if inner := field(t, rows.Elem, "rows").Type; inner.Kind != Pointer || inner.Elem != rows {
		t.Errorf("a row's rows: %v, want a pointer to the rows slice", inner.Kind)
	}
}

func TestUnionsAreTyped(t *testing.T) {
	v := build(t, `{"type": "object", "properties": {
		"note": {"anyOf": [{"type": "string", "maxLength": 9}, {"type": "null"}]},
		"due": {"type": ["string", "null"], "format": "date"},
		"qty": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]},
		"pay": {"oneOf": [
			{"type": "object", "properties": {"kind": {"const": "card"}, "pan": {"type": "string"}}, "required": ["kind", "pan"]},
			{"$ref": "#/$defs/iban"}]},
		"loose": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "string", "pattern": "x"}]}},
		"$defs": {"iban": {"type": "object", "properties": {"kind": {"const": "iban"}, "iban": {"type": "string"}}, "required": ["kind", "iban"]}}}`)
	if note := field(t, v.Args, "note").Type; note.Kind != Nullable || note.Elem.Kind != String || len(note.Elem.Checks) != 1 ||
		len(note.Mismatch) != 1 || !slices.Equal(note.Mismatch[0].Kinds, []schema.Kind{schema.KindString, schema.KindNull}) {
		t.Errorf("note %+v", note)
	}
	if due := field(t, v.Args, "due").Type; due.Kind != Nullable || due.Elem.Kind != String || due.Elem.Checks[0].Op != CheckFormat {
		t.Errorf("due %+v", due)
	}
	qty := field(t, v.Args, "qty").Type
	if qty.Kind != Union || len(qty.Alts) != 2 || qty.Alts[0].GoName != "Integer" || qty.Alts[1].GoName != "String" {
		t.Errorf("qty %+v", qty)
	}
	pay := field(t, v.Args, "pay").Type
	if pay.Kind != Variants || pay.Tag != "kind" || pay.Alts[0].Tag != "card" || pay.Alts[0].Type.Name != "TV1_0_0ArgsPayCard" ||
		pay.Alts[1].Type.Name != "TV1_0_0IBAN" {
		t.Errorf("pay %+v", pay)
	}
	if loose := field(t, v.Args, "loose").Type; loose.Kind != String || !loose.Delegated || !strings.Contains(loose.Reason, "union") {
		t.Errorf("a union tried alternative by alternative: %+v", loose)
	}
}

func TestMapsAndUndeclaredProperties(t *testing.T) {
	v := build(t, `{"type": "object", "properties": {
		"labels": {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 4},
		"any": {"type": "object"},
		"mixed": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
		"closed": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false}}}`)
	if labels := field(t, v.Args, "labels").Type; labels.Kind != Map || labels.Elem.Kind != String || labels.Checks[0].Op != CheckMaxProperties {
		t.Errorf("labels %+v", labels)
	}
	if a := field(t, v.Args, "any").Type; a.Kind != Map || a.Elem.Kind != Any {
		t.Errorf("an open object without properties: %+v", a)
	}
	if m := field(t, v.Args, "mixed").Type; m.Kind != Struct || m.Extra == nil || m.Extra.Kind != Integer || m.Forbidden {
		t.Errorf("mixed %+v", m)
	}
	if c := field(t, v.Args, "closed").Type; c.Kind != Struct || c.Extra != nil || !c.Forbidden {
		t.Errorf("closed %+v", c)
	}
}

// patternProperties are checked by the reference validator; the type
// has to hold what they admit, which a struct without fields would drop.
func TestPatternPropertiesAreHeld(t *testing.T) {
	v := build(t, `{"type": "object", "properties": {
		"ids": {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "number"}}, "additionalProperties": false},
		"two": {"type": "object", "patternProperties": {"^a": {"type": "number"}, "^b": {"type": "string"}}, "additionalProperties": false},
		"open": {"type": "object", "patternProperties": {"^a": {"type": "number"}}},
		"named": {"type": "object", "properties": {"id": {"type": "string"}}, "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}}}`)
	if ids := field(t, v.Args, "ids").Type; ids.Kind != Map || ids.Elem.Kind != Number {
		t.Errorf("closed, one pattern: %+v, want map[string]float64", ids)
	}
	for _, name := range []string{"two", "open"} {
		if m := field(t, v.Args, name).Type; m.Kind != Map || m.Elem.Kind != Any {
			t.Errorf("%s: %+v, want a map of any JSON value", name, m)
		}
	}
	if n := field(t, v.Args, "named").Type; n.Kind != Struct || n.Forbidden || n.Extra == nil || n.Extra.Kind != String {
		t.Errorf("named: %+v, want a struct holding the x- properties", n)
	}
}

func TestAllOfMergesObjects(t *testing.T) {
	v := build(t, `{"type": "object", "properties": {"x": {"allOf": [
		{"$ref": "#/$defs/base"},
		{"properties": {"note": {"type": "string"}}, "required": ["note"]}]}},
		"$defs": {"base": {"type": "object", "properties": {"id": {"type": "string", "minLength": 2}}, "required": ["id"], "additionalProperties": false}}}`)
	x := field(t, v.Args, "x").Type
	if x.Kind != Struct || x.Delegated {
		t.Fatalf("x %+v", x)
	}
	id, note := field(t, x, "id"), field(t, x, "note")
	if !id.Required || !note.Required || id.Forbidden || !note.Forbidden || len(id.Type.Checks) != 1 {
		t.Errorf("id %+v, note %+v: note is declared beside a closed base, which refuses it", id, note)
	}
}

func TestTypeListsAndValuesSayWhatAValueOfAnotherTypeIs(t *testing.T) {
	v := build(t, `{"type": "object", "properties": {
		"both": {"allOf": [{"type": "integer"}, {"type": "number"}]},
		"tag": {"const": "iban"},
		"mixed": {"allOf": [{"type": ["string", "null"]}, {"enum": ["a", "b"]}]}}}`)
	both := field(t, v.Args, "both").Type
	if both.Kind != Integer || both.Delegated || len(both.Mismatch) != 2 {
		t.Errorf("two type lists: %+v", both)
	}
	tag := field(t, v.Args, "tag").Type
	if tag.Kind != String || tag.Delegated || len(tag.Mismatch) != 1 || tag.Mismatch[0].Messages[0] != "must be 'iban'" {
		t.Errorf("a const without a type is a string the const's message covers: %+v", tag)
	}
	mixed := field(t, v.Args, "mixed").Type
	if mixed.Kind != String || len(mixed.Mismatch) != 2 || mixed.Mismatch[1].Messages[0] != "must be one of ['a', 'b']" {
		t.Errorf("mixed %+v", mixed)
	}
}

func TestWhatIsNotCompiledIsDelegated(t *testing.T) {
	for _, tc := range []struct{ prop, reason string }{
		{`{"type": "string", "not": {"const": "x"}}`, "not"},
		{`{"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}}`, "if/then/else"},
		{`{"type": "array", "contains": {"type": "integer"}}`, "contains"},
		{`{"type": "array", "prefixItems": [{"type": "integer"}]}`, "prefixItems"},
		{`{"type": "object", "patternProperties": {"^x": {"type": "integer"}}}`, "patternProperties"},
		{`{"type": "object", "propertyNames": {"maxLength": 3}}`, "propertyNames"},
		{`{"type": "object", "unevaluatedProperties": false}`, "unevaluatedProperties"},
		{`{"type": "array", "items": {"type": "object"}, "uniqueItems": true}`, "uniqueItems"},
		{`{"type": "object", "const": {}}`, "enum or const"},
		{`{"minimum": 3}`, "no one Go type"},
	} {
		v := build(t, `{"type": "object", "properties": {"p": `+tc.prop+`}}`)
		p := field(t, v.Args, "p").Type
		if !p.Delegated || !strings.Contains(p.Reason, tc.reason) || !slices.Contains(v.Delegated, p) {
			t.Errorf("%s: delegated %v (%s), want for %q", tc.prop, p.Delegated, p.Reason, tc.reason)
		}
	}
}

func TestBuildRefusesCollisions(t *testing.T) {
	_, err := Build("bank", []estate.ToolSpec{
		spec("a.tool", "1.0.0", `{"type":"object","properties":{"include_legs":{"type":"string"},"includeLegs":{"type":"string"}}}`),
		spec("a_tool", "1.0.0", `{"type":"object"}`),
	}, Server{})
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("want two naming errors, got %v", err)
	}
	got := map[string]bool{}
	for _, e := range errs {
		got[e.Key+" "+e.Field+" "+e.Path.String()] = true
	}
	if !got["a.tool@1.0.0 inputSchema /properties/include_legs"] || !got["a_tool@1.0.0 name /"] {
		t.Errorf("errors %v", errs)
	}
}

func TestBuildRefusesRootsWithoutAStructForm(t *testing.T) {
	_, err := Build("x", []estate.ToolSpec{spec("t", "1.0.0", `{"type":"object","const":{}}`)}, Server{})
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Field != "inputSchema" {
		t.Fatalf("want one inputSchema error, got %v", err)
	}
}

// TestBuildTypesAnEmptyRootAsAStruct: a tool without arguments publishes an
// object with no properties; its arguments are a struct with no fields,
// not a map, so it generates like any other tool.
func TestBuildTypesAnEmptyRootAsAStruct(t *testing.T) {
	for _, in := range []string{`{"type":"object"}`, `{"type":"object","properties":{}}`} {
		p, err := Build("x", []estate.ToolSpec{spec("t", "1.0.0", in)}, Server{})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if args := p.Tools[0].Versions[0].Args; args.Kind != Struct || len(args.Fields) != 0 {
			t.Errorf("%s: arguments are %v with %d fields", in, args.Kind, len(args.Fields))
		}
	}
}
