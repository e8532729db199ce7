package gostruct

import (
	"slices"
	"sort"
	"strings"
)

// The jsonschema struct tag is read by invopop/jsonschema, which ignores
// what it does not understand: a misspelt key, a bound that is not a
// number, a keyword that does not apply to the field's type. An ignored
// constraint is a hole in the contract, so every item is checked here
// before, and its effect after, reflection.

// tagItem is one comma-separated item of a jsonschema tag.
type tagItem struct {
	key   string // "minimum", or the whole item when it has no "="
	value string
	flag  bool // the item has no "=" ("required")
}

// raw is the item as written.
func (it tagItem) raw() string {
	if it.flag {
		return it.key
	}
	return it.key + "=" + it.value
}

// keyText is how the item's key is written: "minimum=", or the flag.
func (it tagItem) keyText() string {
	if it.flag {
		return it.key
	}
	return it.key + "="
}

// parseTag splits a jsonschema tag as invopop/jsonschema does: at commas,
// except a comma right after a backslash, which belongs to the value (the
// backslash is dropped): pattern=^[a-z]{1\,3}$.
func parseTag(tag string) []tagItem {
	if tag == "" {
		return nil
	}
	var parts []string
	for i, p := range strings.Split(tag, ",") {
		if i > 0 && len(parts) > 0 {
			if last := parts[len(parts)-1]; last != "" && strings.HasSuffix(last, `\`) {
				parts[len(parts)-1] = strings.TrimSuffix(last, `\`) + "," + p
				continue
			}
		}
		parts = append(parts, p)
	}
	items := make([]tagItem, 0, len(parts))
	for _, p := range parts {
		if k, v, ok := strings.Cut(p, "="); ok {
			items = append(items, tagItem{key: k, value: v})
		} else {
			items = append(items, tagItem{key: p, flag: true})
		}
	}
	return items
}

// tagKeywords maps each tag key of the subset to the schema keyword it
// writes.
var tagKeywords = map[string]string{
	"title": "title", "description": "description", "default": "default", "example": "examples", "enum": "enum",
	"minLength": "minLength", "maxLength": "maxLength", "pattern": "pattern", "format": "format",
	"minimum": "minimum", "maximum": "maximum", "exclusiveMinimum": "exclusiveMinimum", "exclusiveMaximum": "exclusiveMaximum",
	"multipleOf": "multipleOf", "minItems": "minItems", "maxItems": "maxItems", "uniqueItems": "uniqueItems",
	"readOnly": "readOnly", "writeOnly": "writeOnly",
}

// arrayKeys are the keys invopop/jsonschema applies to an array itself;
// the others of an array field apply to its items.
var arrayKeys = []string{"title", "description", "default", "minItems", "maxItems", "uniqueItems"}

// outsideSubset are the tag keys invopop/jsonschema knows that a field of
// a Go struct cannot carry, and why: its values are its Go type's, which
// encoding/json fills.
var outsideSubset = map[string]string{
	"nullable":       "a field is null only as a pointer: declare it *T (and optional with omitempty)",
	"type":           "a property's type is its Go type's",
	"anchor":         "a field's schema is named by its Go type",
	"oneof_required": "a struct's fields are its Go type's: declare one struct per alternative in a manifest instead",
	"oneof_ref":      "a field holds its Go type, not one of several: declare the union in a manifest",
	"oneof_type":     "a field holds its Go type, not one of several: declare the union in a manifest",
	"anyof_required": "a struct's fields are its Go type's: declare one struct per alternative in a manifest instead",
	"anyof_ref":      "a field holds its Go type, not one of several: declare the union in a manifest",
	"anyof_type":     "a field holds its Go type, not one of several: declare the union in a manifest",
}

// checkTag refuses the items of f's jsonschema tag that cannot be part of
// a contract: unknown keys, keys outside the subset, fragments of a value
// cut at an unescaped comma.
func (w *typeWalker) checkTag(f *field) {
	for i, it := range f.items {
		at := f.itemAt(it.keyText())
		switch {
		case it.flag && it.key == "":
			// An empty item (a trailing comma) says nothing.
		case it.flag && it.key == "required", it.flag && it.key == "-" && i == 0:
		case outsideSubset[it.key] != "":
			w.failTag(f, at, "jsonschema tag %s cannot be on a Go struct's field: %s", it.raw(), outsideSubset[it.key])
		case it.flag && tagKeywords[it.key] != "":
			w.failTag(f, at, "jsonschema tag %s needs a value (%s=...)", it.key, it.key)
		case it.flag:
			w.failTag(f, at, `jsonschema tag item %q is not a keyword: a comma inside a value is written \, (pattern=^[0-9]{3\,}$)`, it.key)
		case tagKeywords[it.key] == "":
			w.failTag(f, at, "unknown jsonschema tag key %q%s", it.key, suggestTagKey(it.key))
		case it.key == "uniqueItems" && it.value != "true":
			w.failTag(f, at, "jsonschema tag uniqueItems=%s: the only value is true (leave the key out for false)", it.value)
		}
	}
}

// suggestTagKey names the known key an unknown one differs from only in
// case, or lists the known keys.
func suggestTagKey(key string) string {
	known := make([]string, 0, len(tagKeywords))
	for k := range tagKeywords {
		if strings.EqualFold(k, key) {
			return " (did you mean " + k + "?)"
		}
		known = append(known, k)
	}
	sort.Strings(known)
	return " (the keys: required, " + strings.Join(known, ", ") + ")"
}

// keywordOnItems says whether a tag key of a field lands on its items'
// schema rather than the property's own: it does for an array field,
// except for the keys of the array itself.
func keywordOnItems(key string, list bool) bool {
	return list && !slices.Contains(arrayKeys, key)
}
