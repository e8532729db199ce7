package interop

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/banktest"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// listsServer serves a large estate and catalogue in small pages: tools
// tool.000 to tool.239, every third of them needing a scope the
// investigator lacks, and 60 resources and 60 prompts, the resources of
// every fourth limited to another tenant. It returns what the
// investigator may see.
func listsServer(t *testing.T) (srv *mcp.Server, tools, resources, prompts []string) {
	t.Helper()
	var rs []mcp.Resource
	var ps []mcp.Prompt
	for i := range 60 {
		r := mcp.Resource{URI: fmt.Sprintf("note://%03d", i), Name: fmt.Sprint("note ", i), Text: "n"}
		if i%4 == 0 {
			r.Tenants = []string{"retail"}
		} else {
			resources = append(resources, r.URI)
		}
		rs = append(rs, r)
		ps = append(ps, mcp.Prompt{Name: fmt.Sprintf("prompt.%03d", i), Template: "p"})
		prompts = append(prompts, fmt.Sprintf("prompt.%03d", i))
	}
	srv, err := mcp.NewServer(mcp.Options{PageSize: 25, Resources: rs, Prompts: ps})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for i := range 240 {
		spec := estate.ToolSpec{
			Name: fmt.Sprintf("tool.%03d", i), Version: estate.MustParseVersion("1.0.0"), Description: "A tool.",
			InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read,
			DataClassification: estate.Public, Owner: "platform",
		}
		if i%3 == 0 {
			spec.RequiredScopes = []string{"treasury.admin"}
		} else {
			tools = append(tools, spec.Name)
		}
		if err := srv.Bind(spec, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	return srv, tools, resources, prompts
}

// connectTo connects the official Go SDK client to srv as the
// investigator, over in-memory stdio or the Streamable HTTP transport.
func connectTo(t *testing.T, ctx context.Context, srv *mcp.Server, transport, revision string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	cs, _ := connectWatching(t, ctx, srv, transport, revision, opts)
	return cs
}

// connectWatching is connectTo, and acked is closed once the server has
// acknowledged a subscriptions/listen on the connection. The SDK client
// opens its listen without waiting for that (stateless revisions): a
// change made before the server has the subscription is not notified.
func connectWatching(t *testing.T, ctx context.Context, srv *mcp.Server, transport, revision string, opts *sdk.ClientOptions) (cs *sdk.ClientSession, acked <-chan struct{}) {
	t.Helper()
	seen := &ackSeen{c: make(chan struct{})}
	var tr sdk.Transport
	switch transport {
	case "stdio":
		r, w := banktest.ServeStdio(srv, banktest.Investigator)
		tr = &sdk.IOTransport{Reader: io.NopCloser(&ackReader{r: r, watch: seen.stream()}), Writer: w}
	case "http":
		h := mcphttp.NewHandler(srv, mcphttp.Options{Authenticator: auth.Static{Principal: banktest.Investigator}})
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(&ackWriter{ResponseWriter: w, watch: seen.stream()}, r)
		}))
		t.Cleanup(func() { hs.Close(); h.Close() })
		tr = &sdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "interop", Version: "1.0.0"}, opts).Connect(ctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatalf("connect over %s (%s): %v", transport, revision, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, seen.c
}

// ackSeen closes c when one of the server's streams of messages carries a
// subscriptions/listen acknowledgement.
type ackSeen struct {
	once sync.Once
	c    chan struct{}
}

const ackMarker = `"notifications/subscriptions/acknowledged"`

// stream returns the watch of one stream: it is given the stream's bytes
// in order, however they are cut.
func (a *ackSeen) stream() func([]byte) {
	var tail []byte
	return func(p []byte) {
		tail = append(tail, p...)
		if bytes.Contains(tail, []byte(ackMarker)) {
			a.once.Do(func() { close(a.c) })
		}
		if keep := len(ackMarker) - 1; len(tail) > keep {
			tail = append(tail[:0], tail[len(tail)-keep:]...)
		}
	}
}

// ackReader is the server's stdio output, watched.
type ackReader struct {
	r     io.Reader
	watch func([]byte)
}

func (a *ackReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	a.watch(p[:n])
	return n, err
}

// ackWriter is one HTTP response of the server's, watched.
type ackWriter struct {
	http.ResponseWriter
	watch func([]byte)
}

func (a *ackWriter) Write(p []byte) (int, error) {
	a.watch(p)
	return a.ResponseWriter.Write(p)
}

func (a *ackWriter) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// collect runs one of the SDK's paging iterators to its end.
func collect[T any](t *testing.T, seq func(yield func(T, error) bool), name func(T) string) []string {
	t.Helper()
	var names []string
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name(v))
	}
	return names
}

