package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// listTools is the estate size of the tools/list row.
const listTools = 1000

var listRequest = request(2, "tools/list", map[string]any{})

// countTools counts the entries of a tools/list response.
func countTools(resp []byte) int { return bytes.Count(resp, []byte(`"name":"tool.`)) }

var (
	anchorsOnce  sync.Once
	sdkListSrv   *sdk.Server
	mcpGoListSrv *mcpgoserver.MCPServer
)

// listAnchors builds the anchors' servers over the same 1,000 tools once.
func listAnchors(tb testing.TB, tools []estateTool) (*sdk.Server, *mcpgoserver.MCPServer) {
	anchorsOnce.Do(func() {
		sdkListSrv = newSDKServer(tb, tools)
		mcpGoListSrv = newMcpGoServer(tools)
	})
	return sdkListSrv, mcpGoListSrv
}

// BenchmarkList is tools/list over an estate of 1,000 tools (three
// versions each for mcpgen, which lists the newest visible one of each),
// through the whole server over an in-process pipe. mcpgen answers for a
// principal: "warm" is a principal whose view was listed before (the
// steady state of a client that lists on every turn), "cold" the first
// list of a view never seen (a new tenant each time: discovery runs over the
// whole estate). The anchors have no notion of a principal and list
// everything.
func BenchmarkList(b *testing.B) {
	e := syntheticEstate(b, estateKey{tools: listTools})
	runtime.GC() // the estate's construction is not what is timed
	check := func(b *testing.B, resp []byte) {
		if n := countTools(resp); n != listTools {
			b.Fatalf("tools/list listed %d tools, want %d:\n%.400s", n, listTools, resp)
		}
	}
	run := func(b *testing.B, c *pipeConn) {
		resp, err := c.roundTrip(listRequest)
		if err != nil {
			b.Fatal(err)
		}
		check(b, resp)
		b.ReportAllocs()
		for b.Loop() {
			if err := c.timedTrip(listRequest); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("impl=mcpgen/view=warm", func(b *testing.B) {
		run(b, dialed(b, serveMcpgen(e.srv, principalOf(0))))
	})
	b.Run("impl=mcpgen/view=cold", func(b *testing.B) {
		// Entries are derived once per version per server; list once so
		// that what is timed is the view, not the derivation.
		warm := dialed(b, serveMcpgen(e.srv, principalOf(0)))
		if _, err := warm.roundTrip(listRequest); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer() // the loop times each cold list alone
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			p := principalOf(0)
			p.Tenant = fmt.Sprintf("cold-%d", coldViews.Add(1)) // a view never listed
			c := dial(serveMcpgen(e.srv, p))
			if err := c.handshake(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			var err error
			if i == 0 {
				var resp []byte
				resp, err = c.roundTrip(listRequest)
				check(b, resp)
			} else {
				err = c.timedTrip(listRequest)
			}
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			c.close()
			b.StartTimer()
		}
	})
	sdkSrv, mcpGoSrv := listAnchors(b, e.specs)
	b.Run("impl=go-sdk", func(b *testing.B) {
		run(b, dialed(b, serveSDK(sdkSrv)))
	})
	b.Run("impl=mcp-go", func(b *testing.B) {
		run(b, dialed(b, serveMcpGo(mcpGoSrv)))
	})
}

// scaleCase is one point of the tools/list curve: an estate of tools (three
// versions each) split into groups by tenant, listed by 100 principals of
// which each sees tools/groups tools.
type scaleCase struct{ tools, visible int }

var scaleCases = []scaleCase{
	{1000, 100}, {10000, 100}, {100000, 100}, // the estate grows, the view does not
	{100000, 10}, {100000, 1000}, // the view grows in the largest estate
}

// scalePrincipals is how many different principals list.
const scalePrincipals = 100

// BenchmarkListScale is tools/list for 100 different principals in turn,
// through Session.Handle (no transport: the cost of the server alone),
// over estates of 1,000 to 100,000 tools. It reports the visible tools per
// list and the cost per visible tool: the warm cost follows the view, not
// the estate. "cold" is the first list of a view (a principal with a scope
// set never seen), which reads the whole estate once.
func BenchmarkListScale(b *testing.B) {
	for _, c := range scaleCases {
		groups := c.tools / c.visible
		name := fmt.Sprintf("estate=%d/visible=%d", c.tools, c.visible)
		b.Run(name+"/view=warm", func(b *testing.B) {
			e := syntheticEstate(b, estateKey{tools: c.tools, groups: groups})
			sessions := make([]*mcp.Session, scalePrincipals)
			for i := range sessions {
				sessions[i] = initializedSession(b, e.srv, principalOf(i%groups))
				if resp := sessions[i].Handle(context.Background(), listRequest); countTools(resp) != c.visible {
					b.Fatalf("principal %d sees %d tools, want %d", i, countTools(resp), c.visible)
				}
			}
			runtime.GC() // the estate's construction is not what is timed
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sessions[i%scalePrincipals].Handle(context.Background(), listRequest)
				i++
			}
			b.ReportMetric(float64(c.visible), "tools/list")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.visible), "ns/tool")
		})
		b.Run(name+"/view=cold", func(b *testing.B) {
			e := syntheticEstate(b, estateKey{tools: c.tools, groups: groups})
			initializedSession(b, e.srv, principalOf(0)).Handle(context.Background(), listRequest)
			runtime.GC()
			b.ReportAllocs()
			// Without this, a run of one iteration (the largest estates)
			// would time the collection above, of a heap of gigabytes.
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				p := principalOf(i % groups)
				p.Scopes = []string{"payments.read", fmt.Sprintf("cold.%d", coldViews.Add(1))} // a view never listed
				sess := initializedSession(b, e.srv, p)
				b.StartTimer()
				resp := sess.Handle(context.Background(), listRequest)
				b.StopTimer()
				if i == 0 && countTools(resp) != c.visible {
					b.Fatalf("sees %d tools, want %d", countTools(resp), c.visible)
				}
				sess.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(c.visible), "tools/list")
		})
	}
}

