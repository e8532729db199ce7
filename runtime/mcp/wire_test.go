package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The tests drive the server as a client would: raw JSON lines written to
// ServeStream through an io.Pipe, raw lines read back from another.

// wire is the client's end of one ServeStream.
type wire struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	served chan error
	probes int
	// notes holds server notifications that arrived while call waited
	// for a response.
	notes []string
}

// mcpCtx shortens handler signatures in tests.
type mcpCtx = context.Context

// deadlockGuard only turns a hang into a failure; no test measures time.
const deadlockGuard = 10 * time.Second

func serve(t *testing.T, srv *mcp.Server, p estate.Principal) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	w := &wire{t: t, in: inW, lines: make(chan string, 256), served: make(chan error, 1)}
	go func() {
		err := srv.ServeStream(context.Background(), inR, outW, p)
		outW.Close()
		w.served <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	t.Cleanup(func() { w.finish() })
	return w
}

// send writes one line to the server.
func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatalf("write %s: %v", line, err)
	}
}

// recv returns the server's next line.
func (w *wire) recv() string {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			w.t.Fatal("the server closed its output")
		}
		return line
	case <-time.After(deadlockGuard):
		w.t.Fatal("no message from the server")
	}
	return ""
}

// call sends a line and returns the next response (a line without a
// method), keeping any notification that arrives first for notification.
func (w *wire) call(line string) string {
	w.t.Helper()
	w.send(line)
	return w.response()
}

func (w *wire) response() string {
	w.t.Helper()
	for {
		got := w.recv()
		if isNotification(got) {
			w.notes = append(w.notes, got)
			continue
		}
		return got
	}
}

// notification returns the next notification from the server.
func (w *wire) notification() string {
	w.t.Helper()
	if len(w.notes) > 0 {
		n := w.notes[0]
		w.notes = w.notes[1:]
		return n
	}
	got := w.recv()
	if !isNotification(got) {
		w.t.Fatalf("expected a notification, got %s", got)
	}
	return got
}

func isNotification(line string) bool {
	return strings.Contains(line, `"method":`) && !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":`)
}

// code returns an error response's code as text ("" for a result).
func code(t *testing.T, line string) string {
	t.Helper()
	c := jget(t, line, "error", "code")
	if c == nil {
		return ""
	}
	return c.(json.Number).String()
}

// quiet proves that the lines sent so far were not answered: messages are
// taken in order, so an answer to any of them would arrive before the
// answer to this probe.
func (w *wire) quiet() {
	w.t.Helper()
	w.probes++
	id := fmt.Sprintf(`"probe-%d"`, w.probes)
	got := w.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+id+`,`) {
		w.t.Fatalf("expected no answer before the probe's, got %s", got)
	}
}

// finish closes the input and returns what the server still wrote and what
// ServeStream returned.
func (w *wire) finish() ([]string, error) {
	w.in.Close()
	var rest []string
	for line := range w.lines {
		rest = append(rest, line)
	}
	select {
	case err := <-w.served:
		w.served <- err // finish may run twice (test, then cleanup)
		return rest, err
	case <-time.After(deadlockGuard):
		w.t.Fatal("ServeStream did not return")
	}
	return nil, nil
}

