package reliability

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// httpExchange is one HTTP request and the exact answer expected: status
// and body (empty for none).
type httpExchange struct {
	name       string
	method     string // "" is POST
	headers    []string
	body       string
	wantStatus int
	wantBody   string
}

// TestHTTPBadInputIsAnsweredExactly sends malformed requests over HTTP, in
// a handshake-era session and statelessly: each gets its exact status and
// body, and a good call right after each one is still answered.
func TestHTTPBadInputIsAnsweredExactly(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, nil)
	tok := rig.token(treasurer)
	sess, err := rig.openSession(tok, mcp.Revision20250618)
	if err != nil {
		t.Fatal(err)
	}
	other, err := rig.openSession(rig.token(investigator), mcp.Revision20250618)
	if err != nil {
		t.Fatal(err)
	}
	sid := []string{mcphttp.HeaderSessionID, sess.id}
	with := func(h ...string) []string { return append(append([]string{}, sid...), h...) }
	null := "null"
	limit := mcphttp.DefaultMaxBodyBytes
	pad := func(n int) string { // a ping of exactly n bytes
		head := `{"jsonrpc":"2.0","id":"pad","method":"ping","params":{"pad":"`
		return head + strings.Repeat("x", n-len(head)-3) + `"}}`
	}
	cases := []httpExchange{
		{name: "unparseable", headers: sid, body: `{"jsonrpc":"2.0","id":1,"method":"ping"`, wantStatus: 400, wantBody: rpcError(null, parseError, "parse error: unexpected end of input")},
		{name: "invalid UTF-8", headers: sid, body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xffng\"}", wantStatus: 400, wantBody: rpcError(null, parseError, `parse error: invalid UTF-8 within "/method" after offset 36`)},
		{name: "duplicate keys", headers: sid, body: `{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, wantStatus: 400, wantBody: rpcError(null, parseError, `parse error: duplicate object member name "id"`)},
		{name: "a batch", headers: sid, body: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, wantStatus: 400, wantBody: rpcError(null, invalidRequest, "batch requests are not supported")},
		{name: "a float id", headers: sid, body: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, wantStatus: 400, wantBody: rpcError(null, invalidRequest, "id must be a string or an integer")},
		{name: "array params", headers: sid, body: `{"jsonrpc":"2.0","id":"a","method":"ping","params":[1]}`, wantStatus: 400, wantBody: rpcError(`"a"`, invalidRequest, "params must be an object")},
		{name: "an empty body", headers: sid, body: ``, wantStatus: 400, wantBody: rpcError(null, parseError, "parse error: unexpected end of input")},
		{name: "a body one byte over the limit", headers: sid, body: pad(limit + 1), wantStatus: 413, wantBody: rpcError(null, invalidRequest, "the body exceeds the limit of "+strconv.Itoa(limit)+" bytes")},
		{name: "a body exactly at the limit", headers: sid, body: pad(limit), wantStatus: 200, wantBody: `{"jsonrpc":"2.0","id":"pad","result":{}}`},
		{name: "not JSON by its Content-Type", headers: with("Content-Type", "text/plain"), body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, wantStatus: 415, wantBody: rpcError(null, invalidRequest, "the body must be application/json")},
		{name: "an Accept without JSON or event streams", headers: with("Accept", "text/html"), body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, wantStatus: 406, wantBody: rpcError(null, invalidRequest, "Accept must list application/json and text/event-stream")},
		{name: "no session id", body: `{"jsonrpc":"2.0","id":"s","method":"ping"}`, wantStatus: 400, wantBody: rpcError(`"s"`, invalidRequest, "the Mcp-Session-Id header is required: send initialize first")},
		{name: "an unknown session id", headers: []string{mcphttp.HeaderSessionID, "0123456789abcdef0123456789abcdef"}, body: `{"jsonrpc":"2.0","id":"s","method":"ping"}`, wantStatus: 404, wantBody: rpcError(`"s"`, invalidRequest, "session not found: send initialize to start a new one")},
		{name: "another principal's session id", headers: []string{mcphttp.HeaderSessionID, other.id}, body: `{"jsonrpc":"2.0","id":"s","method":"ping"}`, wantStatus: 404, wantBody: rpcError(`"s"`, invalidRequest, "session not found: send initialize to start a new one")},
		{name: "an unknown protocol version header", headers: with(mcphttp.HeaderProtocolVersion, "1999-01-01"), body: `{"jsonrpc":"2.0","id":"v","method":"ping"}`, wantStatus: 400,
			wantBody: rpcError(`"v"`, invalidRequest, `unsupported Mcp-Protocol-Version header "1999-01-01"; this server speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28`)},
		{name: "a second initialize", headers: sid, body: `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, wantStatus: 200,
			wantBody: `{"jsonrpc":"2.0","id":"i","result":` + "X"},
		{name: "a notification", headers: sid, body: `{"jsonrpc":"2.0","method":"notifications/unknown"}`, wantStatus: 202},
		// With an id it is a request the server does not answer (gate 2):
		// 204, as for a cancelled request.
		{name: "a notification carrying an id", headers: sid, body: `{"jsonrpc":"2.0","id":"n","method":"notifications/initialized"}`, wantStatus: 204},
		{name: "a response from the client", headers: sid, body: `{"jsonrpc":"2.0","id":"r","result":{}}`, wantStatus: 202},
		{name: "stateless: no protocol version header", body: statelessBody(`"x"`, "tools/list", `{}`), wantStatus: 400,
			wantBody: rpcError(`"x"`, -32020, "Header mismatch: the Mcp-Protocol-Version header is required")},
		{name: "stateless: a method header that disagrees", headers: statelessHeaders("tools/call", ""), body: statelessBody(`"x"`, "tools/list", `{}`), wantStatus: 400,
			wantBody: rpcError(`"x"`, -32020, `Header mismatch: Mcp-Method header value "tools/call" does not match body value "tools/list"`)},
		{name: "stateless: a name header that disagrees", headers: statelessHeaders("tools/call", "payments.release"), body: statelessBody(`"x"`, "tools/call", `{"name":"payments.lookup","arguments":{}}`), wantStatus: 400,
			wantBody: rpcError(`"x"`, -32020, `Header mismatch: Mcp-Name header value "payments.release" does not match params.name "payments.lookup"`)},
		{name: "stateless: an unsupported revision", headers: []string{mcphttp.HeaderProtocolVersion, "2099-01-01", mcphttp.HeaderMethod, "tools/list"},
			body: `{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`, wantStatus: 400,
			wantBody: `{"jsonrpc":"2.0","id":"x","error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2099-01-01","supported":["2026-07-28"]}}}`},
		{name: "stateless: a method of the other era", headers: statelessHeaders("ping", ""), body: statelessBody(`"x"`, "ping", `{}`), wantStatus: 404,
			wantBody: rpcError(`"x"`, methodNotFound, "unknown method: ping")},
		{name: "stateless: wrong-typed arguments", headers: statelessHeaders("tools/call", "payments.release"), body: statelessBody(`"x"`, "tools/call", `{"name":"payments.release","arguments":{"reference":"PMT-771","amount_minor":"250000","currency":"AED"}}`), wantStatus: 200,
			wantBody: `{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"arguments failed schema validation:\n$.amount_minor: expected type integer, got string"}],"isError":true,"resultType":"complete","_meta":{"errors":["$.amount_minor: expected type integer, got string"],"io.modelcontextprotocol/serverInfo":{"name":"bank-payments-mcp","version":"2.3.1"}}}}`},
		{name: "PUT", method: http.MethodPut, headers: sid, body: `{}`, wantStatus: 405, wantBody: rpcError(null, invalidRequest, "method not allowed")},
		{name: "GET without a session", method: http.MethodGet, headers: []string{"Accept", "text/event-stream"}, wantStatus: 400, wantBody: rpcError(null, invalidRequest, "the Mcp-Session-Id header is required: send initialize first")},
	}
	n := 0
	for i, x := range cases {
		method := x.method
		if method == "" {
			method = http.MethodPost
		}
		ans, err := rig.send(context.Background(), method, tok, x.body, x.headers...)
		if err != nil {
			t.Fatalf("%s: %v", x.name, err)
		}
		want := x.wantBody
		if prefix, open := strings.CutSuffix(want, "X"); open && strings.HasPrefix(ans.body, prefix) {
			want = ans.body // an initialize result; its content is tested elsewhere
		}
		if ans.status != x.wantStatus || ans.body != want {
			t.Errorf("%s:\n got %d %.300s\nwant %d %.300s", x.name, ans.status, ans.body, x.wantStatus, want)
		}
		n++
		// Still serving, in the session and statelessly.
		id := `"after-` + strconv.Itoa(i) + `"`
		line, wantLine := lookup(id, i)
		if got, err := sess.call(line); err != nil || got != wantLine {
			t.Fatalf("after %s the session no longer serves: %s %v", x.name, got, err)
		}
	}
	if strings.Contains(rig.httpLogs.String(), tok) || strings.Contains(logs.String(), tok) {
		t.Error("a token was logged")
	}
	rig.shutdown()
	record(t, figure{ID: "bad-input/http", Area: "Bad input",
		Tried: "Malformed requests over HTTP, in a handshake-era session and stateless: unparseable JSON, invalid UTF-8, duplicate keys, batches, float ids, array params, empty bodies, a body one byte over the 4 MiB limit and one exactly at it, wrong Content-Type and Accept, missing, unknown and another principal's session ids, unknown protocol versions, stateless headers that disagree with the body, a method of the other era, wrong-typed arguments, notifications (with and without id), client responses, PUT and GET",
		Count: n, Unit: "requests",
		Held: "each got its exact status and body (202 or 204 without body for notifications and responses); a good call after each one was answered"})
}

