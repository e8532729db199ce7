package interop

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// fleetRevision is the handshake revision the fleet's clients speak: the
// era whose sessions the replicas share.
const fleetRevision = "2025-11-25"

// balancer is a reverse proxy in front of replicas (httputil.ReverseProxy,
// as a load balancer is one), passing each request to the next replica
// in turn (roundRobin).
type balancer struct {
	rr  *roundRobin
	url string // the proxy's MCP endpoint
}

func newBalancer(t *testing.T, replicas []*service) *balancer {
	t.Helper()
	rr := &roundRobin{down: map[int]bool{}}
	for _, r := range replicas {
		rr.targets = append(rr.targets, must(url.Parse(r.url)))
		rr.served = append(rr.served, 0)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.SetURL(&url.URL{Scheme: "http", Host: rr.targets[0].Host}) },
		Transport:     rr, // which replica: the next one
		FlushInterval: -1, // event streams pass as they come
	}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	return &balancer{rr: rr, url: ts.URL + "/mcp"}
}

// served is what each replica has served so far.
func (b *balancer) served() []int {
	b.rr.mu.Lock()
	defer b.rr.mu.Unlock()
	return append([]int(nil), b.rr.served...)
}

// markDown sends replica i no more requests.
func (b *balancer) markDown(i int) {
	b.rr.mu.Lock()
	defer b.rr.mu.Unlock()
	b.rr.down[i] = true
}

// base is a replica's URL without the endpoint's path.
func base(s *service) string { return strings.TrimSuffix(s.url, "/mcp") }

// lifecycleSet runs the service binary's -lifecycle-set against the store.
func lifecycleSet(t *testing.T, store, changes string) string {
	t.Helper()
	out, err := exec.Command(binary, "-store", store, "-lifecycle-set", changes).CombinedOutput()
	if err != nil {
		t.Fatalf("-lifecycle-set %s: %v\n%s", changes, err, out)
	}
	return string(out)
}

