package reliability

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// TestPanicInDispatchIsAnswered: a panic outside any tool handler (here a
// resource's reader) is recovered by the session's safety net: the request
// is answered -32603 over stdio and over HTTP, the panic and its stack are
// logged, and the session serves on.
func TestPanicInDispatchIsAnswered(t *testing.T) {
	logs := &logSink{}
	srv, err := mcp.NewServer(mcp.Options{
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Resources: []mcp.Resource{{URI: "bank://broken", Name: "broken", Read: func(context.Context, *mcp.ResourceRead) ([]mcp.ResourceContents, error) {
			var m map[string]int
			m["boom"]++ // a nil map write panics
			return nil, nil
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	read := `{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"bank://broken"}}`
	want := `{"jsonrpc":"2.0","id":"r","error":{"code":-32603,"message":"internal error"}}`
	ping := `{"jsonrpc":"2.0","id":"p","method":"ping"}`

	stdio := serveStdio(t, srv, treasurer)
	stdio.handshake(mcp.Revision20250618)
	if got := stdio.mustCall(`"r"`, read); got != want {
		t.Errorf("over stdio: %s", got)
	}
	if got := stdio.mustCall(`"p"`, ping); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("after the panic over stdio: %s", got)
	}

	rig := startHTTP(t, srv, logs, nil)
	sess, err := rig.openSession(rig.token(treasurer), mcp.Revision20250618)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sess.call(read); err != nil || got != want {
		t.Errorf("over HTTP: %s %v", got, err)
	}
	if got, err := sess.call(ping); err != nil || got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("after the panic over HTTP: %s %v", got, err)
	}

	if n := strings.Count(logs.String(), `"msg":"panic while handling a message"`); n != 2 || !strings.Contains(logs.String(), "assignment to entry in nil map") || !strings.Contains(logs.String(), `"stack":"goroutine`) {
		t.Errorf("%d panics logged:\n%s", n, logs)
	}
}

// panickingAuth panics on a request carrying the test's header, as a
// faulty authenticator might on a token it does not expect.
type panickingAuth struct{ next auth.Authenticator }

func (p panickingAuth) Authenticate(r *http.Request) (estate.Principal, error) {
	if r.Header.Get("X-Panic") != "" {
		panic("the authenticator broke")
	}
	return p.next.Authenticate(r)
}

// TestPanicInTheTransportIsAnswered: a panic outside dispatch, in the
// authenticator, is answered 500 with -32603 and logged with its stack,
// where the connection used to be dropped with no answer; the server
// serves on.
func TestPanicInTheTransportIsAnswered(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{})
	rig := startHTTP(t, srv, logs, func(c *mcphttp.Config) {
		c.Handler.Authenticator = panickingAuth{next: c.Handler.Authenticator}
	})
	tok := rig.token(treasurer)
	ans, err := rig.post(context.Background(), tok, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "X-Panic", "1")
	if err != nil || ans.status != http.StatusInternalServerError || ans.body != `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}` {
		t.Errorf("a panic in the authenticator: %+v %v", ans, err)
	}
	if !strings.Contains(rig.httpLogs.String(), `"msg":"panic while serving a request"`) || !strings.Contains(rig.httpLogs.String(), "the authenticator broke") {
		t.Errorf("the panic was not logged:\n%s", rig.httpLogs)
	}
	if _, err := rig.openSession(tok, mcp.Revision20250618); err != nil {
		t.Errorf("after the panic: %v", err)
	}
}