// rawPOST is the head of a POST to the rig's endpoint declaring a body of
// length bytes, written by hand so that a test can break it off.
func (r *httpRig) rawPOST(token string, length int) string {
	return "POST /mcp HTTP/1.1\r\nHost: " + r.addr + "\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
		mcphttp.HeaderProtocolVersion + ": 2026-07-28\r\n" + mcphttp.HeaderMethod + ": tools/call\r\n" + mcphttp.HeaderName + ": count\r\n" +
		"Content-Length: " + strconv.Itoa(length) + "\r\n\r\n"
}

// TestHTTPBodyThatStopsHalfWay: a client that declares a body and sends
// half of it — then closes its side, goes silent, or drops the connection —
// is answered 400 where an answer can still reach it; no handler runs, the
// server keeps serving, and nothing is left running.
func TestHTTPBodyThatStopsHalfWay(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	var ran atomic.Int64
	faultTool(t, srv, "count", func(context.Context, *mcp.Call) (*mcp.Result, error) {
		ran.Add(1)
		return mcp.TextResult("counted"), nil
	})
	rounds := 10
	// The silent uploads of all rounds are in flight together, within
	// their caller's share.
	rig := startHTTP(t, srv, logs, func(c *mcphttp.Config) { c.ReadTimeout, c.Handler.MaxInFlightPerCaller = time.Second, 2*rounds })
	tok, other := rig.token(treasurer), rig.token(investigator)
	body := statelessBody(`"half"`, "tools/call", `{"name":"count","arguments":{}}`)
	half := body[:len(body)/2]
	unreadable := rpcError("null", invalidRequest, "the body could not be read")
	tried := 0
	var silent []net.Conn // answered together once the read timeout ends them
	expect400 := func(how string, conn net.Conn) {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusBadRequest || string(got) != unreadable {
			t.Errorf("%s: %d %s", how, resp.StatusCode, got)
		}
		conn.Close()
	}
	for i := range rounds {
		for _, how := range []string{"closes its side", "goes silent", "drops the connection"} {
			conn, err := net.Dial("tcp", rig.addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(conn, rig.rawPOST(tok, len(body))+half); err != nil {
				t.Fatal(err)
			}
			tried++
			switch how {
			case "closes its side":
				conn.(*net.TCPConn).CloseWrite()
				expect400(how, conn)
			case "goes silent":
				silent = append(silent, conn)
			case "drops the connection":
				conn.Close()
			}
		}
		// Still serving (here a request of another caller).
		ans, err := rig.post(context.Background(), other, statelessBody(`"ok"`, "tools/call", `{"name":"count","arguments":{}}`), statelessHeaders("tools/call", "count")...)
		if err != nil || ans.status != 200 || !strings.Contains(ans.body, `"text":"counted"`) {
			t.Fatalf("round %d: the server no longer serves: %+v %v", i, ans, err)
		}
	}
	for _, conn := range silent {
		expect400("goes silent", conn)
	}
	if n := ran.Load(); n != int64(rounds) {
		t.Errorf("the handler ran %d times, want %d (only for the complete requests)", n, rounds)
	}
	rig.shutdown()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "bad-input/http-half-body", Area: "Bad input",
		Tried: "HTTP requests whose body stops half way: the client then closes its side, goes silent past the read timeout, or drops the connection",
		Count: tried, Unit: "requests",
		Held: "answered 400 `the body could not be read` wherever the client could still read; no handler ran; a complete request after each round was served; no goroutine left"})
}

