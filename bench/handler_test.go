package bench

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/internal/memhttp"
)

// BenchmarkHTTPHandler is the HTTP row's call with no connection: each
// server's handler called in process (ServeHTTP), one request after
// another, its answer written to a reused in-memory writer. It is what the
// server itself costs a call, with neither the client, the loopback
// socket nor net/http's connection serving on the clock: the HTTP row's
// figure above the bare POST, read without their noise. "bare-post" is the
// floor (reading the body, writing a fixed answer).
//
// Stateful servers are initialized once through the same handler, as the
// HTTP row's raw client does (prepareCall); every answer is checked to be
// 200 and to hold the result text.
func BenchmarkHTTPHandler(b *testing.B) {
	spec := bankSpec(b, unpinnedLookup)
	tools := []sdkTool{{name: spec.Name, description: spec.Description, schema: schemaJSON(b, spec.InputSchema)}}
	for _, impl := range httpImpls {
		if impl.name != "bare-post" && impl.name != "mcpgen" && impl.name != "mcpgen-stateless" && impl.name != "mcpgo" {
			continue // the SDK's handlers answer as event streams, on goroutines of their own
		}
		b.Run("impl="+impl.name, func(b *testing.B) {
			h, closeHandler := impl.handler(b, tools)
			b.Cleanup(closeHandler)
			header := http.Header{
				"Content-Type": {"application/json"},
				"Accept":       {"application/json, text/event-stream"},
			}
			w := &memhttp.Writer{}
			if err := prepareCall(impl, header, spec.Name, func(body []byte, header http.Header) (int, []byte, http.Header, error) {
				status := w.Post(context.Background(), h, header, body)
				return status, w.Body.Bytes(), w.Header(), nil
			}); err != nil {
				b.Fatal(err)
			}
			body := httpCallBody(spec.Name, impl.stateless)
			want := []byte(lookupText("PMT-771"))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if status := w.Post(context.Background(), h, header, body); status != http.StatusOK || !bytes.Contains(w.Body.Bytes(), want) {
					b.Fatalf("tools/call: %d %.600s", status, w.Body.Bytes())
				}
			}
		})
	}
}
