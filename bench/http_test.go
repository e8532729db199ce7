package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// The protocol revisions the HTTP row speaks: the last one of the
// handshake era (initialize, then Mcp-Session-Id on every message) for the
// stateful servers, and the stateless era for the stateless ones (no
// session: every request carries its revision in MCP-Protocol-Version and
// params._meta, its method and tool name in Mcp-Method and Mcp-Name).
const (
	handshakeRevision = "2025-11-25"
	statelessRevision = "2026-07-28"
)

// httpImpl is one server of the HTTP row.
type httpImpl struct {
	name string
	// stateless servers are spoken to in the stateless era, the others
	// in the handshake era.
	stateless bool
	// mcp is false for the bare POST handler, which only the raw client
	// drives.
	mcp bool
	// handler builds the server's HTTP handler; close ends what it holds
	// (called before the listener closes).
	handler func(tb testing.TB, tools []sdkTool) (h http.Handler, close func())
}

var httpImpls = []httpImpl{
	{name: "mcpgen", mcp: true, handler: mcpgenHTTP(false)},
	{name: "mcpgen-stateless", stateless: true, mcp: true, handler: mcpgenHTTP(true)},
	{name: "gosdk", mcp: true, handler: sdkHTTP(false)},
	{name: "gosdk-stateless", stateless: true, mcp: true, handler: sdkHTTP(true)},
	{name: "mcpgo", mcp: true, handler: mcpGoHTTP},
	{name: "bare-post", handler: barePost},
}

// mcpgenHTTP is the generated bank package served by runtime/mcphttp, every
// request acting as the sample estate's investigator (auth.Static: the anchors
// authenticate nothing either), with the logs a service writes on: the call
// log and the access log, through the asynchronous sink (see serviceLog).
func mcpgenHTTP(stateless bool) func(testing.TB, []sdkTool) (http.Handler, func()) {
	return func(tb testing.TB, _ []sdkTool) (http.Handler, func()) {
		log := serviceLog(tb)
		srv := newLoggedBankServer(tb, log)
		h := mcphttp.NewHandler(srv, mcphttp.Options{Authenticator: auth.Static{Principal: investigator}, Stateless: stateless, Logger: log})
		return h, func() {
			h.Close()
			srv.Close()
		}
	}
}

// sdkHTTP is the official Go SDK server behind its StreamableHTTPHandler,
// with its default options otherwise (answers as event streams).
func sdkHTTP(stateless bool) func(testing.TB, []sdkTool) (http.Handler, func()) {
	return func(tb testing.TB, tools []sdkTool) (http.Handler, func()) {
		s := newSDKServer(tb, tools)
		h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: stateless})
		return h, func() {}
	}
}

// mcpGoHTTP is mark3labs/mcp-go's StreamableHTTPServer with its default
// options (session ids generated, not checked), its log discarded.
func mcpGoHTTP(_ testing.TB, tools []sdkTool) (http.Handler, func()) {
	h := mcpgoserver.NewStreamableHTTPServer(newMcpGoServer(tools),
		mcpgoserver.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	return h, func() { h.Shutdown(context.Background()) }
}

// bareAnswer is what the bare POST handler answers: the tools/call result
// every MCP server of the row gives.
var bareAnswer = []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + lookupText("PMT-771") + `"}],"isError":false}}`)

// barePost is the floor: a handler that reads the body and answers a fixed
// JSON body, no MCP at all.
func barePost(testing.TB, []sdkTool) (http.Handler, func()) {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bareAnswer)
	}), func() {}
}

// httpServer is an implementation listening on a loopback port.
type httpServer struct {
	impl httpImpl
	url  string
}

// serveHTTP starts impl on a loopback listener; everything is closed when
// tb's test ends.
func serveHTTP(tb testing.TB, impl httpImpl, tools []sdkTool) *httpServer {
	tb.Helper()
	h, closeHandler := impl.handler(tb, tools)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		closeHandler()
		ts.CloseClientConnections()
		ts.Close()
	})
	return &httpServer{impl: impl, url: ts.URL + "/mcp"}
}

// newHTTPTransport is the client side's one transport: HTTP/1.1 on
// loopback, no proxy, enough idle connections per host that eight clients
// (and the SDK client's notification streams) keep theirs.
func newHTTPTransport(tb testing.TB) *http.Transport {
	t := &http.Transport{MaxIdleConnsPerHost: 32, IdleConnTimeout: time.Minute, DisableCompression: true}
	tb.Cleanup(t.CloseIdleConnections)
	return t
}

