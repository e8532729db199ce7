package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// The stateless revision, 2026-07-28: no handshake, _meta on every request.

const serverInfoMeta = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bank-payments-mcp","version":"2.3.1"}}`

func TestStatelessDiscover(t *testing.T) {
	b := newBank(t, mcp.Options{Instructions: "Payments tools."})
	w := serve(t, b.srv, investigator)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + statelessMeta + `}}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],` +
		`"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":false,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{}},` +
		`"instructions":"Payments tools.","resultType":"complete","ttlMs":60000,"cacheScope":"public",` + serverInfoMeta + `}}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// clientInfo is optional.
	withInfo := `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	if got := w.call(withInfo); jget(t, got, "result", "resultType") != "complete" {
		t.Errorf("with clientInfo: %s", got)
	}
}

func TestStatelessMetaIsRequired(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	for _, c := range []struct{ method, params, message string }{
		{"server/discover", `{}`, "_meta is required: it carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities"},
		{"server/discover", ``, "_meta is required: it carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities"},
		{"subscriptions/listen", `{"notifications":{"toolsListChanged":true}}`, "_meta is required: it carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities"},
		{"server/discover", `{"_meta":[]}`, "_meta must be an object"},
		{"server/discover", `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`, "_meta.io.modelcontextprotocol/protocolVersion is required and must be a string"},
		{"tools/list", `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`, "_meta.io.modelcontextprotocol/protocolVersion is required and must be a string"},
		{"server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}`, "_meta.io.modelcontextprotocol/protocolVersion is required and must be a string"},
		{"server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, "_meta.io.modelcontextprotocol/clientCapabilities is required and must be an object"},
		{"tools/call", `{"name":"payments.lookup","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}`, "_meta.io.modelcontextprotocol/clientCapabilities is required and must be an object"},
	} {
		params := ""
		if c.params != "" {
			params = `,"params":` + c.params
		}
		got := w.call(`{"jsonrpc":"2.0","id":104,"method":"` + c.method + `"` + params + `}`)
		if want := `{"jsonrpc":"2.0","id":104,"error":{"code":-32602,"message":"` + c.message + `"}}`; got != want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.method, c.params, got, want)
		}
	}
}

func TestStatelessUnsupportedVersion(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	for _, v := range []string{"2099-01-01", "v999.0.0", "2025-06-18", ""} {
		got := w.call(`{"jsonrpc":"2.0","id":301,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}}}`)
		want := `{"jsonrpc":"2.0","id":301,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"` + v + `","supported":["2026-07-28"]}}}`
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestStatelessResultsCarryTypeAndCacheHints(t *testing.T) {
	b := newBank(t, mcp.Options{ListTTL: 5 * time.Second, Resources: []mcp.Resource{holdPolicy}, Prompts: []mcp.Prompt{investigatePrompt}})
	w := serve(t, b.srv, investigator) // no handshake
	for _, m := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		got := w.call(`{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{` + statelessMeta + `}}`)
		if !strings.HasSuffix(got, `"resultType":"complete","ttlMs":5000,"cacheScope":"private",`+serverInfoMeta+`}}`) {
			t.Errorf("%s: %s", m, got)
		}
	}
	read := w.call(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"policy://sanctions/hold-release",` + statelessMeta + `}}`)
	if want := `{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"policy://sanctions/hold-release","mimeType":"text/markdown","text":"Releases above 100k need dual control."}],"resultType":"complete","ttlMs":5000,"cacheScope":"private",` + serverInfoMeta + `}}`; read != want {
		t.Errorf("resources/read:\n got %s\nwant %s", read, want)
	}
	call := w.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},` + statelessMeta + `}}`)
	if want := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'"}],"isError":false,"resultType":"complete",` + serverInfoMeta + `}}`; call != want {
		t.Errorf("tools/call:\n got %s\nwant %s", call, want)
	}
	get := w.call(`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"investigate","arguments":{"reference":"PMT-771"},` + statelessMeta + `}}`)
	if !strings.HasSuffix(get, `"resultType":"complete",`+serverInfoMeta+`}}`) || strings.Contains(get, "ttlMs") {
		t.Errorf("prompts/get: %s", get)
	}
	// Handshake-era results carry none of it.
	w.handshake(mcp.Revision20251125)
	legacy := w.call(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	for _, member := range []string{"resultType", "ttlMs", "cacheScope", "serverInfo"} {
		if strings.Contains(legacy, member) {
			t.Errorf("handshake-era tools/list carries %s: %s", member, legacy)
		}
	}
}