// TestHTTPClientThatNeverReads: a client pipelining requests on one
// connection without ever reading holds only that connection; other
// clients are served meanwhile, and once it goes away nothing is left.
func TestHTTPClientThatNeverReads(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, nil)
	tok := rig.token(treasurer)
	conn, err := net.Dial("tcp", rig.addr)
	if err != nil {
		t.Fatal(err)
	}
	n := 4000
	if testing.Short() {
		n = 400
	}
	list := statelessBody(`"list"`, "tools/list", `{}`)
	head := strings.Replace(rig.rawPOST(tok, len(list)), "tools/call", "tools/list", 1)
	head = strings.Replace(head, mcphttp.HeaderName+": count\r\n", "", 1)
	written := make(chan struct{})
	go func() { // blocks once the server stops reading the connection
		defer close(written)
		for range n {
			if _, err := io.WriteString(conn, head+list); err != nil {
				return
			}
		}
	}()
	calls := 200
	if testing.Short() {
		calls = 40
	}
	served := 0 // calls of the other client answered correctly
	for i := range calls {
		id := `"other-` + strconv.Itoa(i) + `"`
		ans, err := rig.post(context.Background(), tok, statelessBody(id, "tools/call", `{"name":"payments.lookup","arguments":{"reference":"PMT-`+strconv.Itoa(100+i)+`","as_of":"2026-03-31"}}`),
			statelessHeaders("tools/call", "payments.lookup")...)
		if err != nil || ans.status != 200 || !strings.Contains(ans.body, `"text":"PMT-`+strconv.Itoa(100+i)+`: HELD as of 2026-03-31"`) {
			t.Fatalf("another client, call %d: %+v %v", i, ans, err)
		}
		served++
	}
	conn.Close()
	<-written
	rig.shutdown()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/http-never-reads", Area: "Faults",
		Tried: fmt.Sprintf("An HTTP client pipelining %d tools/list requests on one connection without reading any answer, while another client calls", n),
		Count: served, Unit: "calls of the other client",
		Held: "every call of the other client was answered; when the silent client closed its connection, nothing of it was left running"})
}

