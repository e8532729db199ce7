package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Keywords whose value is a map from names to schemas.
var schemaMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true,
}

// Keywords whose value is a schema.
var schemaValued = map[string]bool{
	"additionalProperties": true, "items": true, "not": true, "if": true,
	"then": true, "else": true, "contains": true, "propertyNames": true,
	"unevaluatedItems": true, "unevaluatedProperties": true,
	"contentSchema": true, "additionalItems": true,
}

// Keywords whose value is an array of schemas.
var schemaArrays = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
}

// countKeywords adds to counts one for each keyword of every schema object
// in s: the keys of the inputSchema, of its subschemas, and so on. Property
// names, $defs names and the values of enum, const, default, examples,
// discriminator and other non-schema keywords are not keywords.
func countKeywords(s any, counts map[string]int) {
	obj, ok := s.(map[string]any)
	if !ok {
		return // a boolean schema has no keywords
	}
	for k, v := range obj {
		counts[k]++
		switch {
		case schemaMaps[k]:
			if m, ok := v.(map[string]any); ok {
				for _, sub := range m {
					countKeywords(sub, counts)
				}
			}
		case schemaValued[k]:
			countKeywords(v, counts)
		case schemaArrays[k]:
			if a, ok := v.([]any); ok {
				for _, sub := range a {
					countKeywords(sub, counts)
				}
			}
		}
	}
}

const (
	beginMarker = "<!-- keywords:begin (written by regen.sh with: gogen keywords -readme README.md .) -->"
	endMarker   = "<!-- keywords:end -->"
)

// keywords prints (or writes into readme between the marker lines) a
// Markdown table: one row per keyword, one column per generator, each cell
// the number of times the keyword occurs in that generator's tools.json.
func keywords(dir, readme string) error {
	counts := map[string]map[string]int{}
	all := map[string]bool{}
	for _, g := range generators {
		b, err := os.ReadFile(filepath.Join(dir, g, "tools.json"))
		if err != nil {
			return err
		}
		var doc struct {
			Tools []struct {
				InputSchema any `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", g, err)
		}
		counts[g] = map[string]int{}
		for _, t := range doc.Tools {
			countKeywords(t.InputSchema, counts[g])
		}
		for k := range counts[g] {
			all[k] = true
		}
	}
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	sort.Strings(names)

	var t bytes.Buffer
	t.WriteString("| keyword | " + strings.Join(generators, " | ") + " |\n")
	t.WriteString("| --- |" + strings.Repeat(" ---: |", len(generators)) + "\n")
	for _, k := range names {
		t.WriteString("| `" + k + "` |")
		for _, g := range generators {
			if n := counts[g][k]; n > 0 {
				fmt.Fprintf(&t, " %d |", n)
			} else {
				t.WriteString(" |")
			}
		}
		t.WriteString("\n")
	}
	if readme == "" {
		_, err := os.Stdout.Write(t.Bytes())
		return err
	}
	old, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	s := string(old)
	i := strings.Index(s, beginMarker)
	j := strings.Index(s, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q ... %q lines", readme, beginMarker, endMarker)
	}
	s = s[:i+len(beginMarker)] + "\n" + t.String() + s[j:]
	return os.WriteFile(readme, []byte(s), 0o644)
}
