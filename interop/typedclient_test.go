package interop

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/client/sdkclient"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The typed client as a host runs it against a remote service: the
// generated bank.Client over sdkclient, over the SDK's Streamable HTTP
// transport, its bearer token obtained through the OAuth authorization
// code flow from the authorization server the service names.

// TestTypedClientWithOAuth: in both protocol eras, the typed client
// connects to bankpayments with no token, is sent to the authorization
// server, registers, gets a code with PKCE and a token for the operator,
// and calls: a lookup, and a release that asks the operator to confirm (a
// server request in the handshake era, an input_required round in the
// stateless one). Retiring the release drops the client's tools/list
// cache through notifications/tools/list_changed.
func TestTypedClientWithOAuth(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			ctx := timeout(t)
			as := newAuthServer(t, jwt.MapClaims{"sub": "payments-operator", "tenant": "wholesale",
				"scope": "payments.read payments.release", "clearance": "restricted"})
			svc := startHTTP(t, as.args()...)

			var asked atomic.Int64
			changed := make(chan struct{}, 1)
			c, err := sdkclient.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: svc.url, OAuthHandler: oauthHandler(t)}, sdkclient.Options{
				ProtocolVersion: rev,
				SDK: sdk.ClientOptions{
					ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
						if strings.Contains(req.Params.Message, "Release PMT-771: 250000 AED") {
							asked.Add(1)
						}
						return confirm, nil
					},
					ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
						select {
						case changed <- struct{}{}:
						default:
						}
					},
				},
			})
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, svc.logs)
			}
			t.Cleanup(func() { c.Close() })
			if c.ProtocolVersion() != rev {
				t.Fatalf("the session speaks %q, want %q", c.ProtocolVersion(), rev)
			}

			typed := bank.NewClient(c)
			res, err := typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
			if err != nil || res.IsError || !strings.HasPrefix(res.Text(), "PMT-771: HELD") {
				t.Fatalf("lookup: %+v %v", res, err)
			}
			res, err = typed.PaymentsReleaseV1_0_0(ctx, bank.PaymentsReleaseV1_0_0Args{Reference: "PMT-771", AmountMinor: 250000, Currency: bank.PaymentsReleaseV1_0_0ArgsCurrencyAED})
			if err != nil || res.IsError || res.Text() != "PMT-771 released" || asked.Load() != 1 {
				t.Fatalf("release: %+v %v (asked %d)", res, err, asked.Load())
			}
			issued, resources, refused := as.record()
			if issued != 1 || !slices.Equal(resources, []string{svc.url}) || len(refused) != 0 {
				t.Errorf("authorization server: %d tokens for resources %q, refusals %q; want one token for %s", issued, resources, refused, svc.url)
			}

			for range 2 {
				tools, err := c.ListTools(ctx, false)
				if err != nil || !slices.Contains(names(tools), "payments.release") {
					t.Fatalf("tools/list: %v %v", names(tools), err)
				}
			}
			if c.ListCalls() != 1 {
				t.Fatalf("two lists cost %d round trips, want 1", c.ListCalls())
			}
			setLifecycle(t, svc.cmd.Process, svc.lifecycle, map[string]string{"payments.release@1.0.0": "retired"})
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatal("no notifications/tools/list_changed after the release was retired")
			}
			tools, err := c.ListTools(ctx, false)
			if err != nil || slices.Contains(names(tools), "payments.release") || c.ListCalls() != 2 || c.Invalidations() != 1 {
				t.Errorf("after list_changed: %v %v, %d lists, %d invalidations; want the release gone, 2, 1", names(tools), err, c.ListCalls(), c.Invalidations())
			}
		})
	}
}

func names(tools []client.Tool) []string {
	var out []string
	for _, tool := range tools {
		out = append(out, tool.Name)
	}
	return out
}

// TestTypedCallSurvivesADroppedStream: the answer to a typed call comes on
// an event stream that a proxy cuts after the stream's first event; the
// SDK's transport reconnects with Last-Event-ID and the answer arrives on
// the resumed stream. bankpayments keeps no event log to resume from, so
// the server here is the SDK's own, with its memory event store, serving
// a tool of the same name; it records the pins the typed call sent.
func TestTypedCallSurvivesADroppedStream(t *testing.T) {
	ctx := timeout(t)
	cut := make(chan struct{})
	var pinned atomic.Value
	server := sdk.NewServer(&sdk.Implementation{Name: "resumable", Version: "1"}, nil)
	server.AddTool(&sdk.Tool{Name: "payments.lookup", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			pinned.Store(req.Params.Meta[protocol.MetaVersion])
			select { // answer only once the stream that would carry the answer is gone
			case <-cut:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "PMT-771: HELD"}}}, nil
		})
	backend := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server },
		&sdk.StreamableHTTPOptions{EventStore: sdk.NewMemoryEventStore(nil)}))
	t.Cleanup(backend.Close)

	target, _ := url.Parse(backend.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var once sync.Once
	var resumed atomic.Bool
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method == http.MethodGet && resp.Request.Header.Get("Last-Event-ID") != "" {
			resumed.Store(true)
		}
		if resp.Request.Header.Get("X-Test-Call") == "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			return nil
		}
		resp.Body = &dropAfterFirstEvent{body: resp.Body, dropped: func() { once.Do(func() { close(cut) }) }}
		return nil
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"tools/call"`)) {
				r.Header.Set("X-Test-Call", "1")
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)

	c, err := sdkclient.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: front.URL}, sdkclient.Options{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	res, err := bank.NewClient(c).PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	if err != nil || res.Text() != "PMT-771: HELD" {
		t.Fatalf("call across the dropped stream: %+v %v", res, err)
	}
	select {
	case <-cut:
	default:
		t.Fatal("the stream was never cut: the test did not test resumption")
	}
	if !resumed.Load() || pinned.Load() != "1.0.0" {
		t.Errorf("resumed with Last-Event-ID: %v; version pinned: %v", resumed.Load(), pinned.Load())
	}
}

// dropAfterFirstEvent passes an event stream through up to the end of its
// first event, then fails as a connection that dropped.
type dropAfterFirstEvent struct {
	body    io.ReadCloser
	seen    []byte
	dropped func()
	done    bool
}

func (d *dropAfterFirstEvent) Read(p []byte) (int, error) {
	if d.done {
		d.dropped()
		return 0, errors.New("connection dropped")
	}
	n, err := d.body.Read(p)
	if i := bytes.Index(append(d.seen, p[:n]...), []byte("\n\n")); i >= 0 {
		n = i + 2 - len(d.seen)
		d.done = true
	}
	d.seen = append(d.seen, p[:n]...)
	return n, err
}

func (d *dropAfterFirstEvent) Close() error { return d.body.Close() }
