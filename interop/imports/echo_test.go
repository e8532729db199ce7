package imports

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/gen/importer"
	"github.com/mcpgen/mcpgen/internal/imported/importgen"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// generators holds the tool lists the packages of internal/imported were
// generated from.
const generators = "../../testdata/generators"

// TestCallsRoundTripOverStdio starts the echo server of each generator's
// package and talks to it with the official Go SDK client over stdio: the
// tools are listed with the schemas the generator wrote, every valid call
// of calls.json reaches its handler as the arguments sent, and every invalid
// one is refused with exactly the reference validator's errors.
func TestCallsRoundTripOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server binary: not in -short")
	}
	server := filepath.Join(t.TempDir(), "server")
	build := exec.Command("go", "build", "-o", server, "github.com/mcpgen/mcpgen/internal/imported/server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build internal/imported/server: %v\n%s", err, out)
	}
	for _, g := range importgen.Generators {
		t.Run(g, func(t *testing.T) {
			t.Parallel()
			echoRoundTrip(t, server, g)
		})
	}
}

func echoRoundTrip(t *testing.T, server, g string) {
	list, err := importgen.ReadToolList(generators, g)
	if err != nil {
		t.Fatal(err)
	}
	var calls map[string]struct{ Valid, Invalid json.RawMessage }
	data, err := os.ReadFile(filepath.Join(generators, g, "calls.json"))
	if err == nil {
		err = json.Unmarshal(data, &calls)
	}
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "imported", Version: "1.0.0"}, nil)
	cmd := exec.Command(server, g)
	cmd.Stderr = os.Stderr
	// 2025-06-18: the last revision whose schema violations are protocol
	// errors (-32602), with the errors as data.
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]any{}
	for _, tool := range listed.Tools {
		served[tool.Name] = tool.InputSchema
	}
	if len(served) != len(list.Tools) {
		t.Errorf("tools/list has %d tools, tools.json %d", len(served), len(list.Tools))
	}

	for _, tool := range list.Tools {
		annotations, err := importer.FormatAnnotations(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := schema.ParseJSONWith(tool.InputSchema, schema.Options{AnnotationFormats: annotations})
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		wrote, _ := schema.DecodeJSON(tool.InputSchema)
		if !sameSchema(served[tool.Name], wrote) {
			t.Errorf("%s: tools/list serves\n%s\nnot the schema the generator wrote", tool.Name, jsonText(served[tool.Name]))
		}

		c, ok := calls[tool.Name]
		if !ok {
			t.Fatalf("%s: no calls in calls.json", tool.Name)
		}
		valid, _ := schema.DecodeJSON(c.Valid)
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool.Name, Arguments: valid})
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Errorf("%s: valid call: %+v, %v", tool.Name, res, err)
		} else if echoed, err := schema.DecodeJSON([]byte(res.Content[0].(*sdk.TextContent).Text)); err != nil || !schema.Equal(echoed, valid) {
			t.Errorf("%s: the handler was given\n%s\nnot the arguments sent\n%s", tool.Name, res.Content[0].(*sdk.TextContent).Text, c.Valid)
		}

		want, err := ref.ValidateJSON(c.Invalid)
		if err != nil || len(want) == 0 {
			t.Fatalf("%s: the reference validator takes the invalid call: %v", tool.Name, err)
		}
		invalid, _ := schema.DecodeJSON(c.Invalid)
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: tool.Name, Arguments: invalid})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
			t.Errorf("%s: invalid call: %+v, %v; want a -32602 error", tool.Name, res, err)
			continue
		}
		var got struct{ Errors []string }
		if err := json.Unmarshal(rpcErr.Data, &got); err != nil || !slices.Equal(got.Errors, want.Strings()) {
			t.Errorf("%s: invalid call's errors\n got %q\nwant %q", tool.Name, got.Errors, want.Strings())
		}
	}
}

// sameSchema reports whether the served schema is the one written, but
// for a type "object" the import adds at the top of a schema that had
// none there (see importgen.Manifest).
func sameSchema(served, wrote any) bool {
	s, _ := schema.DecodeJSON([]byte(jsonText(served)))
	if schema.Equal(s, wrote) {
		return true
	}
	m, ok := wrote.(map[string]any)
	if !ok || m["type"] != nil {
		return false
	}
	m = schemaMaps(m)
	m["type"] = "object"
	return schema.Equal(s, m)
}

func schemaMaps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
