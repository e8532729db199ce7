package service_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
	"github.com/mcpgen/mcpgen/runtime/service"
)

// tool is a version anyone may call, whose one property is a string.
func tool(name, version string) estate.ToolSpec {
	return estate.ToolSpec{
		Name: name, Version: estate.MustParseVersion(version), Title: name, Description: name,
		InputSchema: schema.MustParseJSON(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		SideEffect:  estate.Read, DataClassification: estate.Public, Owner: "warehouse",
	}
}

// register binds echo@1.0.0, which answers its text, and fail@1.0.0,
// whose handler errs.
func register(srv *mcp.Server) error {
	echo := func(_ context.Context, c *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(c.Arguments()["text"].(string)), nil
	}
	fail := func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, errors.New("stock system down") }
	return errors.Join(srv.Bind(tool("echo", "1.0.0"), mcp.Tool{Handler: echo}), srv.Bind(tool("fail", "1.0.0"), mcp.Tool{Handler: fail}))
}

// logs reads the service's JSON log lines and hands each record's fields
// to whoever waits for its message.
type logs struct {
	mu      sync.Mutex
	w       *io.PipeWriter
	waiting map[string]chan map[string]any
}

func newLogs() *logs {
	r, w := io.Pipe()
	l := &logs{w: w, waiting: map[string]chan map[string]any{}}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) != nil {
				continue
			}
			msg, _ := rec["msg"].(string)
			select {
			case l.ch(msg) <- rec:
			default:
			}
		}
	}()
	return l
}

func (l *logs) Write(p []byte) (int, error) { return l.w.Write(p) }

func (l *logs) ch(msg string) chan map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.waiting[msg]
	if !ok {
		c = make(chan map[string]any, 16)
		l.waiting[msg] = c
	}
	return c
}

// wait returns the next record of msg.
func (l *logs) wait(t *testing.T, msg string) map[string]any {
	t.Helper()
	select {
	case rec := <-l.ch(msg):
		return rec
	case <-time.After(10 * time.Second):
		t.Fatalf("no %q in the log", msg)
		return nil
	}
}

// start runs s over development HTTP on a free port with args added, and
// returns its logs and a cancel that asks it to shut down and waits.
func start(t *testing.T, s *service.Service, args ...string) (*logs, func() error) {
	t.Helper()
	l := newLogs()
	s.Stderr = l
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, append([]string{"-transport", "http", "-addr", "127.0.0.1:0", "-insecure-dev", "-agent", "picker-1", "-clearance", "public"}, args...))
	}()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() { cancel(); err = <-done; l.w.Close() })
		return err
	}
	t.Cleanup(func() { stop() })
	return l, stop
}

// connect opens a session of the runtime's client with the service at
// base, closed when the test ends.
func connect(ctx context.Context, t *testing.T, base string) *client.Client {
	t.Helper()
	c := client.New(client.NewHTTPConn(base+"/mcp", nil, nil), client.Options{})
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestReadyzFollowsTheEstateAndShutdown: /readyz fails until the estate is
// loaded, and again from the moment shutdown starts, while /healthz says
// the process serves throughout; the endpoint itself refuses with 503
// until the estate is there.
func TestReadyzFollowsTheEstateAndShutdown(t *testing.T) {
	release := make(chan struct{})
	s := &service.Service{
		Options:  mcp.Options{Name: "warehouse"},
		Register: func(srv *mcp.Server) error { <-release; return register(srv) },
	}
	l, stop := start(t, s, "-shutdown-delay", "2s")
	base := "http://" + l.wait(t, "listening")["addr"].(string)
	if code, _ := get(t, base+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while loading: %d", code)
	}
	if code, _ := get(t, base+"/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz while loading: %d", code)
	}
	res, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/mcp while loading: %d", res.StatusCode)
	}

	close(release)
	l.wait(t, "serving")
	if code, _ := get(t, base+"/readyz"); code != http.StatusOK {
		t.Errorf("/readyz once loaded: %d", code)
	}

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	l.wait(t, "shutting down")
	if code, _ := get(t, base+"/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz while shutting down: %d", code)
	}
	if code, _ := get(t, base+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while shutting down: %d", code)
	}
	if err := <-stopped; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// TestMetricsCountCallsAndRefusals makes a mix of calls through the
