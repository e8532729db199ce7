package service_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/service"
)

// lifecycleSet runs the service binary's -lifecycle-set mode against the
// store, returning what it printed and its error.
func lifecycleSet(store, changes string) (string, error) {
	var out bytes.Buffer
	s := &service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register, Stdout: &out, Stderr: io.Discard}
	err := s.Run(context.Background(), []string{"-store", store, "-lifecycle-set", changes})
	return out.String(), err
}

// TestLifecycleSetReachesEveryReplica: two replicas share a Redis store;
// one -lifecycle-set retires a version on both, an illegal change is
// refused by the registry's rules and changes nothing, and a replica
// that loses Redis reports not ready, with the reason, until it is back.
func TestLifecycleSetReachesEveryReplica(t *testing.T) {
	redis := redistest.Start(t)
	var bases []string
	var logs []*logs
	for range 2 {
		l, _ := start(t, &service.Service{Options: mcp.Options{Name: "warehouse"}, Register: register},
			"-store", redis.URL(), "-store-check", "50ms")
		logs = append(logs, l)
		bases = append(bases, "http://"+l.wait(t, "serving")["addr"].(string))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	for _, bad := range []string{"fail@9.9.9=retired", "fail@1.0.0=preview", "fail@1.0.0"} {
		if out, err := lifecycleSet(redis.URL(), bad); err == nil {
			t.Errorf("-lifecycle-set %s was accepted: %s", bad, out)
		}
	}
	out, err := lifecycleSet(redis.URL(), "fail@1.0.0=retired")
	if err != nil || !strings.Contains(out, "version 1") {
		t.Fatalf("-lifecycle-set: %q, %v", out, err)
	}
	for i, base := range bases {
		logs[i].wait(t, "lifecycle overlay applied")
		c := connect(ctx, t, base)
		if _, err := c.CallTool(ctx, "fail", map[string]any{"text": "x"}); err == nil {
			t.Errorf("replica %d still calls a retired version", i)
		}
		if res, err := c.CallTool(ctx, "echo", map[string]any{"text": "x"}); err != nil || res.IsError {
			t.Errorf("replica %d: echo: %+v %v", i, res, err)
		}
	}
	if _, err := lifecycleSet(redis.URL(), "fail@1.0.0=active"); err == nil {
		t.Error("a retired version was made active again")
	}

	redis.Stop()
	logs[0].wait(t, "shared store lost")
	code, body := get(t, bases[0]+"/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "shared store") {
		t.Errorf("/readyz without Redis: %d %q", code, body)
	}
	res, err := http.Post(bases[0]+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a request without Redis: %d, want 503", res.StatusCode)
	}
	redis.Restart()
	logs[0].wait(t, "shared store back")
	if code, body := get(t, bases[0]+"/readyz"); code != http.StatusOK {
		t.Errorf("/readyz with Redis back: %d %q", code, body)
	}
}