// caller is one client session of the row: call makes the tools/call and
// checks the answer cheaply (the timed calls), check makes it and checks
// the answer in full (once per session, before timing).
type caller interface {
	call() error
	check() error
	close()
}

// rawClient posts prepared request bytes with net/http and reads the whole
// answer: JSON, or an event stream holding the answer.
type rawClient struct {
	hc     *http.Client
	url    string
	header http.Header // the call's headers, session id included
	body   []byte      // the prepared tools/call
	want   []byte      // what every answer must hold
	buf    bytes.Buffer
}

// httpCallBody is the tools/call of the row for a revision: the pipe row's
// request, with the stateless era's _meta when it is one.
func httpCallBody(name string, stateless bool) []byte {
	params := map[string]any{"name": name, "arguments": json.RawMessage(lookupV2Valid)}
	if stateless {
		params["_meta"] = statelessMeta()
	}
	return bytes.TrimSpace(request(1, "tools/call", params))
}

// statelessMeta is the _meta every stateless-era request carries.
func statelessMeta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    statelessRevision,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
}

// dialRaw prepares a raw client of s: for a stateful MCP server it runs
// initialize and notifications/initialized and keeps the session id.
func dialRaw(hc *http.Client, s *httpServer, tool string) (*rawClient, error) {
	c := &rawClient{hc: hc, url: s.url, want: []byte(lookupText("PMT-771")), header: http.Header{
		"Content-Type": {"application/json"},
		"Accept":       {"application/json, text/event-stream"},
	}}
	c.body = httpCallBody(tool, s.impl.stateless)
	if err := prepareCall(s.impl, c.header, tool, c.post); err != nil {
		return nil, err
	}
	return c, nil
}

// poster sends one POST body with header and returns the answer.
type poster func(body []byte, header http.Header) (status int, resp []byte, h http.Header, err error)

// prepareCall sets in header what the row's tools/call of tool carries
// for impl: the stateless era's headers, or, for a stateful MCP server,
// the session id of a session initialize opens through post (followed by
// notifications/initialized). The bare POST needs nothing.
func prepareCall(impl httpImpl, header http.Header, tool string, post poster) error {
	switch {
	case !impl.mcp:
	case impl.stateless:
		header.Set(mcphttp.HeaderProtocolVersion, statelessRevision)
		header.Set(mcphttp.HeaderMethod, "tools/call")
		header.Set(mcphttp.HeaderName, tool)
	default:
		status, resp, h, err := post(initializeRequest(handshakeRevision), header)
		if err != nil {
			return err
		}
		if status != http.StatusOK || !bytes.Contains(resp, []byte(`"protocolVersion":"`+handshakeRevision+`"`)) {
			return fmt.Errorf("initialize: %d %.600s", status, resp)
		}
		id := h.Get(mcphttp.HeaderSessionID)
		if id == "" {
			return fmt.Errorf("initialize: a stateful server gave no %s", mcphttp.HeaderSessionID)
		}
		header.Set(mcphttp.HeaderSessionID, id)
		header.Set(mcphttp.HeaderProtocolVersion, handshakeRevision)
		status, resp, _, err = post([]byte(initializedNotification), header)
		if err != nil {
			return err
		}
		if status != http.StatusAccepted && status != http.StatusOK && status != http.StatusNoContent {
			return fmt.Errorf("notifications/initialized: %d %.600s", status, resp)
		}
	}
	return nil
}

// post sends one body and reads the whole answer into c.buf.
func (c *rawClient) post(body []byte, header http.Header) (status int, resp []byte, h http.Header, err error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header = header
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	c.buf.Reset()
	_, err = c.buf.ReadFrom(res.Body)
	res.Body.Close()
	return res.StatusCode, c.buf.Bytes(), res.Header, err
}

func (c *rawClient) call() error {
	status, resp, _, err := c.post(c.body, c.header)
	if err != nil {
		return err
	}
	if status != http.StatusOK || !bytes.Contains(resp, c.want) {
		return fmt.Errorf("tools/call: %d %.600s", status, resp)
	}
	return nil
}

