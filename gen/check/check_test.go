package check

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestSchemaPath(t *testing.T) {
	for in, want := range map[string]string{
		"$":               "",
		"$.as_of":         "properties/as_of",
		"$.a.b[*].c":      "properties/a/properties/b/items/properties/c",
		"$.meta.*":        "properties/meta/additionalProperties",
		"$[*]":            "items",
		"$.legs[*][*].id": "properties/legs/items/items/properties/id",
	} {
		if got := strings.Join(SchemaPath(in), "/"); got != want {
			t.Errorf("SchemaPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSuggestNext(t *testing.T) {
	v := estate.MustParseVersion("2.3.4")
	got := []string{SuggestNext(v, schema.Major), SuggestNext(v, schema.Minor), SuggestNext(v, schema.Patch), SuggestNext(v, schema.None)}
	if want := []string{"3.0.0", "2.4.0", "2.3.5", "2.3.5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SuggestNext = %v, want %v", got, want)
	}
}