// waitReady polls a replica's /readyz until its status is want.
func waitReady(t *testing.T, s *service, want int) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(base(s) + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == want {
				return string(body)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz of %s never answered %d", s.url, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// callLookup makes the call every fleet client makes, and says whether
// its answer is the one right answer; err is a refusal (the call was
// not answered), never a wrong answer.
func callLookup(ctx context.Context, cs *sdk.ClientSession) (right bool, err error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.lookup", Arguments: map[string]any{"reference": "PMT-771", "as_of": snapshotDate}})
	if err != nil {
		return false, err
	}
	if res.IsError || len(res.Content) != 1 {
		return false, nil
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	return ok && tc.Text == "PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'", nil
}

// TestFleetBehindALoadBalancer runs three bankpayments replicas sharing
// one Redis (-store) and one request-state key behind a round-robin
// proxy, and shows that the fleet answers as one server: a session's
// calls land on every replica, a lifecycle change applied once reaches
// all of them, a stream resumes on another replica when its own dies, and
// a Redis outage is refused, never answered wrongly, and recovered from.
func TestFleetBehindALoadBalancer(t *testing.T) {
	redis := redistest.Start(t)
	iss := newIssuer(t)
	key := make([]byte, 32)
	rand.Read(key)
	keyFile := filepath.Join(t.TempDir(), "request-state.key")
	if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(key)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append(iss.args(), "-store", redis.URL(), "-store-check", "100ms", "-request-state-key-file", keyFile)
	replicas := []*service{runHTTP(t, args...), runHTTP(t, args...), runHTTP(t, args...)}
	proxy := newBalancer(t, replicas)
	ctx := timeout(t)
	token := iss.investigator(t)

	t.Run("a session's calls land on every replica", func(t *testing.T) {
		cs := connectHTTP(t, ctx, proxy.url, token, fleetRevision, nil)
		before := proxy.served()
		const calls = 1000
		start := time.Now()
		for i := range calls {
			right, err := callLookup(ctx, cs)
			if err != nil || !right {
				t.Fatalf("call %d: right %v, %v", i, right, err)
			}
		}
		elapsed := time.Since(start)
		after := proxy.served()
		for i := range replicas {
			if got := after[i] - before[i]; got < calls/len(replicas)-1 {
				t.Errorf("replica %d got %d of the %d calls", i, got, calls)
			}
		}
		t.Logf("%d calls of one SDK session through the proxy to 3 replicas: %.0f calls/s", calls, calls/elapsed.Seconds())
	})

	t.Run("a lifecycle change applied once reaches every replica", func(t *testing.T) {
		changed := make([]chan struct{}, len(replicas))
		listeners := make([]*sdk.ClientSession, len(replicas))
		for i, r := range replicas {
			changed[i] = make(chan struct{}, 1)
			listeners[i] = connectHTTP(t, ctx, r.url, token, fleetRevision, changed[i])
			if got := toolNames(t, ctx, listeners[i]); strings.Join(got, ",") != "crm.notes.append,payments.lookup" {
				t.Fatalf("replica %d lists %v before the change", i, got)
			}
		}
		start := time.Now()
		out := lifecycleSet(t, redis.URL(), "crm.notes.append@1.0.0=retired")
		written := time.Now()
		var last time.Duration
		for i := range replicas {
			select {
			case <-changed[i]:
			case <-ctx.Done():
				t.Fatalf("replica %d's listening client got no notifications/tools/list_changed", i)
			}
			last = time.Since(written)
			if got := toolNames(t, ctx, listeners[i]); strings.Join(got, ",") != "payments.lookup" {
				t.Errorf("replica %d lists %v after the change", i, got)
			}
		}
		t.Logf("%s-lifecycle-set took %v (a process start included); every replica's client had tools/list_changed %v after it returned",
			out, written.Sub(start).Round(time.Millisecond), last.Round(time.Microsecond))
	})

	t.Run("Redis stopped and restarted under load", func(t *testing.T) {
		var right, refused, wrong atomic.Int64
		var afterRecovery atomic.Int64
		var recovered atomic.Bool
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cs *sdk.ClientSession
			defer func() {
				if cs != nil {
					cs.Close()
				}
			}()
			for n := 0; n < 20000; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if cs == nil {
					transport := &sdk.StreamableClientTransport{Endpoint: proxy.url, HTTPClient: &http.Client{Transport: bearer{token: token}}, MaxRetries: -1}
					var err error
					if cs, err = sdkClient(nil).Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: fleetRevision}); err != nil {
						cs = nil
						refused.Add(1)
						time.Sleep(10 * time.Millisecond)
						continue
					}
				}
				ok, err := callLookup(ctx, cs)
				switch {
				case err != nil:
					refused.Add(1)
					cs.Close()
					cs = nil
					time.Sleep(10 * time.Millisecond)
				case !ok:
					wrong.Add(1)
				default:
					right.Add(1)
					if recovered.Load() {
						afterRecovery.Add(1)
					}
				}
			}
		}()
		redis.Stop()
		for i, r := range replicas {
			if body := waitReady(t, r, http.StatusServiceUnavailable); !strings.Contains(body, "shared store") {
				t.Errorf("replica %d's /readyz without Redis: %q", i, body)
			}
		}
		// The outage lasts until the load has met it (a call on a replica
		// that must read the session from the store), however slowly the
		// load runs on this machine, or until the deadline says it never
		// will: the check below then fails.
		for deadline := time.Now().Add(15 * time.Second); refused.Load() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		redis.Restart()
		for _, r := range replicas {
			waitReady(t, r, http.StatusOK)
		}
		recovered.Store(true)
		deadline := time.Now().Add(30 * time.Second)
		for afterRecovery.Load() < 100 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		if wrong.Load() != 0 {
			t.Errorf("%d calls answered wrongly", wrong.Load())
		}
		if afterRecovery.Load() < 100 {
			t.Errorf("%d right answers once Redis was back, want 100", afterRecovery.Load())
		}
		if refused.Load() == 0 {
			t.Error("no call was refused while Redis was down")
		}
		t.Logf("under load through the outage: %d right, %d refused (503 or no session), %d wrong", right.Load(), refused.Load(), wrong.Load())
	})

	t.Run("a replica killed mid-stream: the client resumes on another", func(t *testing.T) {
		a, b := replicas[0], replicas[1]
		auth := map[string]string{"Authorization": "Bearer " + token}
		id := initializeRaw(t, a.url, auth)
		with := map[string]string{"Authorization": "Bearer " + token, mcphttp.HeaderSessionID: id, mcphttp.HeaderProtocolVersion: fleetRevision}
		stream := getStream(t, a.url, with)
		var got []sseEvent
		// The priming event; then, live, the first change's notification.
		got = append(got, stream.next(t))
		changes := []string{"payments.lookup@1.0.0=retired", "payments.release@1.0.0=deprecated", "payments.lookup@2.0.0=deprecated"}
		lifecycleSet(t, redis.URL(), changes[0])
		got = append(got, stream.next(t))
		// The connection breaks; the next changes' notifications are
		// kept in the shared store only, and then the replica dies. Each
		// change is applied before the next is made: the overlay is the
		// whole map of changes, so two made at once may be applied in one
		// go, with one notification for both.
		stream.body.Close()
		for _, c := range changes[1:] {
			version := strings.TrimSuffix(strings.Fields(lifecycleSet(t, redis.URL(), c))[3], ":")
			waitLog(t, a, `"msg":"lifecycle overlay applied","version":`+version+"}")
		}
		a.cmd.Process.Kill()
		<-a.exited
		proxy.markDown(0)
		live := len(got)
		last := got[len(got)-1].id
		with[mcphttp.HeaderLastEventID] = last
		resumed := getStream(t, b.url, with)
		replayed := resumed.rest()
		got = append(got, replayed...)

		// An event with no data primes a stream with a position (SEP-1699):
		// the replay's first repeats the Last-Event-ID.
		seen := map[string]bool{}
		var notes int
		for _, e := range got {
			if e.data == "" {
				continue
			}
			if seen[e.id] {
				t.Errorf("event %s arrived twice", e.id)
			}
			seen[e.id] = true
			if strings.Contains(e.data, "notifications/tools/list_changed") {
				notes++
			}
		}
		if notes != len(changes) || len(seen) != len(changes) {
			t.Errorf("%d notifications/tools/list_changed across the two replicas, want %d: %v", notes, len(changes), got)
		}
		t.Logf("stream events: %d read from the replica that died, %d replayed by another from %s", live, len(replayed), last)
	})
}

