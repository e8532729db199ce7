package interop

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// TestClosedStderrIsSurvived: the host closed the service's stderr before
// the service wrote its first log line. Each log line then fails to be
// written (EPIPE), where SIGPIPE used to kill the process with the request
// unanswered: calls are answered, and the service exits 0 at the end of
// its input.
func TestClosedStderrIsSurvived(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	s := startStdio(t, w)
	w.Close()
	s.handshake()
	for i := range 5 {
		s.send(lookupLine(i))
		if got := s.recv(); !strings.Contains(got, "PMT-771: HELD") {
			t.Fatalf("call %d: %s", i, got)
		}
	}
	s.in.Close()
	if code := s.exitCode(); code != 0 {
		t.Errorf("exit code %d (%v)", code, s.waitErr)
	}
}

// TestUnreadStderrNeitherStallsNorBlocksShutdown: nobody reads the
// service's stderr. Thousands of calls, each logged, are answered all the
// same; SIGTERM stops the service with exit code 0; and once stderr is
// read again, the log says how many lines it dropped meanwhile.
func TestUnreadStderrNeitherStallsNorBlocksShutdown(t *testing.T) {
	// More calls than the log's queue and a pipe hold: some 2 MB of call
	// log, of which the queue keeps 8,192 records and the pipe 64 KiB.
	const calls = oplog.DefaultBuffer + 2000
	run := func(t *testing.T) (*stdioService, *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		s := startStdio(t, w)
		w.Close()
		s.handshake()
		go func() {
			for i := range calls {
				if _, err := io.WriteString(s.in, lookupLine(i)+"\n"); err != nil {
					return
				}
			}
		}()
		for i := range calls {
			if got := s.recv(); !strings.Contains(got, "PMT-771: HELD") {
				t.Fatalf("answer %d: %s", i, got)
			}
		}
		return s, r
	}
	t.Run("SIGTERM", func(t *testing.T) {
		s, _ := run(t)
		s.cmd.Process.Signal(syscall.SIGTERM)
		if code := s.exitCode(); code != 0 {
			t.Errorf("exit code %d after SIGTERM (%v)", code, s.waitErr)
		}
	})
	t.Run("read again", func(t *testing.T) {
		s, r := run(t)
		logs := &logBuffer{}
		go io.Copy(logs, r)
		deadline := time.Now().Add(guard)
		for !strings.Contains(logs.String(), `"msg":"log records dropped"`) {
			if time.Now().After(deadline) {
				t.Fatalf("the dropped log lines were not reported; the log ends:\n%s", tail(logs.String(), 600))
			}
			time.Sleep(10 * time.Millisecond)
		}
		s.in.Close()
		if code := s.exitCode(); code != 0 {
			t.Errorf("exit code %d (%v)", code, s.waitErr)
		}
	})
}

// TestLogLinesAreClipped: a request that carries megabytes in the strings
// the service logs (the method in the access log, a call's arguments in
// the call log) is logged in a line of some kilobytes.
func TestLogLinesAreClipped(t *testing.T) {
	svc := startHTTP(t, append([]string{"-insecure-dev"}, investigatorFlags...)...)
	sid := initHTTP(t, svc.url)
	huge := strings.Repeat("m", 3<<20)
	post(t, svc.url, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":1,"method":"`+huge+`"}`)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crm.notes.append","arguments":{"customer_id":"C-1","note":"` + huge + `"}}}`
	if res, msg := post(t, svc.url, map[string]string{"Mcp-Session-Id": sid}, call); res.StatusCode != 200 || msg["result"] == nil {
		t.Fatalf("the note: %d %v", res.StatusCode, msg)
	}
	svc.stop(t)
	longest := 0
	for _, line := range strings.Split(svc.logs.String(), "\n") {
		longest = max(longest, len(line))
	}
	if longest > 64<<10 {
		t.Errorf("a log line of %d bytes", longest)
	}
	if !strings.Contains(svc.logs.String(), `"msg":"tool call"`) || !strings.Contains(svc.logs.String(), "(3145728 bytes)") {
		t.Errorf("the call log does not show the clipped note:\n%s", tail(svc.logs.String(), 2000))
	}
}
