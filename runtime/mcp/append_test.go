package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// reflectEncode is encoding/json's encoding of v without HTML escaping
// (encode.Reflect): the encoding the appenders must reproduce.
func reflectEncode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := encode.Reflect(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestToolResultAppendsWhatReflectionEncodes holds callToolResult.AppendJSON
// to encoding/json's reading of its tags, with and without every optional
// member.
func TestToolResultAppendsWhatReflectionEncodes(t *testing.T) {
	ttl := int64(0)
	cases := []*callToolResult{
		{Content: []Content{}},
		{Content: []Content{TextContent("one"), TextContent("two")}, IsError: true},
		{Content: []Content{TextContent("s")}, StructuredContent: json.RawMessage(`{"a":[1,2]}`)},
		{Content: []Content{TextContent("m")}, common: common{
			ResultType: "complete", TTLMs: &ttl, CacheScope: cacheScopePrivate,
			Meta: map[string]any{"z": 1, "a": map[string]any{"k": "<v>"}},
		}},
	}
	for _, r := range cases {
		got, err := r.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := reflectEncode(t, r); !bytes.Equal(got, want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	}
}

// TestSharedReplyIsTheEncodedResult: a reply that leaves its result's bytes
// shared is, written out, the same message EncodeResult makes of them.
func TestSharedReplyIsTheEncodedResult(t *testing.T) {
	list := []byte(`{"name":"a"},{"name":"b"}`)
	for _, rest := range []string{"]}", `],"nextCursor":"c","ttlMs":60000}`} {
		r := sharedResult{lead: []byte(`{"tools":[`), open: list, rest: []byte(rest)}
		for _, id := range []jsonrpc.ID{jsonrpc.IntID(7), jsonrpc.StringID("x")} {
			got := replyWithShared(id, r).bytes()
			whole := append(append(append([]byte{}, r.lead...), r.open...), r.rest...)
			want, err := jsonrpc.EncodeResult(id, json.RawMessage(whole))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		}
	}
	if string(list) != `{"name":"a"},{"name":"b"}` {
		t.Errorf("the shared bytes changed: %s", list)
	}
}

// TestSharedServerInfoIsEncodedOnce: a result of the stateless era carries
// serverInfo in its _meta; the server encodes that _meta once per revision
// and every such result appends those bytes, which are what encoding/json
// makes of the result, whether its _meta is the shared one or a handler's
// with serverInfo added.
func TestSharedServerInfoIsEncodedOnce(t *testing.T) {
	srv, err := NewServer(Options{Name: "shared", Title: "Shared <info>", Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rev := Revision20260728
	first, second := &callToolResult{Content: []Content{TextContent("a")}}, &callToolResult{Content: []Content{}}
	srv.finish(rev, &first.common, "")
	srv.finish(rev, &second.common, "")
	if first.metaJSON == nil || &first.metaJSON[0] != &second.metaJSON[0] {
		t.Fatalf("the two results do not share one encoding of their _meta: %q, %q", first.metaJSON, second.metaJSON)
	}
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() { _, _ = first.AppendJSON(buf[:0]) }); n != 0 {
		t.Errorf("appending a result with the shared _meta allocates %v times: it is encoded again", n)
	}
	own := &callToolResult{Content: []Content{}, common: common{Meta: map[string]any{"k": "v"}}}
	srv.finish(rev, &own.common, "")
	for _, r := range []*callToolResult{first, second, own} {
		got, err := r.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := reflectEncode(t, r); !bytes.Equal(got, want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
		if !bytes.Contains(got, []byte(`"`+MetaServerInfo+`":{"name":"shared"`)) {
			t.Errorf("no serverInfo in %s", got)
		}
	}
}

// padded writes itself: {"pad":"<n x's>"}.
type padded int

func (p padded) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"pad":"`...)
	b = append(b, strings.Repeat("x", int(p))...)
	return append(b, `"}`...), nil
}

// TestStructuredBufferIsKeptWithinBound: a structured content that writes
// itself is written into the buffer the result keeps, which the next
// call's content reuses; one larger than maxKeptBuffer is not kept, and a
// content encoding/json writes leaves the buffer alone.
func TestStructuredBufferIsKeptWithinBound(t *testing.T) {
	var buf []byte
	first, err := encodeStructured(padded(3), &buf)
	if err != nil || string(first) != `{"pad":"xxx"}` {
		t.Fatalf("first: %s, %v", first, err)
	}
	if cap(buf) == 0 || &buf[:1][0] != &first[0] {
		t.Fatal("the buffer written into is not kept")
	}
	second, err := encodeStructured(padded(5), &buf)
	if err != nil || string(second) != `{"pad":"xxxxx"}` || &second[0] != &first[0] {
		t.Errorf("second: %s, %v; written into the kept buffer: %v", second, err, &second[0] == &first[0])
	}
	kept := buf
	if enc, err := encodeStructured(map[string]int{"a": 1}, &buf); err != nil || string(enc) != `{"a":1}` || &buf[:1][0] != &kept[:1][0] {
		t.Errorf("a content encoding/json writes: %s, %v; the buffer changed: %v", enc, err, &buf[:1][0] != &kept[:1][0])
	}
	big, err := encodeStructured(padded(maxKeptBuffer), &buf)
	if err != nil || len(big) != maxKeptBuffer+len(`{"pad":""}`) {
		t.Fatalf("big: %d bytes, %v", len(big), err)
	}
	if buf != nil {
		t.Errorf("a buffer of %d bytes is kept", cap(buf))
	}
}
