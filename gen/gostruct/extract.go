package gostruct

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// ManifestYAML renders a tool as the YAML manifest that states the same
// versions (mcpgen extract): loading it gives the same specs, schema
// documents and hashes, so a team can move between Go structs and
// manifests in either direction. header, when set, becomes the file's
// opening comment.
func ManifestYAML(t *manifest.Tool, header string) ([]byte, error) {
	versions := &yaml.Node{Kind: yaml.SequenceNode}
	for _, v := range t.Versions {
		versions.Content = append(versions.Content, versionNode(v))
	}
	root := mapping(
		"name", str(t.Name),
		"versions", versions,
	)
	if header != "" {
		root.HeadComment = header
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("%s: %v", t.Name, err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// versionNode is one entry of versions, in the order the manifest format
// documents its fields; fields at their default are left out.
func versionNode(v *manifest.Version) *yaml.Node {
	var kv []any
	kv = append(kv, "version", str(v.Version.String()))
	if v.Title != "" {
		kv = append(kv, "title", str(v.Title))
	}
	kv = append(kv, "description", str(v.Description), "sideEffect", str(string(v.SideEffect)))
	if len(v.RequiredScopes) > 0 {
		kv = append(kv, "requiredScopes", strList(v.RequiredScopes))
	}
	kv = append(kv, "dataClassification", str(string(v.DataClassification)), "owner", str(v.Owner))
	if len(v.Tenants) > 0 {
		kv = append(kv, "tenants", strList(v.Tenants))
	}
	if v.Lifecycle != "" && v.Lifecycle != estate.Active {
		kv = append(kv, "lifecycle", str(string(v.Lifecycle)))
	}
	if v.SupersededBy != "" {
		kv = append(kv, "supersededBy", str(v.SupersededBy))
	}
	kv = append(kv, "inputSchema", valueNode(v.InputSchema.Document()))
	if v.OutputSchema != nil {
		kv = append(kv, "outputSchema", valueNode(v.OutputSchema.Document()))
	}
	return mapping(kv...)
}

// keywordOrder puts a schema's keywords in the order people write them
// (a reference first, what it refers to last); the others follow, sorted.
var keywordOrder = []string{"$schema", "$comment", "$ref", "type", "title", "description", "enum", "const", "default", "examples",
	"properties", "required", "additionalProperties", "items"}

// valueNode renders a value of runtime/schema's JSON value model. A schema
// (an object with a "type" or a "properties") lists its keywords in
// keywordOrder; every other object lists its keys sorted.
func valueNode(v any) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case json.Number:
		tag := "!!float"
		if schema.IsIntegerLiteral(string(x)) {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}
	case string:
		return str(x)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		flow := true
		for _, e := range x {
			c := valueNode(e)
			flow = flow && c.Kind == yaml.ScalarNode && !strings.Contains(c.Value, "\n")
			n.Content = append(n.Content, c)
		}
		if flow {
			n.Style = yaml.FlowStyle
		}
		return n
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			a, b := slices.Index(keywordOrder, keys[i]), slices.Index(keywordOrder, keys[j])
			switch {
			case a >= 0 && b >= 0:
				return a < b
			case a >= 0 || b >= 0:
				return a >= 0
			}
			return keys[i] < keys[j]
		})
		n := &yaml.Node{Kind: yaml.MappingNode}
		if len(x) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, k := range keys {
			n.Content = append(n.Content, str(k), valueNode(x[k]))
		}
		return n
	}
	panic(fmt.Sprintf("gostruct: %T is not a JSON value", v))
}

// mapping builds a mapping node from alternating keys and value nodes.
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// str is a string scalar; the encoder quotes it when YAML would read it as
// something else, and a text of several lines is written as a block.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

func strList(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range ss {
		n.Content = append(n.Content, str(s))
	}
	return n
}