// BenchmarkListPages is tools/list over an estate of 5,000 tools, all
// visible, in pages of 100: the first page, one from the middle and the
// last, each asked for with its cursor, through Session.Handle
// (transport=none) and over Streamable HTTP (transport=http: the
// stateless era, one POST a page, as a client pages through a large
// estate). A page is a slice of the view's encoded list found by binary
// search, so its time should not grow with its position in the list.
func BenchmarkListPages(b *testing.B) {
	const tools, size = 5000, 100
	e := syntheticEstate(b, estateKey{tools: tools, pageSize: size})
	sess := initializedSession(b, e.srv, principalOf(0))
	h := mcphttp.NewHandler(e.srv, mcphttp.Options{Authenticator: auth.Static{Principal: principalOf(0)}, Stateless: true})
	ts := httptest.NewServer(h)
	b.Cleanup(func() {
		h.Close()
		ts.CloseClientConnections()
		ts.Close()
	})
	hc := &http.Client{Transport: newHTTPTransport(b)}
	web := &rawClient{hc: hc, url: ts.URL + "/mcp", header: http.Header{
		"Content-Type":                {"application/json"},
		"Accept":                      {"application/json, text/event-stream"},
		mcphttp.HeaderProtocolVersion: {statelessRevision},
		mcphttp.HeaderMethod:          {"tools/list"},
	}}
	page := func(cursor string, stateless bool) []byte {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		if stateless {
			params["_meta"] = statelessMeta()
		}
		return request(2, "tools/list", params)
	}
	// The cursors of every page, found by paging through once, in both
	// ways; the pages must be the same.
	var cursors []string
	for cursor := ""; ; {
		resp := sess.Handle(context.Background(), page(cursor, false))
		status, overHTTP, _, err := web.post(page(cursor, true), web.header)
		if err != nil || status != http.StatusOK {
			b.Fatalf("page %d over HTTP: %d %v %.300s", len(cursors)+1, status, err, overHTTP)
		}
		if n, m := countTools(resp), countTools(overHTTP); n != size || m != size {
			b.Fatalf("page %d lists %d tools (%d over HTTP), want %d", len(cursors)+1, n, m, size)
		}
		cursors = append(cursors, cursor)
		var next struct {
			Result struct {
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if err := json.Unmarshal(resp, &next); err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(overHTTP, []byte(`"nextCursor":"`+next.Result.NextCursor+`"`)) && next.Result.NextCursor != "" {
			b.Fatalf("page %d: HTTP's next cursor is not the session's", len(cursors))
		}
		if next.Result.NextCursor == "" {
			break
		}
		cursor = next.Result.NextCursor
	}
	if len(cursors) != tools/size {
		b.Fatalf("%d pages, want %d", len(cursors), tools/size)
	}
	runtime.GC()
	for _, at := range []struct {
		name string
		page int
	}{{"first", 0}, {"middle", len(cursors) / 2}, {"last", len(cursors) - 1}} {
		direct, overHTTP := page(cursors[at.page], false), page(cursors[at.page], true)
		b.Run("transport=none/page="+at.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sess.Handle(context.Background(), direct)
			}
			b.ReportMetric(size, "tools/page")
		})
		b.Run("transport=http/page="+at.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if status, _, _, err := web.post(overHTTP, web.header); err != nil || status != http.StatusOK {
					b.Fatalf("%d %v", status, err)
				}
			}
			b.ReportMetric(size, "tools/page")
		})
	}
}

// coldViews numbers the views made up for cold lists, so that no two runs
// of a benchmark (-count, or the runs that size b.N) ever list the same
// one.
var coldViews atomic.Int64

// initializedSession opens a session for p and runs the handshake.
func initializedSession(tb testing.TB, srv *mcp.Server, p estate.Principal) *mcp.Session {
	tb.Helper()
	sess := srv.NewSession(p, nil)
	ctx := context.Background()
	resp := sess.Handle(ctx, initializeRequest(protocolVersion))
	if !bytes.Contains(resp, []byte(`"protocolVersion"`)) {
		tb.Fatalf("initialize: %s", resp)
	}
	sess.Handle(ctx, []byte(initializedNotification))
	return sess
}
