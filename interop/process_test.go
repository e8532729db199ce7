// Package interop drives the built bankpayments service with clients
// nobody here wrote: the official Go SDK over stdio and Streamable HTTP,
// and plain net/http for the stateless revision and the HTTP security
// rules. The TypeScript SDK client and the conformance suite run from
// `make conformance` (ts/).
package interop

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// binary is the bankpayments service, built once for the package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "interop")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "bankpayments")
	// Built in the main module, whose requirements the service's are (this
	// module requires only what its tests import).
	build := exec.Command("go", "build", "-o", binary, "./examples/bankpayments")
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	code := 1
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building bankpayments:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

const snapshotDate = "2026-03-31"

// logBuffer collects a process's stderr, safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// service is a running bankpayments over HTTP.
type service struct {
	cmd       *exec.Cmd
	logs      *logBuffer
	url       string // the MCP endpoint
	lifecycle string
	exited    chan struct{} // closed when the process has exited
	waitErr   error
}

// startHTTP runs bankpayments -transport http on a free loopback port and
// waits until it serves. The test stops it (SIGTERM) when it ends.
func startHTTP(t *testing.T, args ...string) *service {
	t.Helper()
	lifecycle := filepath.Join(t.TempDir(), "lifecycle.json")
	if err := os.WriteFile(lifecycle, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runHTTP(t, append([]string{"-lifecycle", lifecycle}, args...)...)
	s.lifecycle = lifecycle
	return s
}

// runHTTP runs bankpayments -transport http on a free loopback port with
// args and no lifecycle file, and waits until it serves.
func runHTTP(t *testing.T, args ...string) *service {
	t.Helper()
	args = append([]string{"-transport", "http", "-addr", "127.0.0.1:0", "-snapshot-date", snapshotDate}, args...)
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &service{cmd: cmd, logs: &logBuffer{}}
	addr := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.logs, line)
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving" && rec.Addr != "" {
				addr <- rec.Addr
			}
		}
	}()
	s.exited = make(chan struct{})
	go func() {
		<-copied
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case a := <-addr:
		s.url = "http://" + a + "/mcp"
	case <-s.exited:
		t.Fatalf("the service exited: %v\n%s", s.waitErr, s.logs)
	case <-time.After(20 * time.Second):
		t.Fatalf("the service did not start\n%s", s.logs)
	}
	return s
}

// stop ends the service (SIGTERM, its graceful shutdown) and returns once
// it has exited, so that its logs are complete.
func (s *service) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		t.Error("the service did not stop on SIGTERM")
	}
}

// setLifecycle rewrites the lifecycle file and tells the process to apply
// it (SIGHUP).
func setLifecycle(t *testing.T, p *os.Process, file string, changes map[string]string) {
	t.Helper()
	data, _ := json.Marshal(changes)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
}

// issuer signs the test's tokens; the service reads the public half from a
// PEM file.
type issuer struct {
	key     *rsa.PrivateKey
	keyFile string
}

const (
	issuerURL = "https://idp.bank.example"
	audience  = "https://payments.bank.example/mcp"
)

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	file := filepath.Join(t.TempDir(), "issuer.pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return &issuer{key: key, keyFile: file}
}

// args are the service flags that trust this issuer.
func (i *issuer) args() []string {
	return []string{"-jwt-issuer", issuerURL, "-jwt-audience", audience, "-jwt-key-file", i.keyFile}
}

// token signs a token for a principal, valid for an hour unless edit says
// otherwise.
func (i *issuer) token(t *testing.T, agent, tenant, scopes, clearance string, edit ...func(jwt.MapClaims)) string {
	t.Helper()
	now := time.Now()
	claims := jwt.MapClaims{"iss": issuerURL, "aud": audience, "sub": agent, "tenant": tenant, "scope": scopes,
		"clearance": clearance, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	for _, e := range edit {
		e(claims)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["typ"] = "at+jwt" // an access token (RFC 9068)
	s, err := tok.SignedString(i.key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The two principals of the tests: the investigator sees the lookup and
// the CRM note; the retail teller only the CRM note.
var (
	investigatorFlags = []string{"-agent", "payments-investigator", "-tenant", "wholesale", "-scopes", "payments.read,crm.write", "-clearance", "confidential"}
	tellerFlags       = []string{"-agent", "retail-teller", "-tenant", "retail", "-scopes", "crm.write", "-clearance", "internal"}
)

func (i *issuer) investigator(t *testing.T) string {
	return i.token(t, "payments-investigator", "wholesale", "payments.read crm.write", "confidential")
}

func (i *issuer) teller(t *testing.T) string {
	return i.token(t, "retail-teller", "retail", "crm.write", "internal")
}

func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
