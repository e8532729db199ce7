package ir

import (
	"errors"
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
		spec("payments.lookup", "2.0.0", `{"type":"object","properties":{"reference":{"type":"string"},"as_of":{"type":"string"},"legs":{"type":"array","items":{"type":"object","properties":{"amount":{"type":"integer"}}}},"currency":{"type":"string","enum":["AED","usd","AED"]},"u":{"type":["string","null"]}},"required":["reference"]}`),
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
	want := map[string]Kind{"AsOf": String, "Currency": String, "Legs": Array, "Reference": String, "U": Any}
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
	consts := currency.EnumConsts()
	if len(consts) != 3 || consts[0][0] != "PaymentsLookupV2_0_0ArgsCurrencyAED" || consts[1][0] != "PaymentsLookupV2_0_0ArgsCurrencyUsd" || consts[2][0] != "PaymentsLookupV2_0_0ArgsCurrencyAED2" {
		t.Errorf("enum constants %v", consts)
	}
	if elem := args.Fields[2].Type.Elem; elem.Kind != Struct || elem.Name != "PaymentsLookupV2_0_0ArgsLegsItem" {
		t.Errorf("legs item type %+v", elem)
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

// TestUnionsAndContainerEnumsFallBackToTheReference: the IR hands what it
// cannot type straight-line to the reference validator, never drops it.
func TestUnionsAndContainerEnumsFallBackToTheReference(t *testing.T) {
	p, err := Build("x", []estate.ToolSpec{spec("t", "1.0.0",
		`{"type":"object","properties":{"a":{"type":"object","const":{}},"b":{"type":"array","items":{"type":"object"},"uniqueItems":true},"c":{},"d":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`)}, Server{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]Kind{}
	for _, f := range p.Tools[0].Versions[0].Args.Fields {
		kinds[f.JSONName] = f.Type.Kind
	}
	if kinds["a"] != Any || kinds["b"] != Any || kinds["c"] != Any || kinds["d"] != Array {
		t.Errorf("kinds %v", kinds)
	}
}

func TestBuildRefusesRootsWithoutAStructForm(t *testing.T) {
	_, err := Build("x", []estate.ToolSpec{spec("t", "1.0.0", `{"type":"object","const":{}}`)}, Server{})
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Field != "inputSchema" {
		t.Fatalf("want one inputSchema error, got %v", err)
	}
}
