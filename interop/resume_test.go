package interop

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// streamWatch is the SDK client's HTTP transport: it hands the test the
// body of every event stream a POST is answered with, so that the test can
// drop that connection, and tells it of every GET that resumes a stream.
type streamWatch struct {
	posted  chan io.Closer
	resumed chan string // Last-Event-ID
}

func (s *streamWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	if id := r.Header.Get(mcphttp.HeaderLastEventID); r.Method == http.MethodGet && id != "" {
		s.resumed <- id
	}
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && r.Method == http.MethodPost && res.Header.Get("Content-Type") == "text/event-stream" {
		s.posted <- res.Body
	}
	return res, err
}

// longCall serves long.run over Streamable HTTP: it reports progress 1, 2,
// ... as the test sends on release, and answers once release is closed.
func longCall(t *testing.T, opts mcphttp.Options) (url string, release chan struct{}) {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{Name: "long", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	release = make(chan struct{}, 8)
	stop := make(chan struct{})
	err = srv.Bind(estate.ToolSpec{
		Name: "long.run", Version: estate.MustParseVersion("1.0.0"), Title: "Long run", Description: "Reports progress until told to finish.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(ctx context.Context, call *mcp.Call) (*mcp.Result, error) {
		for n := 1; ; n++ {
			select {
			case _, ok := <-release:
				if !ok {
					return mcp.TextResult(fmt.Sprint(n-1, " steps")), nil
				}
			case <-stop:
				return nil, context.Canceled
			}
			if err := call.Progress(ctx, float64(n), 0, ""); err != nil {
				return nil, err
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	h := mcphttp.NewHandler(srv, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		close(stop)
		h.Close()
		ts.Close()
		srv.Close()
	})
	return ts.URL + "/mcp", release
}

// The official Go SDK client completes a long call whose stream breaks
// mid-call, resuming it with Last-Event-ID: every progress notification
// arrives once, in order, and then the answer. The stream breaks either
// because its connection drops (the test closes it under the client), or
// because the server polls (SEP-1699, 2025-11-25: it closes the call's
// response after a priming event whose retry the client waits).
func TestGoSDKResumesALongCall(t *testing.T) {
	for _, c := range []struct {
		name, revision string
		opts           mcphttp.Options
		drop           bool
	}{
		{"connection dropped", "2025-06-18", mcphttp.Options{}, true},
		{"server polls", "2025-11-25", mcphttp.Options{PollAfter: time.Millisecond, PollRetry: 10 * time.Millisecond}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			url, release := longCall(t, c.opts)
			ctx := timeout(t)
			progress := make(chan float64, 8)
			client := sdk.NewClient(&sdk.Implementation{Name: "interop", Version: "1.0.0"}, &sdk.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, n *sdk.ProgressNotificationClientRequest) {
					progress <- n.Params.Progress
				},
			})
			watch := &streamWatch{posted: make(chan io.Closer, 8), resumed: make(chan string, 8)}
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: watch}},
				&sdk.ClientSessionOptions{ProtocolVersion: c.revision})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()

			type answer struct {
				res *sdk.CallToolResult
				err error
			}
			answered := make(chan answer, 1)
			go func() {
				params := &sdk.CallToolParams{Name: "long.run", Arguments: map[string]any{}}
				params.SetProgressToken("p")
				res, err := cs.CallTool(ctx, params)
				answered <- answer{res, err}
			}()
			release <- struct{}{}
			got := []float64{<-progress}
			if c.drop {
				(<-watch.posted).Close() // the connection drops mid-call
			}
			// The call goes on only once the client has resumed its stream:
			// after the drop, or after the server closed the response.
			select {
			case <-watch.resumed:
			case <-ctx.Done():
				t.Fatal("the client never resumed the call's stream with Last-Event-ID")
			}
			release <- struct{}{}
			release <- struct{}{}
			close(release)
			a := <-answered
			if a.err != nil || a.res.IsError || text(t, a.res.Content) != "3 steps" {
				t.Fatalf("the call across a broken stream: %+v %v", a.res, a.err)
			}
			for len(got) < 3 {
				got = append(got, <-progress)
			}
			if !slices.Equal(got, []float64{1, 2, 3}) {
				t.Errorf("progress %v, want 1, 2, 3 once each", got)
			}
			select {
			case p := <-progress:
				t.Errorf("progress %v delivered twice", p)
			default:
			}
		})
	}
}