// initializeRaw opens a session with plain HTTP and returns its id.
func initializeRaw(t *testing.T, url string, headers map[string]string) string {
	t.Helper()
	res, _ := post(t, url, headers, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+fleetRevision+`","capabilities":{},"clientInfo":{"name":"fleet","version":"0"}}}`)
	id := res.Header.Get(mcphttp.HeaderSessionID)
	if res.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d", res.StatusCode)
	}
	with := map[string]string{mcphttp.HeaderSessionID: id, mcphttp.HeaderProtocolVersion: fleetRevision}
	for k, v := range headers {
		with[k] = v
	}
	if res, _ := post(t, url, with, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", res.StatusCode)
	}
	return id
}

// sseEvent is one event of an event stream: its id and its data.
type sseEvent struct{ id, data string }

func (e sseEvent) String() string { return fmt.Sprintf("%s %q", e.id, e.data) }

// sseStream reads a GET stream's events.
type sseStream struct {
	body io.ReadCloser
	r    *bufio.Reader
}

func getStream(t *testing.T, url string, headers map[string]string) *sseStream {
	t.Helper()
	req, _ := http.NewRequestWithContext(timeout(t), http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
	s := &sseStream{body: res.Body, r: bufio.NewReader(res.Body)}
	t.Cleanup(func() { res.Body.Close() })
	return s
}

func (s *sseStream) read() (sseEvent, error) { return readEvent(s.r) }

// readEvent returns the next whole event of an event stream, one with an
// id or data; an event cut off by the end of the stream is none.
func readEvent(br *bufio.Reader) (sseEvent, error) {
	var e sseEvent
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return sseEvent{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "" && (e.id != "" || e.data != ""):
			return e, nil
		case strings.HasPrefix(line, "id:"):
			e.id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			e.data += strings.TrimPrefix(line[5:], " ")
		}
	}
}

func (s *sseStream) next(t *testing.T) sseEvent {
	t.Helper()
	e, err := s.read()
	if err != nil {
		t.Fatalf("the stream ended: %v", err)
	}
	return e
}

// rest reads the events until the stream ends, however it ends.
func (s *sseStream) rest() []sseEvent {
	var out []sseEvent
	for {
		e, err := s.read()
		if err != nil {
			// The end of the stream, or a connection reset by the
			// replica's death: either ends it.
			return out
		}
		out = append(out, e)
	}
}

// waitLog waits until the replica's log holds text.
func waitLog(t *testing.T, s *service, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.logs.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in the log:\n%s", text, s.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
