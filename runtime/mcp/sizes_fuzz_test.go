package mcp_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// sizedRequest builds a valid request of adversarial proportions: keys
// members in _meta (each named name plus a counter), unknown params members
// as many, a _meta member nested depth levels deep, a method of methodLen
// bytes when shape says so, and the era's keys when stateless.
func sizedRequest(shape byte, keys, depth, methodLen int, name string) string {
	var b strings.Builder
	method := "tools/call"
	switch shape % 4 {
	case 1:
		method = "tools/list"
	case 2:
		method = strings.Repeat("m", methodLen)
	}
	quoted := func(s string) string {
		q, _ := jsontext.AppendQuote(nil, s)
		return string(q)
	}
	b.WriteString(`{"jsonrpc":"2.0","id":"sized","method":` + quoted(method) + `,"params":{"name":"fz.lookup","arguments":{"reference":"PMT-771"}`)
	for i := range keys {
		b.WriteString(`,` + quoted("u"+name+strconv.Itoa(i)) + `:0`)
	}
	b.WriteString(`,"_meta":{`)
	if shape%8 >= 4 {
		b.WriteString(`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},`)
	}
	for i := range keys {
		b.WriteString(quoted(name+strconv.Itoa(i)) + `:[1,{"x":"y"}],`)
	}
	b.WriteString(`"deep":` + strings.Repeat(`{"d":`, depth) + `0` + strings.Repeat(`}`, depth) + `}}}`)
	return b.String()
}

// FuzzRequestSizes feeds a session requests of adversarial sizes (many
// _meta and params members, long names, a deep _meta, a long method),
// built valid, in both eras: each is answered with one well-formed
// response under its id, and serving it allocates at most a few times its
// size.
func FuzzRequestSizes(f *testing.F) {
	f.Add(byte(0), uint16(1000), uint16(100), uint16(10), "k")
	f.Add(byte(5), uint16(20000), uint16(0), uint16(0), "")
	f.Add(byte(4), uint16(10), uint16(9000), uint16(0), "n")
	f.Add(byte(2), uint16(0), uint16(0), uint16(60000), "m")
	f.Add(byte(1), uint16(3), uint16(2), uint16(1), strings.Repeat("long", 2000))
	f.Add(byte(6), uint16(500), uint16(500), uint16(5), "é\\\"\u2028")
	f.Fuzz(func(t *testing.T, shape byte, keys, depth, methodLen uint16, name string) {
		if len(name) > 8<<10 {
			name = name[:8<<10]
		}
		req := []byte(sizedRequest(shape, int(keys)%20001, int(depth)%9990, int(methodLen), name))
		srv := answersFuzzServer(t)
		sess := srv.NewSession(estate.Principal{AgentID: "fz", Tenant: "fz-tenant", Scopes: []string{"fz.read"}, MaxClassification: estate.Internal}, nil)
		ctx := context.Background()
		sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fz","version":"1"}}}`))
		sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))

		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		out := sess.Handle(ctx, req)
		runtime.ReadMemStats(&after)
		checkAnswer(t, req[:min(len(req), 200)], out, true, jsonrpc.StringID("sized"))
		// Four times its size, and a constant: checking names keeps a
		// frame per level of nesting, some 12 bytes where a level can be
		// 2, for at most the 10,000 levels a message may have.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(req))+512<<10 {
			t.Errorf("a request of %d bytes (shape %d, %d keys, depth %d, method %d, name %d) allocated %d",
				len(req), shape, keys, depth, methodLen, len(name), alloc)
		}
		sess.Close()
	})
}
