package memhttp

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// A handler sees the POST as sent, and its answer is kept: the first
// status written, 200 when none was, the headers and the body; the next
// Post starts afresh.
func TestPost(t *testing.T) {
	var w Writer
	echo := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("X-Test") != "yes" || r.ContentLength != int64(len(body)) || r.Context().Value(ctxKey{}) != "v" {
			t.Errorf("request: %s %v %d %q", r.Method, r.Header, r.ContentLength, body)
		}
		rw.Header().Set("X-Answer", "a")
		rw.WriteHeader(http.StatusCreated)
		rw.WriteHeader(http.StatusTeapot)
		rw.Write(body)
	})
	ctx := context.WithValue(context.Background(), ctxKey{}, "v")
	if status := w.Post(ctx, echo, http.Header{"X-Test": {"yes"}}, []byte("ping")); status != http.StatusCreated || w.Body.String() != "ping" || w.Header().Get("X-Answer") != "a" {
		t.Errorf("Post: %d %q %v", status, w.Body.String(), w.Header())
	}
	silent := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	if status := w.Post(context.Background(), silent, http.Header{}, nil); status != http.StatusOK || w.Body.Len() != 0 || len(w.Header()) != 0 {
		t.Errorf("a handler that writes nothing: %d %q %v", status, w.Body.String(), w.Header())
	}
}

type ctxKey struct{}