// TestHTTPCancellationReachesTheHandler: in the stateless era closing the
// request cancels the handler's context; in the handshake era a dropped
// connection does not (MCP 2025-11-25) and notifications/cancelled does,
// and the cancelled request is answered 204 without a body.
func TestHTTPCancellationReachesTheHandler(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	f := bindFaults(t, srv)
	rig := startHTTP(t, srv, logs, nil)
	tok := rig.token(treasurer)
	sess, err := rig.openSession(tok, mcp.Revision20251125)
	if err != nil {
		t.Fatal(err)
	}
	n := 20
	held := 0 // requests whose cancellation did what the row says
	for i := range n {
		// Stateless: the client gives up.
		id := `"gone-` + strconv.Itoa(i) + `"`
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := rig.post(ctx, tok, statelessBody(id, "tools/call", `{"name":"fault.wait","arguments":{}}`), statelessHeaders("tools/call", "fault.wait")...)
			done <- err
		}()
		if got := <-f.started; got != id {
			t.Fatalf("started %s, want %s", got, id)
		}
		cancel()
		handlerErr, clientErr := <-f.ended, <-done
		if !errors.Is(handlerErr, context.Canceled) {
			t.Errorf("stateless: the handler saw %v", handlerErr)
		}
		if !errors.Is(clientErr, context.Canceled) {
			t.Errorf("stateless: the client saw %v", clientErr)
		}
		if errors.Is(handlerErr, context.Canceled) && errors.Is(clientErr, context.Canceled) {
			held++
		}

		// Handshake era: a dropped connection is not a cancellation.
		id = `"cancel-` + strconv.Itoa(i) + `"`
		dropCtx, drop := context.WithCancel(context.Background())
		go func() {
			sess.post(dropCtx, callTool(id, "fault.wait", `{}`))
		}()
		if got := <-f.started; got != id {
			t.Fatalf("started %s, want %s", got, id)
		}
		drop()
		// A round trip on the session gives a cancellation, were there
		// one, time to arrive.
		if got, err := sess.call(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); err != nil || got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
			t.Fatalf("ping: %s %v", got, err)
		}
		select {
		case err := <-f.ended:
			t.Fatalf("a dropped connection cancelled the handler (%v)", err)
		default:
		}
		ans, err := sess.post(context.Background(), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`)
		if err != nil || ans.status != http.StatusAccepted || ans.body != "" {
			t.Fatalf("notifications/cancelled: %+v %v", ans, err)
		}
		if err := <-f.ended; !errors.Is(err, context.Canceled) {
			t.Errorf("handshake: the handler saw %v", err)
		} else {
			held++
		}

		// And the answer to a cancelled request that is still read.
		id = `"read-` + strconv.Itoa(i) + `"`
		answer := make(chan httpAnswer, 1)
		go func() {
			ans, _ := sess.post(context.Background(), callTool(id, "fault.wait", `{}`))
			answer <- ans
		}()
		<-f.started
		sess.post(context.Background(), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`)
		<-f.ended
		if got := <-answer; got.status != http.StatusNoContent || got.body != "" {
			t.Errorf("the cancelled request was answered %d %s", got.status, got.body)
		} else {
			held++
		}
	}
	rig.shutdown()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/http-cancel", Area: "Faults",
		Tried: "Cancellation over HTTP: a stateless request whose client gives up; a handshake-era request whose connection drops, then cancelled with notifications/cancelled; another cancelled while its response is read",
		Count: held, Unit: "requests",
		Held: "closing a stateless request cancelled its handler's context; a dropped connection did not (MCP 2025-11-25) and notifications/cancelled did; the cancelled request was answered 204 without a body; no goroutine left"})
}

