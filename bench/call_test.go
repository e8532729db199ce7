package bench

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/service"
)

// BenchmarkCall is one tools/call through a whole server over an in-process
// pipe: raw JSON-RPC bytes in, raw bytes out, one request at a time. The
// call is the one a principal holding payments.read makes without a pin,
// which reaches the newest active payments.lookup (unpinnedLookup); every server
// validates the same arguments against the same schema and runs the same
// handler. "pipe-echo" is the transport alone: a server that answers every
// line with itself. "mcpgen-logged" is mcpgen with a service's logs on
// (the call log through the asynchronous sink, see serviceLog): what the
// call log costs a call. "mcpgen-timeout" is mcpgen with a service's
// call timeout (service.DefaultCallTimeout): what a deadline on every
// call costs.
func BenchmarkCall(b *testing.B) {
	spec := bankSpec(b, unpinnedLookup)
	tools := []sdkTool{{name: spec.Name, description: spec.Description, schema: schemaJSON(b, spec.InputSchema)}}
	line := callRequest(1, spec.Name, lookupV2Valid)

	run := func(b *testing.B, c *pipeConn, check bool) {
		if check {
			resp, err := c.roundTrip(line)
			if err != nil {
				b.Fatal(err)
			}
			mustContain(b, "tools/call", resp, lookupText("PMT-771"))
			mustLack(b, "tools/call", resp, `"isError":true`)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := c.timedTrip(line); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("impl=mcpgen", func(b *testing.B) {
		srv := newBankServer(b)
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)), true)
	})
	b.Run("impl=mcpgen-timeout", func(b *testing.B) {
		srv := newBankServerWith(b, func(opts *mcp.Options) { opts.CallTimeout = service.DefaultCallTimeout })
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)), true)
	})
	b.Run("impl=mcpgen-logged", func(b *testing.B) {
		log, sink := serviceLogSink(b)
		srv := newLoggedBankServer(b, log)
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)), true)
		reportLost(b, sink)
	})
	b.Run("impl=go-sdk", func(b *testing.B) {
		run(b, dialed(b, serveSDK(newSDKServer(b, tools))), true)
	})
	b.Run("impl=mcp-go", func(b *testing.B) {
		run(b, dialed(b, serveMcpGo(newMcpGoServer(tools))), true)
	})
	b.Run("impl=pipe-echo", func(b *testing.B) {
		c := dial(echo)
		b.Cleanup(c.close)
		run(b, c, false)
	})
}

// BenchmarkCallHandle is BenchmarkCall's tools/call through mcpgen's
// Session.Handle, with no transport: the server's own cost, as the HTTP
// transport pays it. The anchors have no equivalent entry point, so it is
// not a row of the table; docs/benchmarks.md quotes it. log=on writes the
// call log as a service does (JSON lines through the asynchronous sink,
// here to io.Discard); log=off has no logger.
func BenchmarkCallHandle(b *testing.B) {
	for _, logged := range []bool{false, true} {
		name := "log=off"
		if logged {
			name = "log=on"
		}
		b.Run(name, func(b *testing.B) {
			srv := newBankServer(b)
			var sink *oplog.Async
			if logged {
				var log *slog.Logger
				log, sink = serviceLogSink(b)
				srv = newLoggedBankServer(b, log)
			}
			b.Cleanup(func() { srv.Close() })
			sess := initializedSession(b, srv, investigator)
			spec := bankSpec(b, unpinnedLookup)
			line := callRequest(1, spec.Name, lookupV2Valid)
			resp := sess.Handle(context.Background(), line)
			mustContain(b, "tools/call", resp, lookupText("PMT-771"))
			mustLack(b, "tools/call", resp, `"isError":true`)
			b.ReportAllocs()
			for b.Loop() {
				sess.Handle(context.Background(), line)
			}
			if sink != nil {
				reportLost(b, sink)
			}
		})
	}
}