func TestStatelessListTTLZero(t *testing.T) {
	b := newBank(t, mcp.Options{ListTTL: -1})
	w := serve(t, b.srv, investigator)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{` + statelessMeta + `}}`)
	if !strings.Contains(got, `"ttlMs":0,"cacheScope":"private"`) {
		t.Errorf("got %s", got)
	}
}

func TestStatelessMethodTable(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"} {
		got := w.call(`{"jsonrpc":"2.0","id":500,"method":"` + m + `","params":{` + statelessMeta + `}}`)
		if want := `{"jsonrpc":"2.0","id":500,"error":{"code":-32601,"message":"unknown method: ` + m + `"}}`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", m, got, want)
		}
	}
	// The stream's handshake state is untouched by stateless requests.
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); code(t, got) != "-32600" {
		t.Errorf("a handshake-era request after stateless ones: %s", got)
	}
}

func TestStatelessSubscriptions(t *testing.T) {
	b := newBank(t, mcp.Options{})
	b.bind(t, lookupSpec("2.0.0", lookupV2Schema), func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	w := serve(t, b.srv, investigator)
	listen := func(id, filter string) string {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{` + statelessMeta + `,"notifications":` + filter + `}}`)
		return w.notification()
	}
	if ack := listen(`"prompts"`, `{"promptsListChanged":true}`); ack != `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"prompts"},"notifications":{"promptsListChanged":true}}}` {
		t.Fatalf("prompts-only ack: %s", ack)
	}
	if ack := listen(`7`, `{"toolsListChanged":true,"resourceSubscriptions":["policy://x"]}`); ack != `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true}}}` {
		t.Fatalf("tools ack: %s", ack)
	}
	if err := b.reg.Deprecate("payments.lookup", "2.0.0", ""); err != nil {
		t.Fatal(err)
	}
	if got := w.notification(); got != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}` {
		t.Fatalf("change: %s", got)
	}
	// A prompt added reaches the prompts stream only.
	if err := b.srv.AddPrompt(mcp.Prompt{Name: "triage", Template: "Triage."}); err != nil {
		t.Fatal(err)
	}
	if got := w.notification(); got != `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"prompts"}}}` {
		t.Fatalf("prompt change: %s", got)
	}
	// A third subscription's acknowledgement goes out after everything the
	// changes produced on this stream: each stream got its own kind only.
	if ack := listen(`"late"`, `{}`); !strings.Contains(ack, `subscriptionId":"late"`) {
		t.Fatalf("late ack: %s", ack)
	}
	// The stream still serves requests while subscriptions are open.
	if got := w.call(`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + statelessMeta + `}}`); jget(t, got, "result", "tools", 1, "_meta", "version") != "1.0.0" {
		t.Errorf("tools/list: %s", got)
	}
	// The client cancels one subscription; the server closes the others
	// gracefully.
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"prompts"}}`)
	// Notifications are handled in reading order: once a request sent
	// after the cancellation is answered, the cancellation has been applied.
	w.call(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{` + statelessMeta + `}}`)
	b.srv.Close()
	var answers []string
	for len(answers) < 2 {
		answers = append(answers, w.response())
	}
	for _, id := range []string{`7`, `"late"`} {
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bank-payments-mcp","version":"2.3.1"},"io.modelcontextprotocol/subscriptionId":` + id + `}}}`
		if answers[0] != want && answers[1] != want {
			t.Errorf("no graceful end for %s: %v", id, answers)
		}
	}
	rest, err := w.finish()
	if err != nil || len(rest) != 0 || len(w.notes) != 0 {
		t.Errorf("the cancelled subscription was answered: %v %v %v", rest, w.notes, err)
	}
}

func TestSubscriptionsEndWithTheStream(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{` + statelessMeta + `,"notifications":{"toolsListChanged":true}}}`)
	w.notification()
	rest, err := w.finish()
	if err != nil || len(rest) != 0 {
		t.Fatalf("end of input: %v %v", rest, err)
	}
}

func TestDualEraSessionGetsBothNotifications(t *testing.T) {
	b := newBank(t, mcp.Options{})
	w := serve(t, b.srv, investigator)
	w.handshake(mcp.Revision20250618)
	w.send(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{` + statelessMeta + `,"notifications":{"toolsListChanged":true}}}`)
	w.notification()
	if err := b.reg.Retire("crm.notes.append", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	first, second := w.notification(), w.notification()
	if first != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` ||
		second != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"l"}}}` {
		t.Errorf("got\n%s\n%s", first, second)
	}
}

