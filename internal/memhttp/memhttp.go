// Package memhttp calls an http.Handler in process, one POST after
// another, its answers written to memory: for benchmarks that measure
// what a handler itself costs a request, with neither a connection, nor
// a client, nor net/http's serving of the connection on the clock.
package memhttp

import (
	"bytes"
	"context"
	"net/http"
)

// Writer is an http.ResponseWriter writing to memory, reused from one
// request to the next. The zero Writer is ready to use.
type Writer struct {
	header http.Header
	status int
	// Body is the last answer's body.
	Body   bytes.Buffer
	reader bytes.Reader
}

// Post calls h with one POST of body, with header and under ctx, as a
// client on the loopback address sends it, and returns the status h
// answered; its headers are w.Header(), its body w.Body.
func (w *Writer) Post(ctx context.Context, h http.Handler, header http.Header, body []byte) int {
	w.header, w.status = http.Header{}, 0
	w.Body.Reset()
	w.reader.Reset(body)
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1/mcp", &w.reader)
	if err != nil {
		panic(err) // the method and address are this function's own
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

// Header is the last answer's header.
func (w *Writer) Header() http.Header { return w.header }

// WriteHeader keeps the first status written.
func (w *Writer) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *Writer) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.Body.Write(p)
}

// Flush is a no-op: the answer is in memory already.
func (w *Writer) Flush() {}
