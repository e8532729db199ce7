package mcphttp_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/memhttp"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// BenchmarkServedCall is one tools/call through the endpoint's Handler,
// called in process one after another, with neither a connection nor a
// client on the clock. "handler" is the Handler as NewHandler makes it,
// its calls without a timeout, as the bench module's HTTP rows serve;
// "service" is what a service runs: every request under a Server's drain
// (WithDrain) and a connection's cancellable context, and every call with
// a service's default 30 s timeout. What the second costs above the first
// is the price of the service's contexts on every call.
func BenchmarkServedCall(b *testing.B) {
	for _, era := range []string{"handshake", "stateless"} {
		for _, setup := range []string{"handler", "service"} {
			b.Run("era="+era+"/setup="+setup, func(b *testing.B) {
				var timeout time.Duration
				base := context.Background()
				if setup == "service" {
					timeout = 30 * time.Second
					drain, cancel := context.WithCancel(context.Background())
					b.Cleanup(cancel)
					base = mcphttp.WithDrain(drain)
				}
				srv := newMCPServerWith(b, func(opts *mcp.Options) { opts.CallTimeout = timeout })
				h := mcphttp.NewHandler(srv, mcphttp.Options{Authenticator: auth.Static{Principal: investigator}})
				b.Cleanup(func() { h.Close() })
				w := &memhttp.Writer{}
				header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
				body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"}}}`
				if era == "stateless" {
					header.Set(mcphttp.HeaderProtocolVersion, "2026-07-28")
					header.Set(mcphttp.HeaderMethod, "tools/call")
					header.Set(mcphttp.HeaderName, "payments.lookup")
					body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},` +
						`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
				} else {
					if status := post(w, base, h, header, initialize); status != http.StatusOK {
						b.Fatalf("initialize: %d %s", status, w.Body.Bytes())
					}
					header.Set(mcphttp.HeaderSessionID, w.Header().Get(mcphttp.HeaderSessionID))
					header.Set(mcphttp.HeaderProtocolVersion, "2025-11-25")
					if status := post(w, base, h, header, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
						b.Fatalf("initialized: %d %s", status, w.Body.Bytes())
					}
				}
				want := []byte("PMT-771: HELD")
				b.ReportAllocs()
				for b.Loop() {
					if status := post(w, base, h, header, body); status != http.StatusOK || !bytes.Contains(w.Body.Bytes(), want) {
						b.Fatalf("tools/call: %d %.600s", status, w.Body.Bytes())
					}
				}
			})
		}
	}
}

// post is w.Post of body under a cancellable context of base, as a
// connection's request is.
func post(w *memhttp.Writer, base context.Context, h http.Handler, header http.Header, body string) int {
	ctx, cancel := context.WithCancel(base)
	defer cancel()
	return w.Post(ctx, h, header, []byte(body))
}
