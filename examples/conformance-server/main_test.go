package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// runMainEnv makes the test binary run main() instead of the tests: the
// tests start it as the server, so they talk to the real command over real
// stdio.
const runMainEnv = "CONFORMANCE_SERVER_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestGeneratedIsUpToDate regenerates package conformance from the
// manifests and compares it, file by file, with the committed code.
func TestGeneratedIsUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "conformance")
	if _, err := gen.Generate(gen.Options{Manifests: "manifests", Out: out, Package: "conformance"}); err != nil {
		t.Fatal(err)
	}
	gentest.SameFiles(t, out, "conformance", "run go generate")
}

func TestFlagsAreChecked(t *testing.T) {
	for _, args := range [][]string{
		{},                                   // no agent
		{"-agent", "a", "-clearance", "top"}, // no such clearance
		{"-agent", "a", "extra"},
	} {
		if err := run(args, strings.NewReader(""), io.Discard, io.Discard); err == nil {
			t.Errorf("%v: started", args)
		}
	}
}

// suiteClient is the conformance suite's client, played by the runtime's
// client: it declares sampling and elicitation, answers them as the suite
// does, and keeps every notification and server request it sees.
type suiteClient struct {
	*client.Client
	mu       sync.Mutex
	notes    []note
	requests []note
}

type note struct {
	method string
	params map[string]any
}

// startServer starts the command over stdio and connects to it, declaring
// capabilities.
func startServer(t *testing.T, capabilities map[string]any) *suiteClient {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe, "-agent", "conformance-suite")
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var logs bytes.Buffer
	cmd.Stderr = &logs
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
	sc := &suiteClient{}
	decode := func(params json.RawMessage) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(params, &m)
		return m
	}
	sc.Client = client.New(client.NewStreamConn(stdout, stdin), client.Options{
		Info:         client.Implementation{Name: "conformance-test-client", Version: "1.0.0"},
		Capabilities: capabilities,
		OnNotification: func(method string, params json.RawMessage) {
			sc.mu.Lock()
			sc.notes = append(sc.notes, note{method, decode(params)})
			sc.mu.Unlock()
		},
		OnRequest: func(_ context.Context, method string, params json.RawMessage) (any, error) {
			sc.mu.Lock()
			sc.requests = append(sc.requests, note{method, decode(params)})
			sc.mu.Unlock()
			if method == "sampling/createMessage" {
				return map[string]any{"role": "assistant", "model": "test-model", "stopReason": "endTurn",
					"content": map[string]any{"type": "text", "text": "This is a test response from the client"}}, nil
			}
			return map[string]any{"action": "accept", "content": map[string]any{"username": "testuser", "email": "test@example.com"}}, nil
		},
	})
	t.Cleanup(func() {
		sc.Close() // closes the server's stdin: it finishes
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server: %v\n%s", err, logs.String())
			}
		case <-time.After(10 * time.Second): // only a guard against a hang
			cancel()
			t.Errorf("the server did not finish at the end of its input")
		}
		cancel()
	})
	if _, err := sc.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	return sc
}

// take returns and forgets the notifications (or server requests) seen so
// far with the given method.
func (sc *suiteClient) take(requests bool, method string) []map[string]any {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	list := &sc.notes
	if requests {
		list = &sc.requests
	}
	var out []map[string]any
	var rest []note
	for _, n := range *list {
		if n.method == method {
			out = append(out, n.params)
		} else {
			rest = append(rest, n)
		}
	}
	*list = rest
	return out
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// dig follows a path of object keys and array indexes through a decoded
// JSON value.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func isPNG(t *testing.T, b64 string) bool {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return false
	}
	img, err := png.Decode(bytes.NewReader(data))
	return err == nil && img.Bounds().Dx() == 1 && img.Bounds().Dy() == 1
}