func (c *rawClient) check() error {
	status, resp, h, err := c.post(c.body, c.header)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("tools/call: %d %.600s", status, resp)
	}
	msg := resp
	if ct := h.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") {
		if msg, err = sseAnswer(resp); err != nil {
			return err
		}
	} else if !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("tools/call: answered %q: %.600s", ct, resp)
	}
	return checkAnswer(msg, string(c.want))
}

func (c *rawClient) close() {}

// sseAnswer returns the data of the one event of an event stream that
// carries a response.
func sseAnswer(stream []byte) ([]byte, error) {
	var answers [][]byte
	for event := range bytes.SplitSeq(stream, []byte("\n\n")) {
		var data []byte
		for line := range bytes.SplitSeq(event, []byte("\n")) {
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
			}
		}
		if bytes.Contains(data, []byte(`"result"`)) || bytes.Contains(data, []byte(`"error"`)) {
			answers = append(answers, data)
		}
	}
	if len(answers) != 1 {
		return nil, fmt.Errorf("the event stream holds %d answers: %.600s", len(answers), stream)
	}
	return answers[0], nil
}

// checkAnswer checks a JSON-RPC answer is the row's result: one text
// block saying want, no error.
func checkAnswer(msg []byte, want string) error {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Error  json.RawMessage `json:"error"`
		Result *struct {
			Content []struct{ Type, Text string } `json:"content"`
			IsError bool                          `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return fmt.Errorf("tools/call: %v: %.600s", err, msg)
	}
	if m.Error != nil || m.Result == nil || m.Result.IsError || string(m.ID) != "1" ||
		len(m.Result.Content) != 1 || m.Result.Content[0].Type != "text" || m.Result.Content[0].Text != want {
		return fmt.Errorf("tools/call: not the expected result: %.600s", msg)
	}
	return nil
}

// sdkClient is the official Go SDK client, connected over its
// StreamableClientTransport with default options.
type sdkClient struct {
	cs     *sdk.ClientSession
	params *sdk.CallToolParams
	want   string
}

// dialSDK connects an SDK client to s: in the handshake era to a stateful
// server (the SDK would otherwise try the stateless era first, which every
// server here also speaks), in the stateless era (server/discover, then
// no session) to a stateless one.
func dialSDK(hc *http.Client, s *httpServer, tool string) (*sdkClient, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	opts := &sdk.ClientSessionOptions{ProtocolVersion: handshakeRevision}
	if s.impl.stateless {
		opts.ProtocolVersion = statelessRevision
	}
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc}, opts)
	if err != nil {
		return nil, err
	}
	if got := cs.InitializeResult().ProtocolVersion; got != opts.ProtocolVersion {
		cs.Close()
		return nil, fmt.Errorf("the SDK client negotiated %s, not %s", got, opts.ProtocolVersion)
	}
	return &sdkClient{cs: cs, want: lookupText("PMT-771"),
		params: &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(lookupV2Valid)}}, nil
}

func (c *sdkClient) call() error {
	res, err := c.cs.CallTool(context.Background(), c.params)
	if err != nil {
		return err
	}
	if res.IsError || len(res.Content) != 1 {
		return fmt.Errorf("tools/call: %+v", res)
	}
	if t, ok := res.Content[0].(*sdk.TextContent); !ok || t.Text != c.want {
		return fmt.Errorf("tools/call: %+v", res.Content[0])
	}
	return nil
}

func (c *sdkClient) check() error { return c.call() }

func (c *sdkClient) close() { c.cs.Close() }

// dialCaller connects a client of the given kind ("raw" or "sdk") to s.
func dialCaller(hc *http.Client, s *httpServer, kind, tool string) (caller, error) {
	if kind == "sdk" {
		return dialSDK(hc, s, tool)
	}
	return dialRaw(hc, s, tool)
}

// dialCallers connects n clients, each with a session of its own, checks
// one answer of each (failing tb otherwise), and closes them when owner's
// test ends.
func dialCallers(tb, owner testing.TB, hc *http.Client, s *httpServer, kind, tool string, n int) []caller {
	tb.Helper()
	var cs []caller
	for range n {
		c, err := dialCaller(hc, s, kind, tool)
		if err != nil {
			tb.Fatalf("%s, %s client: %v", s.impl.name, kind, err)
		}
		owner.Cleanup(c.close)
		if err := c.check(); err != nil {
			tb.Fatalf("%s, %s client: %v", s.impl.name, kind, err)
		}
		cs = append(cs, c)
	}
	return cs
}

// BenchmarkHTTP is one tools/call over Streamable HTTP on a loopback
// listener: the pipe row's call (payments.lookup 2.0.0, the same arguments,
// schema and handler text) through each server's own HTTP handler.
//
// client=raw posts prepared request bytes with net/http and reads the
// whole answer (what the server costs); client=sdk calls through the
// official Go SDK client (what a user sees). clients=1 is one client
// calling in turn; clients=8 is eight goroutines, each with a session of
// its own, splitting the calls. Every stateful client initializes once
// (and keeps its Mcp-Session-Id); stateless ones speak the stateless era
// with no session. "bare-post" is net/http alone: a handler answering the
// same result as a fixed body.
//
// Each call's latency is recorded; calls/s (all clients together),
// p50-ns and p99-ns are reported. Every answer is checked (status 200 and
// the result text; the first of each client fully) so that a broken
// server cannot look fast.
func BenchmarkHTTP(b *testing.B) {
	spec := bankSpec(b, unpinnedLookup)
	tools := []sdkTool{{name: spec.Name, description: spec.Description, schema: schemaJSON(b, spec.InputSchema)}}
	hc := &http.Client{Transport: newHTTPTransport(b)}
	for _, impl := range httpImpls {
		b.Run("impl="+impl.name, func(b *testing.B) {
			s := serveHTTP(b, impl, tools)
			kinds := []string{"raw", "sdk"}
			if !impl.mcp {
				kinds = kinds[:1]
			}
			for _, kind := range kinds {
				b.Run("client="+kind, func(b *testing.B) {
					parent := b
					pools := map[int][]caller{}
					for _, n := range []int{1, 8, 32} {
						if n == 32 && kind != "raw" {
							continue // the SDK client's rows show what a user sees; 1 and 8 say it
						}
						b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
							// The benchmark function runs once per b.N tried:
							// the sessions are opened on the first run only.
							if pools[n] == nil {
								pools[n] = dialCallers(b, parent, hc, s, kind, spec.Name, n)
							}
							runCallers(b, pools[n])
						})
					}
				})
			}
		})
	}
}

// runCallers splits b.N calls among the callers, each on a goroutine of
// its own, and reports calls/s and the 50th and 99th percentile latency.
func runCallers(b *testing.B, cs []caller) {
	lat := make([][]time.Duration, len(cs))
	errs := make([]error, len(cs))
	for i := range cs {
		lat[i] = make([]time.Duration, 0, b.N/len(cs)+1)
	}
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i, c := range cs {
		share := b.N / len(cs)
		if i < b.N%len(cs) {
			share++
		}
		wg.Go(func() {
			for range share {
				t0 := time.Now()
				if err := c.call(); err != nil {
					errs[i] = err
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err := errors.Join(errs...); err != nil {
		b.Fatal(err)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(percentile(all, 50)), "p50-ns")
	b.ReportMetric(float64(percentile(all, 99)), "p99-ns")
}

// percentile is the nearest-rank p-th percentile of sorted latencies.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i-1, 0)]
}

// TestHTTPCall checks that every server of the HTTP row answers its
// tools/call over Streamable HTTP with the expected result, to each client
// kind that benchmark drives it with: the row does the work it claims.
func TestHTTPCall(t *testing.T) {
	spec := bankSpec(t, unpinnedLookup)
	tools := []sdkTool{{name: spec.Name, description: spec.Description, schema: schemaJSON(t, spec.InputSchema)}}
	hc := &http.Client{Transport: newHTTPTransport(t)}
	for _, impl := range httpImpls {
		t.Run(impl.name, func(t *testing.T) {
			s := serveHTTP(t, impl, tools)
			kinds := []string{"raw", "sdk"}
			if !impl.mcp {
				kinds = kinds[:1]
			}
			for _, kind := range kinds {
				t.Run(kind, func(t *testing.T) {
					// Two sessions, each checked fully once, then a few
					// calls as the benchmark makes them.
					for _, c := range dialCallers(t, t, hc, s, kind, spec.Name, 2) {
						for range 3 {
							if err := c.call(); err != nil {
								t.Fatal(err)
							}
						}
					}
				})
			}
		})
	}
}
