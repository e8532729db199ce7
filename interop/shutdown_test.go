package interop

import (
	"bufio"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

// TestSIGTERMAnswersOpenSubscriptionsAndExitsZero: a subscriptions/listen
// open when SIGTERM arrives is answered, over stdio and over HTTP, and the
// service exits 0.
func TestSIGTERMAnswersOpenSubscriptionsAndExitsZero(t *testing.T) {
	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + statelessMeta + `}}`
	t.Run("stdio", func(t *testing.T) {
		s := startStdio(t, nil)
		s.send(listen)
		if got := s.recv(); !strings.Contains(got, "notifications/subscriptions/acknowledged") {
			t.Fatalf("listen: %s", got)
		}
		s.cmd.Process.Signal(syscall.SIGTERM)
		if got := s.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"L","result":`) {
			t.Errorf("the open listen was answered %s", got)
		}
		if code := s.exitCode(); code != 0 {
			t.Errorf("exit code %d after SIGTERM (%v)", code, s.waitErr)
		}
	})
	t.Run("HTTP", func(t *testing.T) {
		svc := startHTTP(t, append([]string{"-insecure-dev"}, investigatorFlags...)...)
		req, _ := http.NewRequest(http.MethodPost, svc.url, strings.NewReader(listen))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "subscriptions/listen")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		events := bufio.NewReader(res.Body)
		if got := nextEvent(t, events); !strings.Contains(got, "notifications/subscriptions/acknowledged") {
			t.Fatalf("listen: %s", got)
		}
		svc.cmd.Process.Signal(syscall.SIGTERM)
		if got := nextEvent(t, events); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"L","result":`) {
			t.Errorf("the open listen was answered %s", got)
		}
		<-svc.exited
		if code := svc.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit code %d after SIGTERM (%v)", code, svc.waitErr)
		}
	})
}
