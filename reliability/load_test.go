package reliability

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// loadCalls is how many calls a load test makes in all, full or with
// -short: tens of thousands over stdio and HTTP together.
func loadCalls(full int) int {
	if testing.Short() {
		return full / 16
	}
	return full
}

const loadClients = 16

// heapSlack is how far above its baseline the live heap may be once the
// load is over: room for the runtime's own caches, not for what 20000
// calls would leave behind if anything of them were kept.
const heapSlack = 1 << 20

// mixed is one call of a load test: its id, method, params and (for
// tools/call, prompts/get and resources/read) the name it names.
type mixed struct {
	id, method, params, name string
}

func (m mixed) line() string {
	return `{"jsonrpc":"2.0","id":` + m.id + `,"method":"` + m.method + `","params":` + m.params + `}`
}

// mixedCall is call n of client c: good calls, bad ones, an unentitled
// one, lists and resources, in turn. It returns the call and the exact
// answer expected in a session of revision 2025-06-18; template answers
// (lists, resources) are those of the warm-up with the id replaced.
func mixedCall(c, n int, templates map[string]string) (m mixed, want string) {
	m.id = `"c` + strconv.Itoa(c) + `-` + strconv.Itoa(n) + `"`
	tool := func(name, args string) {
		m.method, m.name, m.params = "tools/call", name, `{"name":"`+name+`","arguments":`+args+`}`
	}
	fromTemplate := func(method string) string { return `{"jsonrpc":"2.0","id":` + m.id + `,` + templates[method] }
	switch n % 8 {
	case 0:
		ref := "PMT-" + strconv.Itoa(100+c*100000+n)
		tool("payments.lookup", `{"reference":"`+ref+`","as_of":"2026-03-31"}`)
		want = toolResult(m.id, ref+": HELD as of 2026-03-31", false)
	case 1:
		customer := fmt.Sprintf("C-%d-%d", c, n)
		tool("crm.notes.append", `{"customer_id":"`+customer+`","note":"called back"}`)
		want = toolResult(m.id, "note appended to "+customer, false)
	case 2:
		tool("payments.lookup", `{"reference":"PMT-1","as_of":"2026-03-31"}`)
		want = `{"jsonrpc":"2.0","id":` + m.id + `,"error":{"code":-32602,"message":"arguments failed schema validation","data":{"errors":["$.reference: does not match pattern '^PMT-\\d{3,}$'"]}}}`
	case 3:
		tool("payments.release", `{"reference":"PMT-771","amount_minor":1,"currency":"AED"}`)
		want = rpcError(m.id, methodNotFound, "unknown tool: payments.release")
	case 4:
		m.method, m.params, want = "tools/list", `{}`, fromTemplate("tools/list")
	case 5:
		m.method, m.params, want = "resources/list", `{}`, fromTemplate("resources/list")
	case 6:
		m.method, m.name, m.params, want = "resources/read", "policy://sanctions/hold-release", `{"uri":"policy://sanctions/hold-release"}`, fromTemplate("resources/read")
	case 7:
		tool("payments.lookup", `["PMT-771"]`)
		want = rpcError(m.id, invalidParams, "arguments must be an object")
	}
	return m, want
}

// warmUp makes one call of each templated method and returns each
// answer's text after its id.
func warmUp(t *testing.T, call func(id, line string) (string, error)) map[string]string {
	t.Helper()
	templates := map[string]string{}
	for _, m := range []struct{ method, params, mustHave string }{
		{"tools/list", `{}`, `"name":"payments.lookup"`},
		{"resources/list", `{}`, `"uri":"policy://sanctions/hold-release"`},
		{"resources/read", `{"uri":"policy://sanctions/hold-release"}`, `"text":"Releases above 100k need dual control."`},
	} {
		got, err := call(`"warm"`, `{"jsonrpc":"2.0","id":"warm","method":"`+m.method+`","params":`+m.params+`}`)
		if err != nil {
			t.Fatal(err)
		}
		rest, ok := strings.CutPrefix(got, `{"jsonrpc":"2.0","id":"warm",`)
		if !ok || !strings.Contains(got, m.mustHave) || !strings.HasPrefix(rest, `"result"`) {
			t.Fatalf("%s: %s", m.method, got)
		}
		templates[m.method] = rest
	}
	return templates
}

// runLoad has loadClients goroutines make calls calls in all through call
// (given the number of the client), each checking that its answer is the
// exact one for its request. It returns how many calls were made.
func runLoad(t *testing.T, calls int, templates map[string]string, call func(client int, m mixed, want string) (string, string, error)) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	made := 0
	for c := range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range calls / loadClients {
				m, want := mixedCall(c, n, templates)
				got, want, err := call(c, m, want)
				if err == nil && got != want {
					err = errAnswerMismatch(m.line(), got, want)
				}
				mu.Lock()
				made++
				if err != nil && len(failures) < 20 {
					failures = append(failures, err.Error())
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	return made
}

// TestLoadOverSharedStdioSession: 16 clients share one stdio session and
// make tens of thousands of mixed calls. Every answer is the exact answer
// to its own request; afterwards the live heap is back near its baseline
// and no goroutine is left.
func TestLoadOverSharedStdioSession(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, logs := bankServer(t, mcp.Options{})
	c := serveStdio(t, srv, investigator)
	c.handshake(mcp.Revision20250618)
	templates := warmUp(t, c.call)
	call := func(_ int, m mixed, want string) (string, string, error) {
		got, err := c.call(m.id, m.line())
		return got, want, err
	}
	runLoad(t, 8*loadClients, templates, call) // every path once before the baseline
	logs.reset()
	baseline := heapInUse()

	made := runLoad(t, loadCalls(20000), templates, call)

	logs.reset()
	heap := heapInUse()
	t.Logf("live heap: %d bytes before the load, %d after (%+d)", baseline, heap, int64(heap)-int64(baseline))
	if heap > baseline+heapSlack {
		t.Errorf("live heap grew by %d bytes over %d calls", heap-baseline, made)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if after := goroutinesSettle(before); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
	record(t, figure{ID: "load/stdio", Area: "Load",
		Tried: "16 concurrent clients sharing one stdio session, with the race detector: good calls, schema violations, an unentitled tool, bad params, tools/list, resources/list and resources/read in turn",
		Count: made, Unit: "calls",
		Held: "every answer was the exact answer to its own request, under its id, none missing or repeated; the live heap came back to within 1 MiB of its baseline; no goroutine left"})
}