// versionSeen is bankHandlers that notes which payments.lookup version a
// call reached.
type versionSeen struct {
	bankHandlers
	seen *string
}

func (h versionSeen) PaymentsLookupV2(ctx context.Context, c *mcp.Call, a bank.PaymentsLookupV2Args) (*mcp.Result, error) {
	*h.seen = c.Spec.Key()
	return h.bankHandlers.PaymentsLookupV2(ctx, c, a)
}

func (h versionSeen) PaymentsLookupV3(ctx context.Context, c *mcp.Call, a bank.PaymentsLookupV3Args) (*mcp.Result, error) {
	*h.seen = c.Spec.Key()
	return h.bankHandlers.PaymentsLookupV3(ctx, c, a)
}

// TestUnpinnedCallReachesUnpinnedLookup: the call the call and HTTP rows
// make reaches unpinnedLookup, whose schema the anchors validate against.
func TestUnpinnedCallReachesUnpinnedLookup(t *testing.T) {
	srv, err := mcp.NewServer(bank.Options())
	if err != nil {
		t.Fatal(err)
	}
	var seen string
	if err := bank.Register(srv, versionSeen{seen: &seen}); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sess := initializedSession(t, srv, investigator)
	spec := bankSpec(t, unpinnedLookup)
	resp := sess.Handle(context.Background(), callRequest(1, spec.Name, lookupV2Valid))
	mustContain(t, "tools/call", resp, lookupText("PMT-771"))
	if seen != unpinnedLookup {
		t.Errorf("an unpinned call reached %q; the rows' anchors validate against %s", seen, unpinnedLookup)
	}
}

// BenchmarkCallPipelined is BenchmarkCall's tools/call with the client
// writing without waiting for answers, as a client with many calls to make
// does over stdio: requests go out in writes of pipelineBatch lines (a
// pipe delivers what a writer wrote ahead in one read), answers are read
// as they come (counted: the client's side costs no hand-over per answer,
// for any server). ns/op is the time per call at that rate: what the
// server gets done with both cores.
func BenchmarkCallPipelined(b *testing.B) {
	spec := bankSpec(b, unpinnedLookup)
	tools := []sdkTool{{name: spec.Name, description: spec.Description, schema: schemaJSON(b, spec.InputSchema)}}
	line := callRequest(1, spec.Name, lookupV2Valid)
	// run has each of conns make its share of b.N calls, its writer and
	// the server's sessions going at once.
	run := func(b *testing.B, conns ...*pipeConn) {
		for _, c := range conns {
			resp, err := c.roundTrip(line)
			if err != nil {
				b.Fatal(err)
			}
			mustContain(b, "tools/call", resp, lookupText("PMT-771"))
		}
		// Each connection's share.
		shares := make([]callWrites, len(conns))
		for k := range conns {
			shares[k] = callWrites{spec.Name, b.N / len(conns)}
			if k < b.N%len(conns) {
				shares[k].calls++
			}
		}
		b.ReportAllocs()
		b.ResetTimer()
		if err := pipelined(conns, shares); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("impl=mcpgen", func(b *testing.B) {
		srv := newBankServer(b)
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)))
	})
	b.Run("impl=mcpgen-one-core", func(b *testing.B) {
		// mcpgen's own rate on one core (GOMAXPROCS=1, the client's side
		// included), against which the row above shows what the second
		// core brings.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		srv := newBankServer(b)
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)))
	})
	b.Run("impl=mcpgen-two-sessions", func(b *testing.B) {
		// The calls shared by two sessions of one server, each with its
		// own client: what both cores give when the calls of one session
		// share nothing with the other's (the server's registry and the
		// process's memory they still share), against which the first
		// row shows what one session's sharing costs.
		srv := newBankServer(b)
		b.Cleanup(func() { srv.Close() })
		run(b, dialed(b, serveMcpgen(srv, investigator)), dialed(b, serveMcpgen(srv, investigator)))
	})
	b.Run("impl=go-sdk", func(b *testing.B) {
		run(b, dialed(b, serveSDK(newSDKServer(b, tools))))
	})
	b.Run("impl=mcp-go", func(b *testing.B) {
		run(b, dialed(b, serveMcpGo(newMcpGoServer(tools))))
	})
}

