package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// versionTable is a table as a generated package writes it: in publish
// order, by name then version (tool.t10 sorts before tool.t2, and 1.10.0
// after 1.9.0).
func versionTable(t *testing.T) []mcp.Version[struct{}] {
	t.Helper()
	var table []mcp.Version[struct{}]
	for _, key := range []string{"tool.t1@1.0.0", "tool.t10@1.0.0", "tool.t2@1.9.0", "tool.t2@1.10.0"} {
		name, version, _ := strings.Cut(key, "@")
		in := schema.MustParseJSON(fmt.Sprintf(`{"type": "object", "properties": {"n": {"type": "integer"}, "which": {"const": %q}}, "additionalProperties": false}`, key))
		spec := estate.ToolSpec{Name: name, Version: estate.MustParseVersion(version), InputSchema: in}
		table = append(table, mcp.Version[struct{}]{Spec: func() estate.ToolSpec { return spec }})
	}
	return table
}

func TestRepairArgumentsFindsTheVersion(t *testing.T) {
	table := versionTable(t)
	for _, key := range []string{"tool.t1@1.0.0", "tool.t10@1.0.0", "tool.t2@1.9.0", "tool.t2@1.10.0"} {
		name, version, _ := strings.Cut(key, "@")
		repaired, remaining, err := mcp.RepairArguments(table, name, version, []byte(fmt.Sprintf(`{"n": "5", "which": %q, "x": 1}`, key)), nil)
		if err != nil || remaining != nil || string(repaired) != fmt.Sprintf(`{"n":5,"which":%q}`, key) {
			t.Errorf("%s: %s %v %v", key, repaired, remaining, err)
		}
	}
	for _, bad := range [][2]string{{"tool.t2", "1.1.0"}, {"tool.t3", "1.0.0"}, {"tool.t1", "one"}} {
		if _, _, err := mcp.RepairArguments(table, bad[0], bad[1], []byte(`{}`), nil); err == nil || !strings.Contains(err.Error(), "no tool version") {
			t.Errorf("%s@%s: %v", bad[0], bad[1], err)
		}
	}
}

func TestSpecsAreAsPublished(t *testing.T) {
	table := versionTable(t)
	specs := mcp.Specs(table)
	if len(specs) != 4 || specs[3].Version.String() != "1.10.0" || specs[0].Lifecycle != estate.Active {
		t.Errorf("specs %+v", specs)
	}
}

func TestTypedToolPassesTheDecodedValue(t *testing.T) {
	var got string
	tool := mcp.TypedTool(func(ctx context.Context, call *mcp.Call, args string) (*mcp.Result, error) {
		got = args
		return nil, nil
	}, nil)
	if _, err := tool.Handler(context.Background(), &mcp.Call{Value: "decoded"}); err != nil || got != "decoded" {
		t.Errorf("handler got %q, %v", got, err)
	}
}
