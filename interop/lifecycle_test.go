package interop

import (
	"fmt"
	"strings"
	"testing"
)

// TestFailedReloadChangesNothing: a lifecycle file with one change that
// cannot apply (a version nobody published) next to one that can is
// refused whole, again and again, whatever order the file is read in: the
// other version stays active and the log says why. A good file then
// applies.
func TestFailedReloadChangesNothing(t *testing.T) {
	svc := startHTTP(t, append([]string{"-insecure-dev"}, investigatorFlags...)...)
	sid := initHTTP(t, svc.url)
	listed := func() []string {
		_, msg := post(t, svc.url, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
		var names []string
		tools, _ := msg["result"].(map[string]any)["tools"].([]any)
		for _, tool := range tools {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		return names
	}
	before := fmt.Sprint(listed())
	for i := range 6 {
		setLifecycle(t, svc.cmd.Process, svc.lifecycle, map[string]string{"crm.notes.append@1.0.0": "retired", "payments.release@9.9.9": "retired"})
		waitForLog(t, svc, `"msg":"lifecycle reload failed"`, i+1)
		if got := fmt.Sprint(listed()); got != before {
			t.Fatalf("reload %d failed and still changed the tools: %s, were %s", i, got, before)
		}
	}
	if !strings.Contains(svc.logs.String(), "no such tool version: payments.release@9.9.9") {
		t.Errorf("the log does not say why:\n%s", tail(svc.logs.String(), 1500))
	}
	setLifecycle(t, svc.cmd.Process, svc.lifecycle, map[string]string{"crm.notes.append@1.0.0": "retired"})
	waitForLog(t, svc, `"msg":"lifecycle reloaded"`, 1)
	if got := fmt.Sprint(listed()); strings.Contains(got, "crm.notes.append") {
		t.Errorf("a good file was not applied: %s", got)
	}
}