// pipelineBatch is how many requests a pipelining client writes at once.
const pipelineBatch = 32

// callWrites are a pipelining client's calls of tool: calls requests
// with ids of their own from 2 on (a server may refuse an id still in
// flight), pipelineBatch lines a write. Each write is made as it is sent,
// into one buffer the writes reuse: a list of every write made what a
// row held grow with its b.N (some 150 MB for a second of mcpgen's calls
// against a few MB for an anchor's), and the collector, paced by what is
// held, all but idle in long runs; a server holds a few MB.
type callWrites struct {
	tool  string
	calls int
}

// writeTo writes w's calls to dst, a write at a time, without waiting for
// answers, and returns the first error. The lines are callRequest's, the
// id written into each. dst must be done with a write when it returns, as
// a pipe is (io.PipeWriter: its reader has read it all).
func (w callWrites) writeTo(dst io.Writer) error {
	head, tail := callRequestAround(w.tool)
	buf := make([]byte, 0, pipelineBatch*(len(head)+len(tail)+20))
	for n := 0; n < w.calls; n += pipelineBatch {
		buf = buf[:0]
		for id := n; id < min(n+pipelineBatch, w.calls); id++ {
			buf = append(buf, head...)
			buf = strconv.AppendInt(buf, int64(id+2), 10)
			buf = append(buf, tail...)
		}
		if _, err := dst.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// TestCallWrites: the pipelined rows' writes are callRequest's lines, ids
// from 2 on, pipelineBatch to a write.
func TestCallWrites(t *testing.T) {
	const calls = 2*pipelineBatch + 6
	var want []byte
	for id := range calls {
		want = append(want, callRequest(id+2, "payments.lookup", lookupV2Valid)...)
	}
	var got writeCount
	if err := (callWrites{"payments.lookup", calls}).writeTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the writes hold\n%s\nwant\n%s", got.Bytes(), want)
	}
	if got.writes != 3 {
		t.Errorf("%d calls went out in %d writes, want 3", calls, got.writes)
	}
}

// writeCount is a bytes.Buffer that counts the writes made to it.
type writeCount struct {
	bytes.Buffer
	writes int
}

func (w *writeCount) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// callRequestAround is callRequest's line of a call of tool split around
// its id.
func callRequestAround(tool string) (head, tail []byte) {
	line := callRequest(0, tool, lookupV2Valid)
	head, tail, ok := bytes.Cut(line, []byte(`"id":0,`))
	if !ok {
		panic("callRequest writes no id 0: " + string(line))
	}
	return append(head, `"id":`...), append([]byte(","), tail...)
}

// pipelined has each of conns write its calls (writes[k]) ahead at
// once, each on a goroutine of its own, and waits until each has had an
// answer for every one of them (see sink.await), answerTimeout at most;
// it returns the first error. A connection may have no calls (b.N is 1
// at first).
func pipelined(conns []*pipeConn, writes []callWrites) error {
	var answered []<-chan struct{}
	for k, c := range conns {
		if writes[k].calls > 0 {
			answered = append(answered, c.out.await(writes[k].calls))
		}
	}
	sent := make(chan error, len(conns))
	for k, c := range conns {
		go func() { sent <- writes[k].writeTo(c.w) }()
	}
	deadline := time.After(answerTimeout)
	for _, a := range answered {
		select {
		case <-a:
		case <-deadline:
			return errors.New("not every call answered within a minute")
		}
	}
	for range conns {
		if err := <-sent; err != nil {
			return err
		}
	}
	return nil
}