// runtime's client over HTTP, and a malformed message, and scrapes
// /metrics.
func TestMetricsCountCallsAndRefusals(t *testing.T) {
	l, _ := start(t, &service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register})
	base := "http://" + l.wait(t, "serving")["addr"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := connect(ctx, t, base)
	for range 2 {
		if res, err := c.CallTool(ctx, "echo", map[string]any{"text": "pallet 7"}); err != nil || res.IsError {
			t.Fatalf("echo: %+v %v", res, err)
		}
	}
	if res, err := c.CallTool(ctx, "fail", map[string]any{"text": "x"}); err != nil || !res.IsError {
		t.Fatalf("fail: %+v %v", res, err)
	}
	if _, err := c.CallTool(ctx, "no.such.tool", map[string]any{}); err == nil {
		t.Fatal("an unknown tool was answered")
	}
	c.CallTool(ctx, "echo", map[string]any{"text": 7}) // a schema violation, however the revision reports it
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		res.Body.Close()
	}

	code, body := get(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`mcp_tool_calls_total{outcome="ok",tool="echo",version="1.0.0"} 2`,
		`mcp_tool_calls_total{outcome="error",tool="fail",version="1.0.0"} 1`,
		`mcp_tool_calls_total{outcome="error",tool="echo",version="1.0.0"} 0`, // from a version's first call
		`mcp_tool_calls_total{outcome="ok",tool="fail",version="1.0.0"} 0`,
		`mcp_tool_call_duration_seconds_count{tool="echo",version="1.0.0"} 2`,
		`mcp_refusals_total{kind="envelope"} 1`,
		`mcp_refusals_total{kind="unknown_tool"} 1`,
		`mcp_refusals_total{kind="schema"} 1`,
		`mcp_refusals_total{kind="drift"} 0`,
		`mcp_refusals_total{kind="request_state"} 0`,
		`mcp_refusals_total{kind="handler_error"} 1`,
		`mcp_tool_calls_in_flight 0`,
		`mcp_sessions 1`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

// TestLifecycleFileIsReloadedWhenItChanges: an operator rewrites the
// lifecycle file and the estate follows without a signal or a restart.
func TestLifecycleFileIsReloadedWhenItChanges(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lifecycle.json")
	if err := os.WriteFile(file, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, _ := start(t, &service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register},
		"-lifecycle", file, "-lifecycle-poll", "20ms")
	base := "http://" + l.wait(t, "serving")["addr"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := connect(ctx, t, base)
	if res, err := c.CallTool(ctx, "fail", map[string]any{"text": "x"}); err != nil || !res.IsError {
		t.Fatalf("fail before: %+v %v", res, err)
	}
	if err := os.WriteFile(file, []byte(`{"fail@1.0.0": "retired"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	l.wait(t, "lifecycle reloaded")
	if _, err := c.CallTool(ctx, "fail", map[string]any{"text": "x"}); err == nil {
		t.Error("a retired version is still called")
	}
}

// TestRefusedAtStart: a configuration that cannot serve is an error
// before anything listens.
func TestRefusedAtStart(t *testing.T) {
	for _, args := range [][]string{
		{"-tenant", "wholesale"}, // no agent over stdio
		{"-agent", "a", "-clearance", "top-secret"},
		{"-agent", "a", "-transport", "carrier-pigeon"},
		{"-transport", "http", "-addr", "127.0.0.1:0"}, // no authenticator
	} {
		s := &service.Service{Register: register, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		if err := s.Run(context.Background(), args); err == nil {
			t.Errorf("%v: started", args)
		}
	}
}

// TestEnvironmentDefaultsUnderThePrefix: every flag is also an
// environment variable under the service's prefix, derived from its
// name.
func TestEnvironmentDefaultsUnderThePrefix(t *testing.T) {
	t.Setenv("STOCK_ROOM_CALL_TIMEOUT", "5s")
	t.Setenv("STOCK_ROOM_AGENT", "picker-9")
	s := &service.Service{Options: mcp.Options{Name: "stock-room"}, Register: register}
	cfg, err := s.Parse(nil)
	if err != nil || cfg.CallTimeout != 5*time.Second || cfg.Agent != "picker-9" {
		t.Fatalf("%+v %v", cfg, err)
	}
	if cfg, _ := s.Parse([]string{"-page-size", "50"}); cfg.PageSize != 50 {
		t.Errorf("-page-size: %d", cfg.PageSize)
	}
	if cfg, _ := s.Parse([]string{"-call-timeout", "0"}); cfg.CallTimeout != 0 {
		t.Errorf("a flag does not win over the environment: %v", cfg.CallTimeout)
	}
	if cfg, _ := (&service.Service{Register: register}).Parse(nil); cfg.CallTimeout != service.DefaultCallTimeout || service.DefaultCallTimeout <= 0 {
		t.Errorf("calls have no deadline by default: %v", cfg.CallTimeout)
	}
}

// TestRequestStateKeyFile: the key file must hold 32 bytes, base64; any
// other content stops the service at start, naming the flag.
func TestRequestStateKeyFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want string }{
		{"c2hvcnQ=\n", "want 32 bytes, base64-encoded"},
		{"not base64!", "want 32 bytes, base64-encoded"},
	} {
		file := filepath.Join(dir, "key")
		if err := os.WriteFile(file, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		err := (&service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register, Stderr: io.Discard}).
			Run(context.Background(), []string{"-agent", "picker-1", "-request-state-key-file", file})
		if err == nil || !strings.Contains(err.Error(), "-request-state-key-file "+file+": "+tc.want) {
			t.Errorf("%q: %v", tc.content, err)
		}
	}
	err := (&service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register, Stderr: io.Discard}).
		Run(context.Background(), []string{"-agent", "picker-1", "-request-state-key-file", filepath.Join(dir, "missing")})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
