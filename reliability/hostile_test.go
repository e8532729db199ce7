package reliability

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// hostile is a class of request a caller can send to make the server work
// or hold memory out of proportion to what it sent: build returns one such
// request of about size bytes, under id (JSON text), and answer says
// whether got is the answer it should get.
type hostile struct {
	name   string
	build  func(id string, size int) string
	answer func(got string) bool
	// lead marks a class whose cost lies in the generated decoders, not
	// in the server: measured, but not yet held to the server's bound.
	decoders bool
}

// lookupCall is a valid payments.lookup call whose params carry extra,
// text written by extra into the params object after its members.
func lookupCall(id string, extra func(b *strings.Builder)) string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-31"}`)
	extra(&b)
	b.WriteString(`}}`)
	return b.String()
}

// members writes `"<prefix><n>":0` members until b reaches size.
func members(b *strings.Builder, prefix string, size int) {
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + prefix + strconv.FormatInt(int64(i), 36) + `":0`)
	}
}

var looksUp = func(got string) bool { return strings.Contains(got, `"text":"PMT-771: HELD as of 2026-03-31"`) }

// hostileClasses are the requests the server is held to: each costs it no
// more than a few times its size, in memory and in work.
var hostileClasses = []hostile{
	{name: "`_meta` of many short members", answer: looksUp, build: func(id string, size int) string {
		return lookupCall(id, func(b *strings.Builder) {
			b.WriteString(`,"_meta":{`)
			members(b, "k", size-3)
			b.WriteString(`}`)
		})
	}},
	{name: "`_meta` nested to 9,000 levels, each with a member of 100 bytes", answer: looksUp, build: func(id string, size int) string {
		return lookupCall(id, func(b *strings.Builder) {
			b.WriteString(`,"_meta":`)
			levels := 9000
			pad := max(0, (size-b.Len())/levels-30)
			for range levels {
				b.WriteString(`{"p":"` + strings.Repeat("x", pad) + `","n":`)
			}
			b.WriteString(`0` + strings.Repeat("}", levels))
		})
	}},
	{name: "a `_meta` member whose name is the whole request", answer: looksUp, build: func(id string, size int) string {
		return lookupCall(id, func(b *strings.Builder) {
			b.WriteString(`,"_meta":{"` + strings.Repeat("n", max(0, size-b.Len()-12)) + `":1}`)
		})
	}},
	{name: "params of many members the server does not read", answer: looksUp, build: func(id string, size int) string {
		return lookupCall(id, func(b *strings.Builder) {
			b.WriteString(`,`)
			members(b, "u", size-2)
		})
	}},
	{name: "a method name that is the whole request", build: func(id string, size int) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + strings.Repeat("m", max(1, size-40)) + `"}`
	}, answer: func(got string) bool { return strings.Contains(got, `"code":-32601,"message":"unknown method: mmm`) }},
	{name: "arguments of many properties the schema refuses", decoders: true, build: func(id string, size int) string {
		var b strings.Builder
		b.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crm.notes.append","arguments":{"customer_id":"C-1","note":"n",`)
		members(&b, "x", size-3)
		b.WriteString(`}}}`)
		return b.String()
	}, answer: func(got string) bool { return strings.Contains(got, "additional") }},
}

// validOfSize is the valid request a hostile one is compared with: a CRM
// note as long as the request.
func validOfSize(id string, size int) string {
	head := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crm.notes.append","arguments":{"customer_id":"C-1","note":"`
	return head + strings.Repeat("n", max(1, size-len(head)-4)) + `"}}}`
}

// allocatedBy returns the bytes the process allocated while f ran, every
// goroutine's (the server's included).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxAllocation is what serving one request may allocate in all, as a
// multiple of its size: reading it (a line grown as it arrives, or a body
// of the length it states), checking its envelope, and everything after.
const maxAllocation = 4

// TestHostileRequestsCostTheirSize sends each hostile class of about 1 MiB
// over stdio and over HTTP: each is answered as it should be, the session
// serves on, and serving it allocated at most maxAllocation times its size
// in all.
func TestHostileRequestsCostTheirSize(t *testing.T) {
	const size = 1 << 20
	srv, logs := bankServer(t, mcp.Options{})
	stdio := serveStdio(t, srv, treasurer)
	stdio.handshake(mcp.Revision20250618)
	rig := startHTTP(t, srv, logs, nil)
	sess, err := rig.openSession(rig.token(treasurer), mcp.Revision20250618)
	if err != nil {
		t.Fatal(err)
	}
	transports := []struct {
		name string
		call func(id string, line []byte) (string, error)
	}{
		{"stdio", stdio.callBytes},
		{"HTTP", func(_ string, line []byte) (string, error) { return sess.callBytes(line) }},
	}
	for _, c := range hostileClasses {
		if c.decoders {
			continue
		}
		for _, tr := range transports {
			req := []byte(c.build(`"h"`, size))
			var got string
			var err error
			alloc := allocatedBy(func() { got, err = tr.call(`"h"`, req) })
			if err != nil || !c.answer(got) {
				t.Errorf("%s over %s: answered %.200s (%v)", c.name, tr.name, got, err)
			}
			if ratio := float64(alloc) / float64(len(req)); ratio > maxAllocation {
				t.Errorf("%s over %s: %d bytes allocated %d (%.1f times)", c.name, tr.name, len(req), alloc, ratio)
			}
			logs.reset()
			if got, err := tr.call(`"after"`, []byte(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)); err != nil || got != `{"jsonrpc":"2.0","id":"after","result":{}}` {
				t.Fatalf("after %s over %s: %s %v", c.name, tr.name, got, err)
			}
		}
	}
}
