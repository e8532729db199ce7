package bench

import (
	"bytes"
	"net/http"
	"testing"
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
			w := &memoryWriter{}
			if err := prepareCall(impl, header, spec.Name, func(body []byte, header http.Header) (int, []byte, http.Header, error) {
				status := w.serve(h, header, body)
				return status, w.body.Bytes(), w.header, nil
			}); err != nil {
				b.Fatal(err)
			}
			body := httpCallBody(spec.Name, impl.stateless)
			want := []byte(lookupText("PMT-771"))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if status := w.serve(h, header, body); status != http.StatusOK || !bytes.Contains(w.body.Bytes(), want) {
					b.Fatalf("tools/call: %d %.600s", status, w.body.Bytes())
				}
			}
		})
	}
}

// memoryWriter is an http.ResponseWriter writing to memory, reused from
// one request to the next.
type memoryWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
	reader bytes.Reader
}

// serve calls h with one POST of body and returns the status it answered.
func (w *memoryWriter) serve(h http.Handler, header http.Header, body []byte) int {
	w.header, w.status = http.Header{}, 0
	w.body.Reset()
	w.reader.Reset(body)
	r, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", &w.reader)
	if err != nil {
		panic(err)
	}
	r.Header = header
	r.ContentLength = int64(len(body))
	r.RemoteAddr = "127.0.0.1:1"
	h.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status
}

func (w *memoryWriter) Header() http.Header { return w.header }

func (w *memoryWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *memoryWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}

// Flush is a no-op: the answer is in memory already.
func (w *memoryWriter) Flush() {}