// TestHTTPGracefulShutdownAnswersEveryRequestInFlight: shutting the HTTP
// server down with requests in flight in both eras — handlers that ignore
// their context and handlers that honour it — answers every one of them
// (at the call deadline) before Serve returns, and serves nothing new.
func TestHTTPGracefulShutdownAnswersEveryRequestInFlight(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{CallTimeout: 500 * time.Millisecond})
	f := bindFaults(t, srv)
	n := 16
	// One caller, with every request in flight at once.
	rig := startHTTP(t, srv, logs, func(c *mcphttp.Config) { c.Handler.MaxInFlight, c.Handler.MaxInFlightPerCaller = 4*n, 4*n })
	tok := rig.token(treasurer)
	sess, err := rig.openSession(tok, mcp.Revision20250618)
	if err != nil {
		t.Fatal(err)
	}
	answers := make(chan string, 4*n)
	for i := range n {
		for _, tool := range []string{"fault.hang", "fault.wait"} {
			id := `"` + tool + `-s-` + strconv.Itoa(i) + `"`
			go func() {
				ans, err := rig.post(context.Background(), tok, statelessBody(id, "tools/call", `{"name":"`+tool+`","arguments":{}}`), statelessHeaders("tools/call", tool)...)
				if err != nil {
					answers <- id + ": " + err.Error()
					return
				}
				answers <- ans.body
			}()
			hid := `"` + tool + `-h-` + strconv.Itoa(i) + `"`
			go func() {
				ans, err := sess.post(context.Background(), callTool(hid, tool, `{}`))
				if err != nil {
					answers <- hid + ": " + err.Error()
					return
				}
				answers <- ans.body
			}()
		}
	}
	for range 4 * n {
		<-f.started
	}
	rig.shutdown() // waits for Serve to return
	close(f.release)
	answered := 0 // requests in flight answered as a tool failure at their deadline
	for range 4 * n {
		got := <-answers
		if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "deadline exceeded") {
			t.Errorf("in flight at shutdown: %s", got)
			continue
		}
		answered++
	}
	if ans, err := rig.post(context.Background(), tok, statelessBody(`"late"`, "tools/list", `{}`), statelessHeaders("tools/list", "")...); err == nil {
		t.Errorf("served after shutdown: %+v", ans)
	}
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "faults/http-shutdown", Area: "Faults",
		Tried: "Graceful shutdown of the HTTP server with requests in flight in both eras, half of the handlers ignoring their context, with a call deadline (`Options.CallTimeout`) of 500 ms",
		Count: answered, Unit: "requests in flight",
		Held: "every one answered (a tool failure at its deadline) before Serve returned; a new request after shutdown was not served; no goroutine left once the hung handlers returned"})
}