func TestListenNeedsANotificationSink(t *testing.T) {
	b := newBank(t, mcp.Options{})
	sess := b.srv.NewSession(investigator, nil)
	defer sess.Close()
	got := sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+statelessMeta+`,"notifications":{}}}`))
	if code(t, string(got)) != "-32603" {
		t.Errorf("got %s", got)
	}
}

// A transport that reads the params to route a message (mcp.Incoming) and
// hands its reading to dispatch gets the answer the message alone gets:
// dispatch serves from the reading as it would from its own.
func TestIncomingIsServedAsItsMessage(t *testing.T) {
	b := newBank(t, mcp.Options{})
	ctx := context.Background()
	byMessage := b.srv.NewSession(investigator, nil)
	byIncoming := b.srv.NewSession(investigator, nil)
	byServe := b.srv.NewSession(investigator, nil)
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + params + `}}`
	}
	for _, c := range []struct {
		line      string
		stateless bool
		name      string
	}{
		{call("1", `"name":"payments.lookup","arguments":{"reference":"PMT-771"},`+statelessMeta), true, "payments.lookup"},
		{call("2", `"name":"payments.lookup","arguments":{"reference":"nope"},`+statelessMeta), true, "payments.lookup"},
		// More members the server reads than a reading keeps in place.
		{call("3", `"cursor":"c","uri":"u","level":"info","requestId":7,"name":"payments.lookup","arguments":{"reference":"PMT-772"},`+statelessMeta), true, "payments.lookup"},
		{call("4", `"name":"payments.lookup","_meta":[]`), false, "payments.lookup"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{` + statelessMeta + `}}`, true, ""},
		{`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, false, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, ""},
		{call("7", `"name":"payments.lookup","arguments":{"reference":"PMT-773"}`), false, "payments.lookup"},
		{call("8", `"name":"payments.lookup","arguments":{"reference":"PMT-774"},"_meta":{"progressToken":"p"}`), false, "payments.lookup"},
	} {
		msg, rpcErr := jsonrpc.Decode([]byte(c.line))
		if rpcErr != nil {
			t.Fatalf("%s: %v", c.line, rpcErr)
		}
		var in mcp.Incoming
		in.Read(msg)
		if stateless, _ := in.Stateless(); stateless != c.stateless {
			t.Errorf("%s: stateless %v, want %v", c.line, stateless, c.stateless)
		}
		if name, _ := in.StringMember("name"); name != c.name {
			t.Errorf("%s: name %q, want %q", c.line, name, c.name)
		}
		want := string(byMessage.HandleMessage(ctx, msg))
		if got := string(byIncoming.HandleIncoming(ctx, &in)); got != want {
			t.Errorf("%s:\nincoming %s\n message %s", c.line, got, want)
		}
		var w answerLog
		byServe.ServeIncoming(ctx, &in, &w)
		if got := strings.Join(w.list, "\n"); got != want || w.early != 0 {
			t.Errorf("%s:\nserved %s (%d early)\nmessage %s", c.line, got, w.early, want)
		}
	}
}

// answerLog is an mcp.AnswerWriter that keeps what it is given.
type answerLog struct {
	mu    sync.Mutex
	list  []string
	early int
	got   chan struct{} // when not nil, signalled on each answer
}

func (w *answerLog) WriteAnswer(answer []byte, early bool) {
	w.mu.Lock()
	w.list = append(w.list, string(answer))
	if early {
		w.early++
	}
	w.mu.Unlock()
	if w.got != nil {
		w.got <- struct{}{}
	}
}

// A tool call served by ServeIncoming, whose handler overruns its
// deadline, is answered at the deadline, early, from another goroutine,
// while the handler still runs; ServeIncoming returns when the handler
// does, and nothing more is written.
//
// The watch over the call's context begins once the handler has run for
// a while (see handlerWatch): a deadline of 10 µs ends before it, and the
// call is answered all the same when it begins. Such a deadline may also
// end before the handler starts, which invoke answers without the watch;
// twenty rounds make it all but certain that some end while the handler
// runs (without the watch, three of five runs of one round failed).
func TestServeIncomingAnswersAnOverrunningCallAtItsDeadline(t *testing.T) {
	t.Run("50ms", func(t *testing.T) { testServeIncomingAnswersAtDeadline(t, 50*time.Millisecond) })
	t.Run("10µs", func(t *testing.T) {
		for range 20 {
			testServeIncomingAnswersAtDeadline(t, 10*time.Microsecond)
		}
	})
}

