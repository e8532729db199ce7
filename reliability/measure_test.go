package reliability

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var measure = flag.Bool("measure", false, "measure the built service (peak RSS, CPU time, bounds, latency under a flood), write testdata/measured.json and render docs/reliability.md; without the race detector")

const (
	measuredFile = "testdata/measured.json"
	// measureCommand is the command the figures of measuredFile come from.
	measureCommand = "go test ./reliability -run '^TestMeasure$' -measure -count=1 -v"
)

// measuredRun is what one run of measureCommand found: the machine it ran
// on, and its figures.
type measuredRun struct {
	Cores     int           `json:"cores"`
	GoVersion string        `json:"goVersion"`
	Rows      []measurement `json:"rows"`
}

// measurement is one figure of the report's measured section: what was
// measured and the figure, as the run wrote it.
type measurement struct {
	ID     string `json:"id"`
	What   string `json:"what"`
	Figure string `json:"figure"`
}

// TestMeasure measures the built bankpayments service as an attacker
// would load it, and records the figures: the peak RSS each hostile class
// of request costs as a multiple of its size, and the CPU time it takes as
// a multiple of a valid request's of the same size; what a stdio client
// that never reads makes the process hold; the sessions and streams at
// the transport's bounds and what each costs; and the latency a
// well-behaved HTTP client sees while others flood the server with 4 MiB
// bodies. Nothing here asserts a figure: the tests of the other files hold
// the behaviour (bounded, answered, 503, exit 0).
func TestMeasure(t *testing.T) {
	if !*measure {
		t.Skip("run with -measure (see measureCommand)")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("measuring reads /proc")
	}
	bin := buildService(t)
	var rows []measurement
	add := func(id, what, figure string) {
		t.Logf("%s: %s", what, figure)
		rows = append(rows, measurement{ID: id, What: what, Figure: figure})
	}
	measureHostileRequests(t, bin, add)
	measureUnreadStdio(t, bin, add)
	measureHTTPBounds(t, bin, add)
	measureHTTPFlood(t, bin, add)
	run := measuredRun{Cores: runtime.NumCPU(), GoVersion: runtime.Version(), Rows: rows}
	data, err := json.MarshalIndent(run, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(measuredFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	figures, err := loadFigures()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reportFile, render(figures, run), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadMeasured() (measuredRun, error) {
	var run measuredRun
	data, err := os.ReadFile(measuredFile)
	if err != nil {
		return run, err
	}
	if err := json.Unmarshal(data, &run); err != nil {
		return run, fmt.Errorf("%s: %v", measuredFile, err)
	}
	return run, nil
}

// buildService builds bankpayments as its users run it (no race detector).
func buildService(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bankpayments")
	out, err := exec.Command("go", "build", "-o", bin, "../examples/bankpayments").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// procStatus reads a field of /proc/pid/status in bytes (VmHWM, VmRSS).
func procStatus(pid int, field string) int64 {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuTime is the CPU time every thread of pid has run, to the nanosecond
// (/proc/pid/task/*/schedstat), where /proc/pid/stat counts in ticks.
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var total int64
	for _, f := range tasks {
		data, _ := os.ReadFile(f)
		fields := strings.Fields(string(data))
		if len(fields) > 0 {
			n, _ := strconv.ParseInt(fields[0], 10, 64)
			total += n
		}
	}
	return time.Duration(total)
}

// stdioProcess is the built service over stdio, as treasurer.
type stdioProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startStdioProcess(t *testing.T, bin string) *stdioProcess {
	t.Helper()
	cmd := exec.Command(bin, "-agent", treasurer.AgentID, "-tenant", treasurer.Tenant,
		"-scopes", strings.Join(treasurer.Scopes, ","), "-clearance", string(treasurer.MaxClassification), "-snapshot-date", "2026-03-31")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &stdioProcess{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	t.Cleanup(func() { p.stop() })
	p.send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"measure","version":"1"}}}`))
	p.recv(t)
	p.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return p
}

func (p *stdioProcess) send(line []byte) error {
	if _, err := p.in.Write(line); err != nil {
		return err
	}
	_, err := p.in.Write([]byte{'\n'})
	return err
}

func (p *stdioProcess) recv(t *testing.T) string {
	t.Helper()
	line, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("the service's output ended: %v", err)
	}
	return line
}

func (p *stdioProcess) stop() {
	p.in.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// costOf runs req on a fresh process and returns the peak RSS it added
// and the CPU time it took.
func costOf(t *testing.T, bin string, req []byte) (rss int64, cpu time.Duration) {
	t.Helper()
	p := startStdioProcess(t, bin)
	defer p.stop()
	// Warm: the code a call runs is paged in and its pools are filled.
	p.send([]byte(validOfSize(`"warm"`, 1024)))
	p.recv(t)
	pid := p.cmd.Process.Pid
	hwm, cpu0 := procStatus(pid, "VmHWM"), cpuTime(pid)
	go p.send(req)
	p.recv(t)
	return procStatus(pid, "VmHWM") - hwm, cpuTime(pid) - cpu0
}

// medianOf runs f n times and returns the medians of its two results.
func medianOf(n int, f func() (int64, time.Duration)) (int64, time.Duration) {
	var rs []int64
	var cs []time.Duration
	for range n {
		r, c := f()
		rs, cs = append(rs, r), append(cs, c)
	}
	slices.Sort(rs)
	slices.Sort(cs)
	return rs[n/2], cs[n/2]
}

// mib prints a size in MiB, or in KiB below one MiB.
func mib(n int64) string {
	if n < 1<<20 && n > -1<<20 {
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// measureHostileRequests: each hostile class, and a valid request of the
// same size, over stdio, each on a fresh process, three times.
func measureHostileRequests(t *testing.T, bin string, add func(id, what, figure string)) {
	const size = 8 << 20
	valid := []byte(validOfSize(`"v"`, size))
	vRSS, vCPU := medianOf(3, func() (int64, time.Duration) { return costOf(t, bin, valid) })
	add("rss/valid", fmt.Sprintf("A valid `tools/call` of %s (a CRM note that long), over stdio", mib(size)),
		fmt.Sprintf("peak RSS +%s (%.1f× its size); CPU %v", mib(vRSS), float64(vRSS)/size, vCPU.Round(time.Millisecond)))
	for i, c := range hostileClasses {
		n := size
		note := ""
		if c.decoders {
			note = " (the generated decoder's path)"
		}
		req := []byte(c.build(`"h"`, n))
		ref := valid
		if n != size {
			ref = []byte(validOfSize(`"v"`, len(req)))
		}
		rss, cpu := medianOf(3, func() (int64, time.Duration) { return costOf(t, bin, req) })
		_, refCPU := vRSS, vCPU
		if n != size {
			_, refCPU = medianOf(3, func() (int64, time.Duration) { return costOf(t, bin, ref) })
		}
		add("rss/"+strconv.Itoa(i), fmt.Sprintf("%s, %s, over stdio%s", c.name, mib(int64(len(req))), note),
			fmt.Sprintf("peak RSS +%s (%.1f× its size); CPU %v, %.1f× a valid request's of that size",
				mib(rss), float64(rss)/float64(len(req)), cpu.Round(time.Millisecond), float64(cpu)/float64(max(refCPU, time.Microsecond))))
	}
}

// measureUnreadStdio: a client writes pings and never reads; the server
// stops reading, and the client's writes block.
func measureUnreadStdio(t *testing.T, bin string, add func(id, what, figure string)) {
	p := startStdioProcess(t, bin)
	pid := p.cmd.Process.Pid
	base := procStatus(pid, "VmHWM")
	var written atomic.Int64
	go func() {
		for i := 0; i < 1_000_000; i++ {
			if p.send([]byte(`{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"ping"}`)) != nil {
				return
			}
			written.Add(1)
		}
	}()
	// Until the client's writes stop moving.
	for last := int64(-1); written.Load() != last; time.Sleep(500 * time.Millisecond) {
		last = written.Load()
	}
	hwm := procStatus(pid, "VmHWM")
	p.stop()
	add("stdio/unread", "A stdio client writing up to 1,000,000 pings without reading any answer",
		fmt.Sprintf("its writes blocked after %d pings; the server's peak RSS grew by %s (from %s)", written.Load(), mib(hwm-base), mib(base)))
}

// httpProcess is the built service over HTTP, authenticating tokens the
// test signs.
type httpProcess struct {
	cmd    *exec.Cmd
	url    string
	key    *ecdsa.PrivateKey
	client *http.Client
}

func startHTTPProcess(t *testing.T, bin string, args ...string) *httpProcess {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	keyFile := filepath.Join(t.TempDir(), "issuer.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	url := "http://" + addr + "/mcp"
	cmd := exec.Command(bin, append([]string{"-transport", "http", "-addr", addr, "-jwt-issuer", tokenIssuer, "-jwt-audience", url,
		"-jwt-key-file", keyFile, "-snapshot-date", "2026-03-31"}, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &httpProcess{cmd: cmd, url: url, key: key, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0}}}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for range 200 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return p
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("the service did not listen")
	return nil
}

// token signs an access token for agent, with the treasurer's rights.
func (p *httpProcess) token(agent string) string {
	now := time.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{
		"iss": tokenIssuer, "aud": p.url, "sub": agent, "tenant": treasurer.Tenant,
		"scope": strings.Join(treasurer.Scopes, " "), "clearance": string(treasurer.MaxClassification),
		"iat": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	tok.Header["typ"] = "at+jwt"
	s, _ := tok.SignedString(p.key)
	return s
}

// status posts body and returns the answer's status, the answer read and
// dropped.
func (p *httpProcess) status(t *testing.T, token, body string, headers ...string) int {
	t.Helper()
	res, err := p.post(context.Background(), token, strings.NewReader(body), headers...)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func (p *httpProcess) post(ctx context.Context, token string, body io.Reader, headers ...string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return p.client.Do(req)
}

const initializeBody = `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"measure","version":"1"}}}`

// measureHTTPBounds: sessions up to the bound (from as many callers as its
// per-caller bound needs), initialize's latency as the table fills, the
// memory of a session and of an open stream, and the answer past each
// bound.
func measureHTTPBounds(t *testing.T, bin string, add func(id, what, figure string)) {
	p := startHTTPProcess(t, bin)
	pid := p.cmd.Process.Pid
	const sessions, perCaller = 4096, 64 // mcphttp's defaults
	var tokens []string
	for c := range sessions / perCaller {
		tokens = append(tokens, p.token("agent-"+strconv.Itoa(c)))
	}
	initialize := func(tok string) (int, time.Duration) {
		start := time.Now()
		status := p.status(t, tok, initializeBody)
		return status, time.Since(start)
	}
	// Warm (code paged in, connections open): the first caller's
	// sessions, then count from here.
	for range perCaller {
		initialize(tokens[0])
	}
	base := procStatus(pid, "VmRSS")
	var first, last []time.Duration
	opened := 0
	for i := range sessions - perCaller {
		status, d := initialize(tokens[1+i/perCaller])
		if status == http.StatusOK {
			opened++
		}
		if i < 500 {
			first = append(first, d)
		}
		if i >= sessions-perCaller-500 {
			last = append(last, d)
		}
	}
	rss := procStatus(pid, "VmRSS")
	past, _ := initialize(p.token("one-more-caller"))
	opened += perCaller // the warm-up's caller holds its bound's worth
	add("http/sessions", fmt.Sprintf("HTTP sessions opened up to `MaxSessions` (%d, from %d callers)", sessions, len(tokens)),
		fmt.Sprintf("%d opened; the next initialize answered %d; initialize's median %v at the first 500 and %v at the last 500; RSS %s more, %.1f KiB a session",
			opened, past, median(first).Round(time.Microsecond), median(last).Round(time.Microsecond), mib(rss-base), float64(rss-base)/float64(sessions-perCaller)/1024))

	// Streams: stateless listens, each held open, from as many callers as
	// their share needs.
	const streams = 512 // mcphttp's default
	listen := statelessBody(`"L"`, "subscriptions/listen", `{"notifications":{"toolsListChanged":true}}`)
	headers := statelessHeaders("subscriptions/listen", "")
	base = procStatus(pid, "VmRSS")
	var open []*http.Response
	for i := range streams {
		res, err := p.post(context.Background(), tokens[i%len(tokens)], strings.NewReader(listen), headers...)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			res.Body.Close()
			break
		}
		bufio.NewReader(res.Body).ReadString('\n') // the acknowledgement has begun
		open = append(open, res)
	}
	rss = procStatus(pid, "VmRSS")
	// Not read: were it admitted, its stream would never end.
	res, err := p.post(context.Background(), p.token("one-more-caller"), strings.NewReader(listen), headers...)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, r := range open {
		r.Body.Close()
	}
	add("http/streams", fmt.Sprintf("HTTP event streams (subscriptions/listen) opened up to `MaxStreams` (%d, from %d callers)", streams, len(tokens)),
		fmt.Sprintf("%d opened; the next answered %d; RSS %s more, %.1f KiB a stream", len(open), res.StatusCode, mib(rss-base), float64(rss-base)/float64(max(1, len(open)))/1024))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// measureHTTPFlood: a well-behaved client's tools/list calls, alone, then
// while one other caller posts 4 MiB hostile bodies on 48 connections as
// fast as they are answered, then while 48 other callers do, one
// connection each.
func measureHTTPFlood(t *testing.T, bin string, add func(id, what, figure string)) {
	p := startHTTPProcess(t, bin)
	pid := p.cmd.Process.Pid
	good := p.token("well-behaved")
	list := statelessBody(`"l"`, "tools/list", `{}`)
	calls := func(n int) (lat []time.Duration, refused int) {
		for range n {
			start := time.Now()
			if p.status(t, good, list, statelessHeaders("tools/list", "")...) != http.StatusOK {
				refused++
				continue
			}
			lat = append(lat, time.Since(start))
		}
		return lat, refused
	}
	calls(200) // warm
	alone, _ := calls(2000)
	add("http/alone", "A well-behaved HTTP client's tools/list, alone, 2,000 calls one after another",
		fmt.Sprintf("p50 %v, p99 %v", median(alone).Round(time.Microsecond), percentile(alone, 0.99).Round(time.Microsecond)))

	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":"f","method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-31"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},`)
	members(&b, "k", 4<<20-64)
	b.WriteString(`}}}`)
	body := b.String()
	flood := func(id, what string, tokens []string, n int) {
		var served, busy atomic.Int64
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for _, tok := range tokens {
			wg.Go(func() {
				for ctx.Err() == nil {
					res, err := p.post(ctx, tok, strings.NewReader(body), statelessHeaders("tools/call", "payments.lookup")...)
					if err != nil {
						continue
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode == http.StatusServiceUnavailable {
						busy.Add(1)
					} else {
						served.Add(1)
					}
				}
			})
		}
		time.Sleep(2 * time.Second) // the flood under way
		lat, refused := calls(n)
		stop()
		wg.Wait()
		add(id, what, fmt.Sprintf("the client: %d of %d answered, p50 %v, p99 %v, %d answered 503; the flood: %d served, %d answered 503; the server's peak RSS so far %s",
			len(lat), n, median(lat).Round(time.Microsecond), percentile(lat, 0.99).Round(time.Microsecond), refused,
			served.Load(), busy.Load(), mib(procStatus(pid, "VmHWM"))))
	}
	const conns = 48
	one := make([]string, conns)
	for i := range one {
		one[i] = p.token("flooder")
	}
	flood("http/flood-one", fmt.Sprintf("The same client's tools/list, 2,000 calls, while one other caller posts %s hostile bodies (`_meta` of many members) on %d connections as fast as they are answered (`MaxInFlight` 32, `MaxInFlightPerCaller` 8)", mib(int64(len(body))), conns), one, 2000)
	many := make([]string, conns)
	for i := range many {
		many[i] = p.token("flooder-" + strconv.Itoa(i))
	}
	flood("http/flood-many", fmt.Sprintf("The same client's tools/list, 100 calls, while %d other callers each post those bodies on a connection of their own", conns), many, 100)
}