// The SDK's client pages through every list, following nextCursor, over
// stdio and HTTP in each era: it meets every entry the investigator may see
// exactly once, in order, and none it may not; a list longer than a page
// takes more than one.
func TestPagesThroughTheSDK(t *testing.T) {
	srv, tools, resources, prompts := listsServer(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, rev := range sdkRevisions {
			t.Run(transport+"/"+rev, func(t *testing.T) {
				ctx := timeout(t)
				cs := connectTo(t, ctx, srv, transport, rev, nil)
				if got := collect(t, cs.Tools(ctx, nil), func(v *sdk.Tool) string { return v.Name }); !slices.Equal(got, tools) {
					t.Errorf("tools: %d listed, want %d: %v", len(got), len(tools), got)
				}
				if got := collect(t, cs.Resources(ctx, nil), func(v *sdk.Resource) string { return v.URI }); !slices.Equal(got, resources) {
					t.Errorf("resources: %v", got)
				}
				if got := collect(t, cs.Prompts(ctx, nil), func(v *sdk.Prompt) string { return v.Name }); !slices.Equal(got, prompts) {
					t.Errorf("prompts: %v", got)
				}
				first, err := cs.ListTools(ctx, nil)
				if err != nil || len(first.Tools) != 25 || first.NextCursor == "" {
					t.Fatalf("first page: %d tools, nextCursor %q, %v", len(first.Tools), first.NextCursor, err)
				}
			})
		}
	}
}

// notified is a channel of the list-changed notifications a client got.
type notified chan string

func (n notified) note(kind string) {
	select {
	case n <- kind:
	default:
	}
}

// A resource or a prompt added or removed at runtime reaches the SDK's
// client as notifications/resources/list_changed or
// notifications/prompts/list_changed, over stdio and HTTP in each era
// (the stateless one through subscriptions/listen), and the lists it reads
// then show the change.
func TestResourceAndPromptChangesReachTheSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, rev := range sdkRevisions {
			t.Run(transport+"/"+rev, func(t *testing.T) {
				srv, err := mcp.NewServer(mcp.Options{Prompts: []mcp.Prompt{{Name: "triage", Template: "Triage."}}})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { srv.Close() })
				ctx := timeout(t)
				got := make(notified, 8)
				cs, acked := connectWatching(t, ctx, srv, transport, rev, &sdk.ClientOptions{
					ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { got.note("resources") },
					PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { got.note("prompts") },
				})
				caps := cs.InitializeResult().Capabilities
				if caps.Resources == nil || !caps.Resources.ListChanged || caps.Prompts == nil || !caps.Prompts.ListChanged {
					t.Fatalf("capabilities: %+v", caps)
				}
				// Over HTTP in the handshake era the notifications come on the
				// session's GET stream, which the client opens after the
				// handshake: a list read first means the session is in use.
				if _, err := cs.ListPrompts(ctx, nil); err != nil {
					t.Fatal(err)
				}
				// In the stateless era the client listens without waiting
				// for the server to have its subscription.
				if r, _ := mcp.ParseRevision(rev); r.Stateless() {
					select {
					case <-acked:
					case <-ctx.Done():
						t.Fatal("the client's subscriptions/listen was never acknowledged")
					}
				}
				expect := func(kind string) {
					t.Helper()
					select {
					case k := <-got:
						if k != kind {
							t.Fatalf("notified of %s, want %s", k, kind)
						}
					case <-ctx.Done():
						t.Fatalf("no %s list_changed", kind)
					}
				}
				if err := srv.AddResource(mcp.Resource{URI: "policy://holds", Name: "Holds", Text: "Hold."}); err != nil {
					t.Fatal(err)
				}
				expect("resources")
				res, err := cs.ListResources(ctx, nil)
				if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != "policy://holds" {
					t.Fatalf("resources after the change: %+v %v", res, err)
				}
				if !srv.RemovePrompt("triage") {
					t.Fatal("the prompt was not there to remove")
				}
				expect("prompts")
				ps, err := cs.ListPrompts(ctx, nil)
				if err != nil || len(ps.Prompts) != 0 {
					t.Fatalf("prompts after the change: %+v %v", ps, err)
				}
			})
		}
	}
}
