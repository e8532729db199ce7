package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/fleet"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// serveFleet starts n replicas of the bank server, each its own
// mcp.Server and mcphttp.Handler sharing store (nil: none, each replica
// keeps its sessions), behind a reverse proxy that sends each request to
// the next replica in turn.
func serveFleet(tb testing.TB, n int, store fleet.Store) *httpServer {
	tb.Helper()
	var targets []*url.URL
	for range n {
		srv := newBankServer(tb)
		opts := mcphttp.Options{Authenticator: auth.Static{Principal: investigator}}
		if store != nil {
			opts.Sessions, opts.Events = store, store.Events()
		}
		h := mcphttp.NewHandler(srv, opts)
		ts := httptest.NewServer(h)
		tb.Cleanup(func() {
			h.Close()
			srv.Close()
			ts.CloseClientConnections()
			ts.Close()
		})
		u, err := url.Parse(ts.URL)
		if err != nil {
			tb.Fatal(err)
		}
		targets = append(targets, u)
	}
	var next atomic.Uint64
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(targets[next.Add(1)%uint64(len(targets))]) },
		Transport: newHTTPTransport(tb),
	}
	ts := httptest.NewServer(proxy)
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return &httpServer{impl: httpImpl{name: fmt.Sprintf("fleet of %d", n), mcp: true}, url: ts.URL + "/mcp"}
}

// BenchmarkFleet is BenchmarkHTTP's call (raw client, eight sessions)
// through a round-robin reverse proxy to 1 or 3 replicas, with the
// sessions kept by each replica (store=none: only one replica can serve
// them), by a store in this process's memory the replicas share
// (store=memory, what the in-memory default costs), or by a Redis server
// (store=redis, a redis-server of the machine on loopback; skipped when
// none is installed). Every request reads its session from the store, so
// store=redis against store=memory is the Redis store's cost per call.
// On one machine the replicas share its cores with the proxy, the
// clients and Redis: replicas=3 shows what sharing state costs, not what
// three machines would serve.
func BenchmarkFleet(b *testing.B) {
	tool := bankSpec(b, unpinnedLookup).Name
	hc := &http.Client{Transport: newHTTPTransport(b)}
	stores := []struct {
		name string
		open func(b *testing.B) fleet.Store
	}{
		{"none", func(*testing.B) fleet.Store { return nil }},
		{"memory", func(*testing.B) fleet.Store { return fleet.NewMemory(eventstore.MemoryOptions{}) }},
		{"redis", func(b *testing.B) fleet.Store {
			r, err := fleet.NewRedis(redistest.Start(b).URL(), fleet.RedisOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { r.Close() })
			return r
		}},
	}
	for _, st := range stores {
		b.Run("store="+st.name, func(b *testing.B) {
			store := st.open(b)
			for _, n := range []int{1, 3} {
				if n > 1 && store == nil {
					continue // sessions of one replica are 404 on the others
				}
				b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
					var callers []caller
					parent := b
					b.Run("clients=8", func(b *testing.B) {
						if callers == nil {
							s := serveFleet(parent, n, store)
							callers = dialCallers(b, parent, hc, s, "raw", tool, 8)
						}
						runCallers(b, callers)
					})
				})
			}
		})
	}
}