// TestSuiteScenariosOverStdio walks the conformance suite's server
// scenarios, one subtest each (named as the suite names them), against the
// command over stdio, checking at least what the suite checks.
func TestSuiteScenariosOverStdio(t *testing.T) {
	sc := startServer(t, map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}})
	ctx := ctxT(t)
	call := func(t *testing.T, name string, args any, opts ...client.CallOption) *client.CallResult {
		t.Helper()
		res, err := sc.CallTool(ctx, name, args, opts...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	raw := func(t *testing.T, method string, params map[string]any) map[string]any {
		t.Helper()
		var res map[string]any
		if err := sc.Call(ctx, method, params, &res); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return res
	}

	t.Run("server-initialize", func(t *testing.T) {
		info := sc.Server()
		if info.ServerInfo.Name != "mcp-conformance-test-server" || info.ProtocolVersion != client.DefaultProtocolVersion {
			t.Errorf("%+v", info)
		}
		for _, c := range []string{"tools", "resources", "prompts", "logging", "completions"} {
			if !sc.Supports(c) {
				t.Errorf("capability %s not declared", c)
			}
		}
		if string(info.Capabilities["resources"]) != `{"subscribe":true,"listChanged":true}` {
			t.Errorf("resources capability: %s", info.Capabilities["resources"])
		}
	})
	t.Run("ping", func(t *testing.T) {
		if err := sc.Ping(ctx); err != nil {
			t.Error(err)
		}
	})
	t.Run("logging-set-level", func(t *testing.T) {
		if res := raw(t, "logging/setLevel", map[string]any{"level": "debug"}); len(res) != 0 {
			t.Errorf("%v", res)
		}
	})
	t.Run("tools-list", func(t *testing.T) {
		tools, err := sc.ListTools(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
			if tool.Description == "" || len(tool.InputSchema) == 0 {
				t.Errorf("%s: no description or input schema", tool.Name)
			}
		}
		want := []string{"json_schema_2020_12_tool", "test_audio_content", "test_elicitation", "test_elicitation_sep1034_defaults",
			"test_elicitation_sep1330_enums", "test_embedded_resource", "test_error_handling", "test_image_content",
			"test_multiple_content_types", "test_reconnection", "test_sampling", "test_simple_text", "test_tool_with_logging",
			"test_tool_with_progress"}
		if !slices.Equal(names, want) {
			t.Errorf("tools %v", names)
		}
	})
	t.Run("json-schema-2020-12", func(t *testing.T) {
		tools, _ := sc.ListTools(ctx, false)
		i := slices.IndexFunc(tools, func(tool client.Tool) bool { return tool.Name == "json_schema_2020_12_tool" })
		var in map[string]any
		if i < 0 || json.Unmarshal(tools[i].InputSchema, &in) != nil {
			t.Fatal("no json_schema_2020_12_tool")
		}
		// $schema and additionalProperties pass; the suite's $defs check
		// fails by design (the schema subset refuses $defs and $ref).
		if in["$schema"] != "https://json-schema.org/draft/2020-12/schema" || in["additionalProperties"] != false {
			t.Errorf("input schema %v", in)
		}
		res := call(t, "json_schema_2020_12_tool", map[string]any{"name": "n", "address": map[string]any{"city": "c"}})
		if res.IsError || !strings.Contains(res.Text(), `"city":"c"`) {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-simple-text", func(t *testing.T) {
		if res := call(t, "test_simple_text", nil); res.IsError || res.Text() != "This is a simple text response for testing." {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-image", func(t *testing.T) {
		res := call(t, "test_image_content", map[string]any{})
		if len(res.Content) != 1 || res.Content[0].Type != "image" || res.Content[0].MIMEType != "image/png" || !isPNG(t, res.Content[0].Data) {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-audio", func(t *testing.T) {
		res := call(t, "test_audio_content", map[string]any{})
		data, _ := base64.StdEncoding.DecodeString(res.Content[0].Data)
		if res.Content[0].Type != "audio" || res.Content[0].MIMEType != "audio/wav" || !bytes.HasPrefix(data, []byte("RIFF")) || !bytes.Contains(data, []byte("WAVEfmt ")) {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-embedded-resource", func(t *testing.T) {
		res := call(t, "test_embedded_resource", map[string]any{})
		if res.Content[0].Type != "resource" || res.Content[0].Resource == nil ||
			*res.Content[0].Resource != (protocol.ResourceContents{URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}) {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-mixed-content", func(t *testing.T) {
		res := call(t, "test_multiple_content_types", map[string]any{})
		var types []string
		for _, c := range res.Content {
			types = append(types, c.Type)
		}
		if strings.Join(types, ",") != "text,image,resource" {
			t.Errorf("%v", types)
		}
	})
	t.Run("tools-call-with-logging", func(t *testing.T) {
		sc.take(false, "notifications/message")
		if res := call(t, "test_tool_with_logging", map[string]any{}); res.IsError {
			t.Fatalf("%+v", res)
		}
		// Notifications are read in order, so all of them arrived before
		// the result did.
		var got []string
		for _, n := range sc.take(false, "notifications/message") {
			if n["level"] != "info" || n["logger"] != "test_tool_with_logging" {
				t.Errorf("%v", n)
			}
			got = append(got, n["data"].(string))
		}
		if strings.Join(got, "|") != "Tool execution started|Tool processing data|Tool execution completed" {
			t.Errorf("log messages %v", got)
		}
	})
	t.Run("tools-call-with-progress", func(t *testing.T) {
		if res := call(t, "test_tool_with_progress", map[string]any{}, client.WithProgressToken("progress-test-1")); res.IsError {
			t.Fatalf("%+v", res)
		}
		var got []float64
		for _, n := range sc.take(false, "notifications/progress") {
			if n["progressToken"] != "progress-test-1" || n["total"] != 100.0 {
				t.Errorf("%v", n)
			}
			got = append(got, n["progress"].(float64))
		}
		if !slices.Equal(got, []float64{0, 50, 100}) {
			t.Errorf("progress %v", got)
		}
	})
	t.Run("tools-call-error", func(t *testing.T) {
		if res := call(t, "test_error_handling", map[string]any{}); !res.IsError || res.Text() != "This tool intentionally returns an error for testing" {
			t.Errorf("%+v", res)
		}
	})
	t.Run("tools-call-sampling", func(t *testing.T) {
		res := call(t, "test_sampling", map[string]any{"prompt": "Test prompt for sampling"})
		reqs := sc.take(true, "sampling/createMessage")
		if res.IsError || res.Text() != "LLM response: This is a test response from the client" || len(reqs) != 1 {
			t.Fatalf("%+v, %d requests", res, len(reqs))
		}
		if dig(reqs[0], "messages", 0, "content", "text") != "Test prompt for sampling" || dig(reqs[0], "maxTokens") != 100.0 {
			t.Errorf("request %v", reqs[0])
		}
	})
	t.Run("tools-call-elicitation", func(t *testing.T) {
		res := call(t, "test_elicitation", map[string]any{"message": "Please provide your information"})
		reqs := sc.take(true, "elicitation/create")
		if res.IsError || res.Text() != `User response: action=accept, content={"email":"test@example.com","username":"testuser"}` || len(reqs) != 1 {
			t.Fatalf("%+v, %d requests", res, len(reqs))
		}
		if reqs[0]["message"] != "Please provide your information" || reqs[0]["mode"] != "form" || dig(reqs[0], "requestedSchema", "type") != "object" {
			t.Errorf("request %v", reqs[0])
		}
	})
	t.Run("elicitation-sep1034-defaults", func(t *testing.T) {
		call(t, "test_elicitation_sep1034_defaults", map[string]any{})
		reqs := sc.take(true, "elicitation/create")
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		props := dig(reqs[0], "requestedSchema", "properties")
		for field, want := range map[string]any{"name": "John Doe", "age": 30.0, "score": 95.5, "status": "active", "verified": true} {
			if got := dig(props, field, "default"); got != want {
				t.Errorf("%s default %v, want %v", field, got, want)
			}
		}
		if dig(props, "age", "type") != "integer" || !slices.Contains(dig(props, "status", "enum").([]any), any("active")) {
			t.Errorf("%v", props)
		}
	})
	t.Run("elicitation-sep1330-enums", func(t *testing.T) {
		call(t, "test_elicitation_sep1330_enums", map[string]any{})
		reqs := sc.take(true, "elicitation/create")
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		props := dig(reqs[0], "requestedSchema", "properties")
		checks := map[string]bool{
			"untitledSingle": dig(props, "untitledSingle", "enum") != nil && dig(props, "untitledSingle", "oneOf") == nil,
			"titledSingle":   dig(props, "titledSingle", "oneOf", 0, "const") == "value1" && dig(props, "titledSingle", "oneOf", 0, "title") == "First Option",
			"legacyEnum":     len(dig(props, "legacyEnum", "enumNames").([]any)) == len(dig(props, "legacyEnum", "enum").([]any)),
			"untitledMulti":  dig(props, "untitledMulti", "type") == "array" && dig(props, "untitledMulti", "items", "enum") != nil,
			"titledMulti":    dig(props, "titledMulti", "items", "anyOf", 2, "title") == "Third Choice" && dig(props, "titledMulti", "items", "enum") == nil,
		}
		for field, ok := range checks {
			if !ok {
				t.Errorf("%s: %v", field, dig(props, field))
			}
		}
	})
	t.Run("resources-list", func(t *testing.T) {
		list, err := sc.ListResources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range list {
			uris = append(uris, r.URI)
			if r.Name == "" {
				t.Errorf("%s: no name", r.URI)
			}
		}
		if strings.Join(uris, " ") != "test://static-binary test://static-text test://watched-resource" {
			t.Errorf("%v", uris)
		}
	})
	t.Run("resources-read-text", func(t *testing.T) {
		c, err := sc.ReadResource(ctx, "test://static-text")
		if err != nil || len(c) != 1 || c[0].MIMEType != "text/plain" || c[0].Text != "This is the content of the static text resource." {
			t.Errorf("%+v %v", c, err)
		}
	})
	t.Run("resources-read-binary", func(t *testing.T) {
		c, err := sc.ReadResource(ctx, "test://static-binary")
		if err != nil || len(c) != 1 || c[0].MIMEType != "image/png" || c[0].Text != "" || !isPNG(t, c[0].Blob) {
			t.Errorf("%+v %v", c, err)
		}
	})
	t.Run("resources-templates-read", func(t *testing.T) {
		list := raw(t, "resources/templates/list", map[string]any{})
		if dig(list, "resourceTemplates", 0, "uriTemplate") != "test://template/{id}/data" {
			t.Errorf("%v", list)
		}
		c, err := sc.ReadResource(ctx, "test://template/123/data")
		if err != nil || len(c) != 1 || c[0].URI != "test://template/123/data" || c[0].Text != `{"data":"Data for ID: 123","id":"123","templateTest":true}` {
			t.Errorf("%+v %v", c, err)
		}
	})
	t.Run("resources-subscribe", func(t *testing.T) {
		if res := raw(t, "resources/subscribe", map[string]any{"uri": "test://watched-resource"}); len(res) != 0 {
			t.Errorf("%v", res)
		}
	})
	t.Run("resources-unsubscribe", func(t *testing.T) {
		if res := raw(t, "resources/unsubscribe", map[string]any{"uri": "test://watched-resource"}); len(res) != 0 {
			t.Errorf("%v", res)
		}
	})
	t.Run("prompts-list", func(t *testing.T) {
		list, err := sc.ListPrompts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range list {
			names = append(names, p.Name)
			if p.Description == "" {
				t.Errorf("%s: no description", p.Name)
			}
		}
		if strings.Join(names, " ") != "test_prompt_with_arguments test_prompt_with_embedded_resource test_prompt_with_image test_simple_prompt" {
			t.Errorf("%v", names)
		}
	})
	t.Run("prompts-get-simple", func(t *testing.T) {
		p, err := sc.GetPrompt(ctx, "test_simple_prompt", nil)
		if err != nil || len(p.Messages) != 1 || p.Messages[0].Role != "user" || p.Messages[0].Content.Text != "This is a simple prompt for testing." {
			t.Errorf("%+v %v", p, err)
		}
	})
	t.Run("prompts-get-with-args", func(t *testing.T) {
		p, err := sc.GetPrompt(ctx, "test_prompt_with_arguments", map[string]string{"arg1": "testValue1", "arg2": "testValue2"})
		if err != nil || p.Messages[0].Content.Text != "Prompt with arguments: arg1='testValue1', arg2='testValue2'" {
			t.Errorf("%+v %v", p, err)
		}
	})
	t.Run("prompts-get-embedded-resource", func(t *testing.T) {
		p, err := sc.GetPrompt(ctx, "test_prompt_with_embedded_resource", map[string]string{"resourceUri": "test://example-resource"})
		if err != nil || len(p.Messages) != 2 || p.Messages[0].Content.Type != "resource" ||
			p.Messages[0].Content.Resource == nil ||
			*p.Messages[0].Content.Resource != (protocol.ResourceContents{URI: "test://example-resource", MIMEType: "text/plain", Text: "Embedded resource content for testing."}) {
			t.Errorf("%+v %v", p, err)
		}
	})
	t.Run("prompts-get-with-image", func(t *testing.T) {
		p, err := sc.GetPrompt(ctx, "test_prompt_with_image", nil)
		if err != nil || len(p.Messages) != 2 || p.Messages[0].Content.Type != "image" || !isPNG(t, p.Messages[0].Content.Data) {
			t.Errorf("%+v %v", p, err)
		}
	})
	t.Run("completion-complete", func(t *testing.T) {
		ref := map[string]any{"type": "ref/prompt", "name": "test_prompt_with_arguments"}
		res := raw(t, "completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": "arg1", "value": "test"}})
		if values, ok := dig(res, "completion", "values").([]any); !ok || len(values) != 0 {
			t.Errorf("%v", res)
		}
		res = raw(t, "completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": "arg1", "value": "par"}})
		if got, _ := json.Marshal(dig(res, "completion", "values")); string(got) != `["paris","park","party"]` {
			t.Errorf("%v", res)
		}
	})
}

// TestSamplingAndElicitationNeedTheCapability: a client that declared
// neither gets tool errors, and no request.
func TestSamplingAndElicitationNeedTheCapability(t *testing.T) {
	sc := startServer(t, nil)
	ctx := ctxT(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"test_sampling", map[string]any{"prompt": "p"},
			"sampling failed: mcp: cannot send sampling/createMessage: the client did not declare the sampling capability"},
		{"test_elicitation", map[string]any{"message": "m"},
			"elicitation failed: mcp: cannot send elicitation/create: the client did not declare the elicitation capability"},
	} {
		res, err := sc.CallTool(ctx, tc.tool, tc.args)
		if err != nil || !res.IsError || res.Text() != tc.want {
			t.Errorf("%s: %+v %v", tc.tool, res, err)
		}
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if len(sc.requests) != 0 {
		t.Errorf("requests sent: %v", sc.requests)
	}
}

// run runs the service as main does, on the given arguments and streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := newService()
	s.Stdin, s.Stdout, s.Stderr = stdin, stdout, stderr
	return s.Run(context.Background(), args)
}