// TestHTTPRefusesForeignOriginsHostsAndBadTokens: requests addressed to a
// foreign host or coming from a foreign origin are 403 before any
// authentication; a request without a valid bearer token is 401 (400 for
// a malformed Authorization header) with the RFC 6750 challenge naming the
// resource metadata; and no token, valid or not, reaches any log.
func TestHTTPRefusesForeignOriginsHostsAndBadTokens(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, nil)
	good := rig.token(treasurer)
	meta := auth.MetadataURL(rig.url)
	otherKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := rig.claims(treasurer)
		change(c)
		return c
	}
	none := jwt.NewWithClaims(jwt.SigningMethodNone, rig.claims(treasurer))
	noneToken, err := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	rig.remember(noneToken)
	hmacToken := rig.sign(rig.claims(treasurer), jwt.SigningMethodHS256, []byte("shared-secret-of-32-bytes-length"))
	rig.remember("not-a-jwt-at-all")

	challenge := func(code, description string) string {
		v := `Bearer resource_metadata="` + meta + `"`
		if code != "" {
			v += `, error="` + code + `", error_description="` + description + `"`
		}
		return v
	}
	body := statelessBody(`"x"`, "tools/list", `{}`)
	cases := []struct {
		name          string
		authorization string // the whole header; "-" for none
		headers       []string
		status        int
		wantBody      string
		challenge     string
	}{
		{name: "no token", authorization: "-", challenge: challenge("", "")},
		{name: "another scheme", authorization: "Basic dXNlcjpwYXNz", challenge: challenge("invalid_request", "the Authorization scheme must be Bearer")},
		{name: "an empty bearer token", authorization: "Bearer ", challenge: challenge("invalid_request", "the bearer token is empty")},
		{name: "not a JWT", authorization: "Bearer not-a-jwt-at-all", challenge: challenge("invalid_token", "the token is malformed")},
		{name: "signed by another key", authorization: "Bearer " + rig.sign(rig.claims(treasurer), jwt.SigningMethodES256, otherKey), challenge: challenge("invalid_token", "the token's signature is invalid")},
		{name: "unsigned (alg none)", authorization: "Bearer " + noneToken, challenge: challenge("invalid_token", "the token's signature is invalid")},
		{name: "HMAC-signed", authorization: "Bearer " + hmacToken, challenge: challenge("invalid_token", "the token's signature is invalid")},
		{name: "expired", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Hour).Unix() }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", "the token has expired")},
		{name: "without expiry", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { delete(c, "exp") }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", "the token lacks a required claim")},
		{name: "for another audience", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { c["aud"] = "http://127.0.0.1:1/mcp" }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", "the token was issued for another audience")},
		{name: "from another issuer", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { c["iss"] = "https://issuer.evil.test" }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", "the token was issued by another issuer")},
		{name: "without clearance", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { delete(c, "clearance") }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", `claim \"clearance\" (the clearance) must name a classification`)},
		{name: "requiring a header extension (crit)", authorization: "Bearer " + rig.sign(rig.claims(treasurer), jwt.SigningMethodES256, nil, map[string]any{"crit": []string{"x-bank"}, "x-bank": true}), challenge: challenge("invalid_token", "the token requires header extensions (crit) this server does not support")},
		{name: "typed JWT, not an access token", authorization: "Bearer " + rig.sign(rig.claims(treasurer), jwt.SigningMethodES256, nil, map[string]any{"typ": "JWT"}), challenge: challenge("invalid_token", "the token is not an access token: its type (typ) must be at+jwt (RFC 9068)")},
		{name: "with an unknown clearance", authorization: "Bearer " + rig.sign(claims(func(c jwt.MapClaims) { c["clearance"] = "cosmic" }), jwt.SigningMethodES256, nil), challenge: challenge("invalid_token", `claim \"clearance\" (the clearance) must name a classification`)},
		{name: "a foreign Host", authorization: "Bearer " + good, headers: []string{"Host", "bank.evil.test"}, status: 403, wantBody: rpcError("null", invalidRequest, `forbidden: host "bank.evil.test" is not allowed`)},
		{name: "a foreign Host without a token", authorization: "-", headers: []string{"Host", "bank.evil.test:80"}, status: 403, wantBody: rpcError("null", invalidRequest, `forbidden: host "bank.evil.test" is not allowed`)},
		{name: "a foreign Origin", authorization: "Bearer " + good, headers: []string{"Origin", "https://bank.evil.test"}, status: 403, wantBody: rpcError("null", invalidRequest, `forbidden: origin "https://bank.evil.test" is not allowed`)},
		{name: "the opaque Origin null", authorization: "Bearer " + good, headers: []string{"Origin", "null"}, status: 403, wantBody: rpcError("null", invalidRequest, `forbidden: origin "null" is not allowed`)},
		{name: "a loopback Origin", authorization: "Bearer " + good, headers: []string{"Origin", "http://localhost:3000"}, status: 200},
	}
	tried := 0
	for round := range 5 {
		for _, c := range cases {
			req, err := http.NewRequest(http.MethodPost, rig.url, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for i := 0; i+1 < len(statelessHeaders("tools/list", "")); i += 2 {
				h := statelessHeaders("tools/list", "")
				req.Header.Set(h[i], h[i+1])
			}
			if c.authorization != "-" {
				req.Header.Set("Authorization", c.authorization)
			}
			for i := 0; i+1 < len(c.headers); i += 2 {
				if c.headers[i] == "Host" {
					req.Host = c.headers[i+1]
				} else {
					req.Header.Set(c.headers[i], c.headers[i+1])
				}
			}
			resp, err := rig.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			tried++
			status, want := c.status, c.wantBody
			if c.challenge != "" {
				desc := strings.TrimPrefix(c.challenge, challenge("", ""))
				_, d, _ := strings.Cut(desc, `error_description="`)
				d = strings.ReplaceAll(strings.TrimSuffix(d, `"`), `\"`, `"`)
				status, want = http.StatusUnauthorized, rpcError("null", invalidRequest, "unauthorized: "+d)
				if strings.Contains(c.challenge, `error="invalid_request"`) {
					status = http.StatusBadRequest
				}
				if c.name == "no token" {
					want = rpcError("null", invalidRequest, "unauthorized: a bearer token is required")
				}
				if gotChallenge := resp.Header.Get("WWW-Authenticate"); gotChallenge != c.challenge {
					t.Errorf("%s: challenge\n got %s\nwant %s", c.name, gotChallenge, c.challenge)
				}
			}
			if status == http.StatusOK {
				if resp.StatusCode != status || !strings.Contains(string(got), `"tools":[`) {
					t.Errorf("%s: %d %s", c.name, resp.StatusCode, got)
				}
				continue
			}
			if resp.StatusCode != status || string(got) != want {
				t.Errorf("%s (round %d):\n got %d %s\nwant %d %s", c.name, round, resp.StatusCode, got, status, want)
			}
		}
	}
	rig.shutdown()
	// No token reached either log.
	var everything strings.Builder
	everything.WriteString(logs.String())
	everything.WriteString(rig.httpLogs.String())
	for _, tok := range rig.tokens {
		if strings.Contains(everything.String(), tok) {
			t.Errorf("a token was logged: %.40s...", tok)
		}
		// Nor its signature alone.
		if i := strings.LastIndexByte(tok, '.'); i > 0 && len(tok)-i > 8 && strings.Contains(everything.String(), tok[i+1:]) {
			t.Errorf("a token's signature was logged")
		}
	}
	if !strings.Contains(rig.httpLogs.String(), `"status":401`) {
		t.Errorf("the access log recorded no refusal:\n%.1000s", rig.httpLogs.String())
	}
	record(t, figure{ID: "security/http-auth", Area: "Security",
		Tried: "HTTP requests with no token, another scheme, an empty token, a non-JWT, tokens signed by another key, unsigned (alg none), HMAC-signed, expired, without expiry, for another audience or issuer, requiring a header extension (crit), typed other than at+jwt, without or with an unknown clearance; a foreign Host (with and without a token), a foreign Origin, the Origin null, and a loopback Origin",
		Count: tried, Unit: "requests",
		Held: "foreign Host and Origin: 403 before any authentication; bad tokens: 401 (400 for a malformed header) with `WWW-Authenticate: Bearer resource_metadata=…` and the RFC 6750 error and description; the loopback Origin served; no token nor any token's signature in any log line"})
}

// TestHTTPAuthorizationCannotBeProbed is the authorization matrix over
// HTTP with bearer tokens, in a handshake-era session and statelessly:
// what tools/list shows is what tools/call reaches, and an unentitled tool
// or unlisted resource is answered — status and body, apart from the name —
// like one that does not exist.
func TestHTTPAuthorizationCannotBeProbed(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, nil)
	specs := bank.Specs()
	const ghostTool, ghostURI = "payments.ghost", "policy://sanctions/ghost-policy"
	requests := 0
	for _, p := range principalMatrix() {
		if p.Tenant == "" || p.MaxClassification == estate.Public || p.MaxClassification == estate.Confidential {
			continue // a smaller matrix than in process: the transport adds no rule
		}
		tok := rig.token(p)
		sess, err := rig.openSession(tok, mcp.Revision20251125)
		if err != nil {
			t.Fatal(err)
		}
		// do sends a request in one era; name goes into Mcp-Name.
		do := func(stateless bool, method, name, params string) httpAnswer {
			t.Helper()
			requests++
			var ans httpAnswer
			var err error
			if stateless {
				ans, err = rig.post(context.Background(), tok, statelessBody(`"q"`, method, params), statelessHeaders(method, name)...)
			} else {
				ans, err = sess.post(context.Background(), `{"jsonrpc":"2.0","id":"q","method":"`+method+`","params":`+params+`}`)
			}
			if err != nil {
				t.Fatal(err)
			}
			return ans
		}
		for _, stateless := range []bool{false, true} {
			who := fmt.Sprintf("stateless=%v %s/%s/%s", stateless, p.Tenant, p.MaxClassification, strings.Join(p.Scopes, ","))
			list := do(stateless, "tools/list", "", `{}`)
			listed := listedNames(t, list.body, "tools", "name")
			for _, s := range specs {
				for _, pinned := range []bool{false, true} {
					params := `{"name":"%s","arguments":` + validArguments[s.Key()] + `}`
					reach := slices.Contains(listed, s.Name)
					if pinned {
						params = `{"name":"%s","arguments":` + validArguments[s.Key()] + `,"_meta":{"version":"` + s.Version.String() + `"}}`
						reach = entitledByManifest(p, s)
					}
					got := do(stateless, "tools/call", s.Name, strings.ReplaceAll(params, "%s", s.Name))
					ghost := do(stateless, "tools/call", ghostTool, strings.ReplaceAll(params, "%s", ghostTool))
					if reach {
						if got.status != 200 || !strings.Contains(got.body, `"result"`) {
							t.Errorf("%s: %s pinned=%v: entitled but %d %s", who, s.Key(), pinned, got.status, got.body)
						}
						continue
					}
					if got.status != ghost.status || got.body != strings.ReplaceAll(ghost.body, ghostTool, s.Name) || !strings.Contains(got.body, `"code":-32601`) {
						t.Errorf("%s: %s pinned=%v: answered unlike a missing tool:\n  got %d %s\nghost %d %s", who, s.Key(), pinned, got.status, got.body, ghost.status, ghost.body)
					}
				}
			}
			rlisted := listedNames(t, do(stateless, "resources/list", "", `{}`).body, "resources", "uri")
			ghost := do(stateless, "resources/read", ghostURI, `{"uri":"`+ghostURI+`"}`)
			for _, r := range bank.Resources() {
				got := do(stateless, "resources/read", r.URI, `{"uri":"`+r.URI+`"}`)
				if slices.Contains(rlisted, r.URI) {
					if got.status != 200 || !strings.Contains(got.body, `"contents"`) {
						t.Errorf("%s: %s listed but %d %s", who, r.URI, got.status, got.body)
					}
					continue
				}
				if got.status != ghost.status || got.body != strings.ReplaceAll(ghost.body, ghostURI, r.URI) {
					t.Errorf("%s: %s answered unlike a missing resource:\n  got %d %s\nghost %d %s", who, r.URI, got.status, got.body, ghost.status, ghost.body)
				}
			}
		}
	}
	rig.shutdown()
	record(t, figure{ID: "security/http-matrix", Area: "Security",
		Tried: "The authorization matrix over HTTP with bearer tokens (8 scope sets × 2 tenants × 2 clearances), in a 2025-11-25 session and statelessly: tools/list, every tool version called unpinned and pinned, resources/list and every resource read, each probe next to the same request for a missing name",
		Count: requests, Unit: "requests",
		Held: "what was listed was callable or readable; every unentitled tool and unlisted resource got the missing name's status and body, byte for byte apart from the name"})
}

// TestLoadOverHTTP: 16 concurrent clients over HTTP — eight in sessions of
// their own, eight stateless — make tens of thousands of mixed calls. Every
// answer is the exact answer to its own request (for stateless calls, the
// answer the same request gets in process); afterwards the live heap is
// back near its baseline and, once the server is shut down, no goroutine
// is left.
func TestLoadOverHTTP(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, nil)
	tok := rig.token(investigator)
	sessions := make([]*httpSession, loadClients/2)
	for i := range sessions {
		var err error
		if sessions[i], err = rig.openSession(tok, mcp.Revision20250618); err != nil {
			t.Fatal(err)
		}
	}
	templates := warmUp(t, func(_, line string) (string, error) { return sessions[0].call(line) })
	oracle := srv.NewSession(investigator, nil)
	defer oracle.Close()
	call := func(client int, m mixed, want string) (string, string, error) {
		if client < len(sessions) {
			got, err := sessions[client].call(m.line())
			return got, want, err
		}
		body := statelessBody(m.id, m.method, m.params)
		want = string(oracle.Handle(context.Background(), []byte(body)))
		ans, err := rig.post(context.Background(), tok, body, statelessHeaders(m.method, m.name)...)
		if err == nil && ans.status != http.StatusOK {
			err = errAnswerMismatch(body, ans.body, "status 200")
		}
		return ans.body, want, err
	}
	runLoad(t, 8*loadClients, templates, call) // every path once before the baseline
	logs.reset()
	rig.httpLogs.reset()
	baseline := heapInUse()

	made := runLoad(t, loadCalls(10000), templates, call)

	logs.reset()
	rig.httpLogs.reset()
	heap := heapInUse()
	t.Logf("live heap: %d bytes before the load, %d after (%+d)", baseline, heap, int64(heap)-int64(baseline))
	if heap > baseline+heapSlack {
		t.Errorf("live heap grew by %d bytes over %d calls", heap-baseline, made)
	}
	rig.shutdown()
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "load/http", Area: "Load",
		Tried: "16 concurrent HTTP clients on loopback with bearer tokens, with the race detector — eight in handshake-era sessions, eight stateless — making the same mix of calls",
		Count: made, Unit: "calls",
		Held: "every answer was the exact answer to its own request, under its id; the live heap came back to within 1 MiB of its baseline; no goroutine left after shutdown"})
}
