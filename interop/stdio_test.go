package interop

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// guard only turns a hang into a failure; no test measures time.
const guard = 20 * time.Second

// stdioService is bankpayments over stdio, the test its client.
type stdioService struct {
	t         *testing.T
	cmd       *exec.Cmd
	in        io.WriteCloser
	out       *bufio.Reader
	lifecycle string
	exited    chan struct{}
	waitErr   error
}

// startStdio runs bankpayments over stdio as the investigator, with stderr
// going to stderr (nowhere when nil), and a lifecycle file of no changes.
func startStdio(t *testing.T, stderr *os.File) *stdioService {
	t.Helper()
	lifecycle := filepath.Join(t.TempDir(), "lifecycle.json")
	if err := os.WriteFile(lifecycle, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, append(append([]string{}, investigatorFlags...), "-lifecycle", lifecycle, "-snapshot-date", snapshotDate)...)
	if stderr != nil {
		cmd.Stderr = stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &stdioService{t: t, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), lifecycle: lifecycle, exited: make(chan struct{})}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-s.exited:
		case <-time.After(guard):
			cmd.Process.Kill()
			<-s.exited
		}
	})
	return s
}

func (s *stdioService) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

// recv reads the service's next line.
func (s *stdioService) recv() string {
	s.t.Helper()
	line := make(chan string, 1)
	go func() {
		l, _ := s.out.ReadString('\n')
		line <- strings.TrimSuffix(l, "\n")
	}()
	select {
	case l := <-line:
		if l == "" {
			s.t.Fatalf("the service's output ended (%v)", s.waitErrIfExited())
		}
		return l
	case <-time.After(guard):
		s.t.Fatal("no line from the service")
	}
	return ""
}

func (s *stdioService) waitErrIfExited() error {
	select {
	case <-s.exited:
		return s.waitErr
	default:
		return errors.New("still running")
	}
}

func (s *stdioService) handshake() {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if got := s.recv(); !strings.Contains(got, `"protocolVersion":"2025-06-18"`) {
		s.t.Fatalf("initialize: %s", got)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// exitCode waits for the process and returns its exit code, -1 when a
// signal ended it.
func (s *stdioService) exitCode() int {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(guard):
		s.t.Fatal("the service did not exit")
	}
	return s.cmd.ProcessState.ExitCode()
}

func lookupLine(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"` + snapshotDate + `"}}}`
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// nextEvent returns the data of the next SSE event.
func nextEvent(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		for {
			e, err := readEvent(br)
			if err != nil {
				got <- "(the stream ended: " + err.Error() + ")"
				return
			}
			if e.data != "" {
				got <- e.data
				return
			}
		}
	}()
	select {
	case d := <-got:
		return d
	case <-time.After(guard):
		t.Fatal("no event")
	}
	return ""
}

// initHTTP opens a handshake-era session on a development server.
func initHTTP(t *testing.T, url string) string {
	t.Helper()
	res, msg := post(t, url, nil, `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d %v", res.StatusCode, msg)
	}
	post(t, url, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid
}

// waitForLog waits until the service has logged want n times.
func waitForLog(t *testing.T, svc *service, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for strings.Count(svc.logs.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the service did not log %s %d times:\n%s", want, n, tail(svc.logs.String(), 1500))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
