package gostruct

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// reflectTag reflects, in process and configured as the reflect program
// configures it, a struct with one field "f" of type typ and tag tag, and
// returns the document.
func reflectTag(t *testing.T, typ reflect.Type, tag string) map[string]any {
	t.Helper()
	st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: typ, Tag: reflect.StructTag(`json:"f" ` + tag)}})
	r := &jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true}
	data, err := json.Marshal(r.ReflectFromType(st))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := schema.DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc.(map[string]any)
}

var (
	stringType = reflect.TypeOf("")
	intType    = reflect.TypeOf(0)
	listType   = reflect.TypeOf([]string{})
)

// TestTagKeywordsAreInvopops checks the table the tag checks rely on
// against invopop/jsonschema itself: each key of the subset writes the
// keyword tagKeywords names, on the property or, for an array, where
// keywordOnItems says.
func TestTagKeywordsAreInvopops(t *testing.T) {
	values := map[string]string{"pattern": "^a", "enum": "x", "default": "x", "example": "x", "uniqueItems": "true",
		"readOnly": "true", "writeOnly": "true", "format": "email"}
	for key, keyword := range tagKeywords {
		typ := stringType
		switch key {
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			typ = intType
		case "minItems", "maxItems", "uniqueItems":
			typ = listType
		}
		value := values[key]
		if value == "" {
			value = "3"
		}
		for _, list := range []bool{false, true} {
			ft := typ
			if list && typ != listType {
				ft = reflect.SliceOf(typ)
			}
			prop := reflectTag(t, ft, `jsonschema:"`+key+"="+value+`"`)["properties"].(map[string]any)["f"].(map[string]any)
			target := prop
			if keywordOnItems(key, ft.Kind() == reflect.Slice) {
				target = prop["items"].(map[string]any)
			}
			if _, ok := target[keyword]; !ok {
				t.Errorf("tag %s=%s on a %s: no %q where expected in %v", key, value, ft, keyword, prop)
			}
		}
	}
}

// TestOutsideSubsetIsRefusedBySchema checks that every tag refused as
// outside the subset does write something the subset refuses (so the early
// refusal only gives a better message), except type, which the subset
// would take but which would make the schema lie about the Go field.
func TestOutsideSubsetIsRefusedBySchema(t *testing.T) {
	tags := map[string]struct {
		typ reflect.Type
		tag string
	}{
		"nullable":       {stringType, `jsonschema:"nullable"`},
		"anchor":         {stringType, `jsonschema:"anchor=x"`},
		"oneof_required": {stringType, `jsonschema:"oneof_required=a"`},
		"oneof_ref":      {stringType, `jsonschema:"oneof_ref=#/$defs/x"`},
		"oneof_type":     {stringType, `jsonschema:"oneof_type=string;integer"`},
		"anyof_required": {stringType, `jsonschema:"anyof_required=a"`},
		"anyof_ref":      {stringType, `jsonschema:"anyof_ref=#/$defs/x"`},
		"anyof_type":     {stringType, `jsonschema:"anyof_type=string;integer"`},
	}
	for key := range outsideSubset {
		if key == "type" {
			continue
		}
		c, ok := tags[key]
		if !ok {
			t.Errorf("no case for %s", key)
			continue
		}
		// The tag is refused before reflection, whatever the language
		// makes of what invopop/jsonschema writes for it.
		items := parseTag(strings.TrimSuffix(strings.TrimPrefix(c.tag, `jsonschema:"`), `"`))
		if len(items) == 0 || outsideSubset[items[0].key] == "" {
			t.Errorf("tag %s is not refused", c.tag)
		}
	}
	// The keys the language now has are accepted, and land in the schema.
	for key, c := range map[string]struct {
		typ reflect.Type
		tag string
	}{"format": {stringType, `jsonschema:"format=email"`}, "multipleOf": {intType, `jsonschema:"multipleOf=5"`}} {
		doc := reflectTag(t, c.typ, c.tag)
		delete(doc, "$schema")
		if _, err := schema.Parse(doc); err != nil || tagKeywords[key] != key {
			t.Errorf("tag %s: %v", c.tag, err)
		}
	}
}