func testServeIncomingAnswersAtDeadline(t *testing.T, timeout time.Duration) {
	b := newBank(t, mcp.Options{CallTimeout: timeout})
	started, release := make(chan struct{}), make(chan struct{})
	b.bind(t, freeTool("linger", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		close(started)
		<-release // ignores its deadline
		return mcp.TextResult("late"), nil
	})
	sess := b.srv.NewSession(investigator, nil)
	msg, rpcErr := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"linger","arguments":{},` + statelessMeta + `}}`))
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	var in mcp.Incoming
	in.Read(msg)
	w := &answerLog{got: make(chan struct{}, 2)}
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		sess.ServeIncoming(context.Background(), &in, w)
	}()
	<-started
	select {
	case <-w.got:
	case <-time.After(deadlockGuard):
		t.Fatal("the overrunning call was not answered at its deadline")
	}
	select {
	case <-returned:
		t.Fatal("ServeIncoming returned while the handler runs")
	default:
	}
	close(release)
	<-returned
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.list) != 1 || w.early != 1 || jget(t, w.list[0], "result", "content", 0, "text") != "tool failed: deadline exceeded" {
		t.Errorf("answerLog %q, %d early", w.list, w.early)
	}
}

// The handlers ServeIncoming runs are watched while they run and
// forgotten when they return: after calls on four goroutines at once,
// some quick and some running past the watch's start, the watch holds no
// handler and its timer goes unarmed.
func TestServeIncomingWatchKeepsNothingAfterItsCalls(t *testing.T) {
	b := newBank(t, mcp.Options{CallTimeout: time.Minute})
	b.bind(t, freeTool("quick", estate.Read), func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("quick"), nil })
	b.bind(t, freeTool("slow", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		time.Sleep(200 * time.Microsecond) // past the watch's start
		return mcp.TextResult("slow"), nil
	})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			sess := b.srv.NewSession(investigator, nil)
			for i := range 200 {
				name := "quick"
				if i%10 == 0 {
					name = "slow"
				}
				msg, rpcErr := jsonrpc.Decode([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":"%d-%d","method":"tools/call","params":{"name":%q,"arguments":{},`+statelessMeta+`}}`, g, i, name)))
				if rpcErr != nil {
					t.Error(rpcErr)
					return
				}
				var in mcp.Incoming
				in.Read(msg)
				w := &answerLog{}
				sess.ServeIncoming(context.Background(), &in, w)
				if len(w.list) != 1 || w.early != 0 || !strings.Contains(w.list[0], `"text":"`+name+`"`) {
					t.Errorf("call %d-%d: %q, %d early", g, i, w.list, w.early)
					return
				}
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(deadlockGuard)
	for {
		running, armed := mcp.WatchedHandlers(b.srv)
		if running != 0 {
			t.Fatalf("the watch holds %d handlers after every call returned", running)
		}
		if !armed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch's timer is still armed with no handler running")
		}
		time.Sleep(time.Millisecond)
	}
}