// handshake runs initialize and notifications/initialized for rev.
func (w *wire) handshake(rev mcp.Revision) {
	w.t.Helper()
	got := w.call(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + string(rev) + `","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if v := jget(w.t, got, "result", "protocolVersion"); v != string(rev) {
		w.t.Fatalf("initialize for %s: %s", rev, got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// statelessMeta is a valid _meta of the stateless era, as JSON.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// withStatelessMeta adds the stateless era's _meta keys to a params
// object, inside its own _meta when it has one.
func withStatelessMeta(params string) string {
	keys := strings.TrimSuffix(strings.TrimPrefix(statelessMeta, `"_meta":{`), "}")
	params = strings.Replace(params, `"_meta":{}`, statelessMeta, 1)
	if strings.Contains(params, statelessMeta) {
		return params
	}
	if strings.Contains(params, `"_meta":{`) {
		return strings.Replace(params, `"_meta":{`, `"_meta":{`+keys+",", 1)
	}
	if params == "{}" {
		return "{" + statelessMeta + "}"
	}
	return "{" + statelessMeta + "," + strings.TrimPrefix(params, "{")
}

// jget decodes line and follows the path through objects (string keys) and
// arrays (int indexes). Numbers come back as json.Number.
func jget(t *testing.T, line string, path ...any) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %s: %v", line, err)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// keys returns the sorted member names of an object.
func keys(v any) string {
	m, _ := v.(map[string]any)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return strings.Join(sortStrings(out), ",")
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// The sample estate (docs/concepts.md#the-estate).

const (
	lookupSchema = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`
	// lookupV2Schema adds the required as_of: a major change.
	lookupV2Schema = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"},"as_of":{"type":"string"}},"required":["reference","as_of"],"additionalProperties":false}`
	releaseSchema  = `{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"amount_minor":{"type":"integer","minimum":1},"currency":{"type":"string","enum":["AED","USD","EUR"]}},"required":["reference","amount_minor","currency"],"additionalProperties":false}`
	notesSchema    = `{"type":"object","properties":{"customer_id":{"type":"string"},"note":{"type":"string"}},"required":["customer_id","note"],"additionalProperties":false}`
)

func lookupSpec(version, schemaJSON string) estate.ToolSpec {
	return estate.ToolSpec{
		Name: "payments.lookup", Version: estate.MustParseVersion(version), Title: "Look up a payment",
		Description: "Return the status, amount and counterparties of a payment by its reference.",
		InputSchema: schema.MustParseJSON(schemaJSON), SideEffect: estate.Read,
		RequiredScopes: []string{"payments.read"}, DataClassification: estate.Confidential, Owner: "wholesale-payments",
	}
}

var (
	releaseSpec = estate.ToolSpec{
		Name: "payments.release", Version: estate.MustParseVersion("1.0.0"), Title: "Release a held payment",
		Description: "Release a payment currently on hold. Requires dual control above threshold.",
		InputSchema: schema.MustParseJSON(releaseSchema), SideEffect: estate.Irreversible,
		RequiredScopes: []string{"payments.release"}, DataClassification: estate.Restricted,
		Owner: "wholesale-payments", Tenants: []string{"wholesale"},
	}
	notesSpec = estate.ToolSpec{
		Name: "crm.notes.append", Version: estate.MustParseVersion("1.0.0"), Title: "Append a CRM note",
		Description: "Append a note to a customer record.",
		InputSchema: schema.MustParseJSON(notesSchema), SideEffect: estate.WriteIdempotent,
		RequiredScopes: []string{"crm.write"}, DataClassification: estate.Internal, Owner: "retail-crm",
	}
	// investigator is the worked session's principal.
	investigator = estate.Principal{
		AgentID: "payments-investigator", Tenant: "wholesale",
		Scopes: []string{"payments.read", "crm.write"}, MaxClassification: estate.Confidential,
	}
)

// freeTool is a version anyone may call, with an open object schema.
func freeTool(name string, se estate.SideEffect) estate.ToolSpec {
	return estate.ToolSpec{
		Name: name, Version: estate.MustParseVersion("1.0.0"), Title: name, Description: name,
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: se,
		DataClassification: estate.Public, Owner: "platform",
	}
}

var (
	holdPolicy = mcp.Resource{
		URI: "policy://sanctions/hold-release", Name: "Hold release policy", MIMEType: "text/markdown",
		Text: "Releases above 100k need dual control.", Tenants: []string{"wholesale"},
	}
	investigatePrompt = mcp.Prompt{
		Name: "investigate", Description: "Investigate a held payment",
		Arguments: []mcp.PromptArgument{{Name: "reference", Required: true}},
		Template:  "Investigate payment {reference}. State the hold reason.",
	}
)

// bank is a server over the sample estate with counting handlers and a
// captured log.
type bank struct {
	srv   *mcp.Server
	reg   *estate.Registry
	log   *syncBuffer
	calls sync.Map // name@version -> *atomic.Int64
}

func newBank(t *testing.T, opts mcp.Options) *bank {
	t.Helper()
	b := &bank{log: &syncBuffer{}}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(b.log, nil))
	}
	if opts.Name == "" {
		opts.Name, opts.Version = "bank-payments-mcp", "2.3.1"
	}
	srv, err := mcp.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	b.srv, b.reg = srv, srv.Registry()
	b.bind(t, lookupSpec("1.0.0", lookupSchema), func(c *mcp.Call) (*mcp.Result, error) {
		return mcp.TextResult(fmt.Sprintf("%s: HELD, 250000 AED, beneficiary 'Acme Trading FZE'", c.Arguments()["reference"])), nil
	})
	b.bind(t, releaseSpec, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("released"), nil })
	b.bind(t, notesSpec, func(*mcp.Call) (*mcp.Result, error) { return mcp.TextResult("note appended"), nil })
	return b
}

// bind publishes spec with a handler that counts its calls.
func (b *bank) bind(t *testing.T, spec estate.ToolSpec, h func(*mcp.Call) (*mcp.Result, error)) {
	t.Helper()
	n := &atomic.Int64{}
	b.calls.Store(spec.Key(), n)
	err := b.srv.Bind(spec, mcp.Tool{Handler: func(_ context.Context, c *mcp.Call) (*mcp.Result, error) {
		n.Add(1)
		return h(c)
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// called returns how often the handler of key ran.
func (b *bank) called(key string) int64 {
	n, ok := b.calls.Load(key)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

// syncBuffer is a log sink safe to read while handlers write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// records returns the log records with the given message.
func (b *syncBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %s", line)
		}
		if rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

// handshakenSession is a session of srv, the investigator's, through its
// handshake in 2025-06-18, closed when tb ends.
func handshakenSession(tb testing.TB, srv *mcp.Server) *mcp.Session {
	sess := srv.NewSession(investigator, nil)
	tb.Cleanup(sess.Close)
	ctx := context.Background()
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`))
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return sess
}

// handshakeRevisions are the revisions of the handshake era.
var handshakeRevisions = []mcp.Revision{mcp.Revision20241105, mcp.Revision20250326, mcp.Revision20250618, mcp.Revision20251125}

// session opens a wire in rev: a handshake, or nothing for the stateless
// era. withMeta turns params into the params of a request in rev.
func session(t *testing.T, srv *mcp.Server, p estate.Principal, rev mcp.Revision) (*wire, func(params string) string) {
	t.Helper()
	w := serve(t, srv, p)
	if rev.Stateless() {
		return w, func(params string) string { return withStatelessMeta(params) }
	}
	w.handshake(rev)
	return w, func(params string) string { return params }
}