// A handler whose watch has begun leaves the handlers the watch's timer
// looks over: with eight handlers blocked past the watch's start, the
// watch holds none of them and its timer goes unarmed, so that long
// calls do not make every later one's scan longer. Released, each is
// answered by itself, not early.
func TestServeIncomingWatchLetsGoOfWatchedHandlers(t *testing.T) {
	b := newBank(t, mcp.Options{CallTimeout: time.Minute})
	release := make(chan struct{})
	var started sync.WaitGroup
	b.bind(t, freeTool("held", estate.Read), func(*mcp.Call) (*mcp.Result, error) {
		started.Done()
		<-release
		return mcp.TextResult("held"), nil
	})
	sess := b.srv.NewSession(investigator, nil)
	logs := make([]*answerLog, 8)
	var served sync.WaitGroup
	started.Add(len(logs))
	for i := range logs {
		msg, rpcErr := jsonrpc.Decode([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"held","arguments":{},`+statelessMeta+`}}`, i)))
		if rpcErr != nil {
			t.Fatal(rpcErr)
		}
		var in mcp.Incoming
		in.Read(msg)
		logs[i] = &answerLog{}
		served.Go(func() { sess.ServeIncoming(context.Background(), &in, logs[i]) })
	}
	started.Wait()
	deadline := time.Now().Add(deadlockGuard)
	for {
		running, armed := mcp.WatchedHandlers(b.srv)
		if running == 0 && !armed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("with every handler watched, the watch still holds %d, armed %v", running, armed)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	served.Wait()
	for i, w := range logs {
		if len(w.list) != 1 || w.early != 0 || !strings.Contains(w.list[0], `"text":"held"`) {
			t.Errorf("call %d: %q, %d early", i, w.list, w.early)
		}
	}
}

// FuzzIncoming: whatever message a transport reads, serving it from its
// reading (HandleIncoming, ServeIncoming; the reading made by Read or, in
// the pass that checks the text, by Decode) answers as serving the message
// alone does, on sessions in the same state.
func FuzzIncoming(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771"},` + statelessMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-1"},"_meta":{"version":"^1","schemaHash":"x"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"c","uri":"u","level":"info","requestId":7,` + statelessMeta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"investigate","arguments":{"reference":1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":[]}}`,
	} {
		f.Add([]byte(s))
	}
	srv, err := mcp.NewServer(mcp.Options{Prompts: []mcp.Prompt{investigatePrompt}, Resources: []mcp.Resource{holdPolicy}})
	if err != nil {
		f.Fatal(err)
	}
	srv.Bind(lookupSpec("1.0.0", lookupSchema), mcp.Tool{Handler: func(_ mcpCtx, c *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(string(c.Raw)), nil
	}})
	ctx := context.Background()
	session := func() *mcp.Session {
		s := srv.NewSession(investigator, func([]byte) {})
		s.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`))
		s.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		return s
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, rpcErr := jsonrpc.Decode(data)
		if rpcErr != nil || msg.Method == "subscriptions/listen" {
			return // refused before any reading; a listen request waits for its end
		}
		byMessage, byIncoming, byServe, byDecoded := session(), session(), session(), session()
		defer byMessage.Close()
		defer byIncoming.Close()
		defer byServe.Close()
		defer byDecoded.Close()
		var in mcp.Incoming
		in.Read(msg)
		want := string(byMessage.HandleMessage(ctx, msg))
		if got := string(byIncoming.HandleIncoming(ctx, &in)); got != want {
			t.Fatalf("incoming %s\nmessage %s", got, want)
		}
		var decoded mcp.Incoming
		if err := decoded.Decode(data); err != nil {
			t.Fatalf("Decode refused what jsonrpc.Decode accepts: %v", err)
		}
		if got := string(byDecoded.HandleIncoming(ctx, &decoded)); got != want {
			t.Fatalf("decoded %s\nmessage %s", got, want)
		}
		var w answerLog
		byServe.ServeIncoming(ctx, &in, &w)
		if got := strings.Join(w.list, "\n"); got != want || w.early != 0 {
			t.Fatalf("served %s (%d early)\nmessage %s", got, w.early, want)
		}
	})
}

// BenchmarkIncomingDecode is what a transport does with a message before
// it serves it: Incoming.Decode, the strict pass over the text with the
// params split in it, and the walk of _meta, for a tools/call of each
// era (the stateless one carries its protocol keys in _meta).
func BenchmarkIncomingDecode(b *testing.B) {
	for _, tc := range []struct{ name, meta string }{{"handshake", ""}, {"stateless", "," + statelessMeta}} {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","include_legs":true,"as_of":"2026-03-12"}` + tc.meta + `}}`)
		b.Run("era="+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var in mcp.Incoming
				if err := in.Decode(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The protocol version a stateless request's _meta names is read without a
// string of its own when it is one this server knows (it is interned, as
// method names are): a transport's reading of such a tools/call allocates
// nothing. A version it does not know is read all the same.
func TestIncomingDecodeInternsTheVersion(t *testing.T) {
	read := func(version string) (mcp.Incoming, []byte) {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}}}`)
		var in mcp.Incoming
		if err := in.Decode(body); err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		return in, body
	}
	for _, version := range []string{"2026-07-28", "2099-01-01"} {
		in, _ := read(version)
		if stateless, got := in.Stateless(); !stateless || got != version {
			t.Errorf("%s: read as stateless %v, version %q", version, stateless, got)
		}
	}
	if testenv.RaceEnabled {
		return // allocations are counted without the race detector
	}
	_, body := read("2026-07-28")
	if n := testing.AllocsPerRun(100, func() {
		var in mcp.Incoming
		_ = in.Decode(body)
	}); n != 0 {
		t.Errorf("a stateless tools/call naming a known revision: %v allocations a reading, want 0", n)
	}
}
