package reliability

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// exchange is one input line and the exact answer expected: the answer's
// id (JSON text) and the whole line, or want "" when the input must not be
// answered at all.
type exchange struct {
	name, line, id, want string
}

func rpcError(id string, code int, message string) string {
	msg, _ := json.Marshal(message)
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + strconv.Itoa(code) + `,"message":` + string(msg) + `}}`
}

// play sends each exchange on c, checks its answer, and after each one
// checks that the session still serves: a ping gets pingAnswer (with its
// id in place of %s). It returns how many exchanges it played.
func play(t *testing.T, c *peer, cases []exchange, pingAnswer string) int {
	t.Helper()
	for i, x := range cases {
		if x.want == "" {
			if err := c.send(x.line); err != nil {
				t.Fatalf("%s: %v", x.name, err)
			}
		} else if got := c.mustCall(x.id, x.line); got != x.want {
			t.Errorf("%s:\n sent %.300s\n  got %.300s\n want %.300s", x.name, x.line, got, x.want)
		}
		// Anything the input wrongly caused to be written arrives before
		// the ping's answer (inputs are read in order) and is a stray.
		id := `"after-` + strconv.Itoa(i) + `"`
		if got, want := c.mustCall(id, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`), fmt.Sprintf(pingAnswer, id); got != want {
			t.Fatalf("after %s the session no longer serves: %s", x.name, got)
		}
	}
	return len(cases)
}

const (
	notInitialized = -32600
	parseError     = -32700
	invalidRequest = -32600
	invalidParams  = -32602
	methodNotFound = -32601
)

// envelopeCases are malformed messages, answered the same whether or not
// the session is initialized.
func envelopeCases() []exchange {
	deep := func(depth int) string {
		// params is level 2 of the message; x adds one more.
		return `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":` + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + `}}`
	}
	null := "null"
	cases := []exchange{
		{"unparseable: cut short", `{"jsonrpc":"2.0","id":1,"method":"ping"`, null, rpcError(null, parseError, "parse error: unexpected end of input")},
		{"unparseable: not JSON", `ping please`, null, rpcError(null, parseError, "parse error: invalid character 'p' at start of value after offset 0")},
		{"unparseable: trailing comma", `{"jsonrpc":"2.0","id":1,"method":"ping",}`, null, rpcError(null, parseError, `parse error: invalid character '}' at start of object member name (expecting '"') after offset 40`)},
		{"unparseable: single quotes", `{'jsonrpc':'2.0'}`, null, rpcError(null, parseError, `parse error: invalid character '\'' at start of object member name (expecting '"') after offset 1`)},
		{"unparseable: two values on one line", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, null, rpcError(null, parseError, "parse error: unexpected data after the JSON value after offset 41")},
		{"unparseable: NaN", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}`, null, rpcError(null, parseError, `parse error: invalid character 'N' at start of value within "/params/x" after offset 54`)},
		{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xffng\"}", null, rpcError(null, parseError, `parse error: invalid UTF-8 within "/method" after offset 36`)},
		{"invalid UTF-8 in a member name", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"\xc3\":1}}", null, rpcError(null, parseError, `parse error: invalid UTF-8 within "/params" after offset 51`)},
		{"escaped lone surrogate", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}`, null, rpcError(null, parseError, "parse error: invalid surrogate `\\ud800` in string (a high surrogate with no low one) within \"/params/x\" after offset 55")},
		{"duplicate keys: top level", `{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, null, rpcError(null, parseError, `parse error: duplicate object member name "id"`)},
		{"duplicate keys: nested in arguments", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"payments.lookup","arguments":{"reference":"PMT-771","reference":"PMT-772"}}}`, null,
			rpcError(null, parseError, `parse error: duplicate object member name "reference" within "/params/arguments"`)},
		{"nested deeper than the limit (10001 levels)", deep(10001), null, rpcError(null, parseError,
			`parse error: exceeded max depth within "/params/x`+strings.Repeat("/0", 18)+"/…"+strings.Repeat("/0", 20)+`" after offset 10057`)},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, null, rpcError(null, invalidRequest, "batch requests are not supported")},
		{"an empty batch", `[]`, null, rpcError(null, invalidRequest, "batch requests are not supported")},
		{"a number as the message", `42`, null, rpcError(null, invalidRequest, "a message must be a JSON object")},
		{"a string as the message", `"ping"`, null, rpcError(null, invalidRequest, "a message must be a JSON object")},
		{"null as the message", `null`, null, rpcError(null, invalidRequest, "a message must be a JSON object")},
		{"no jsonrpc member", `{"id":"v","method":"ping"}`, `"v"`, rpcError(`"v"`, invalidRequest, "jsonrpc must be '2.0'")},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"v","method":"ping"}`, `"v"`, rpcError(`"v"`, invalidRequest, "jsonrpc must be '2.0'")},
		{"jsonrpc as a number", `{"jsonrpc":2.0,"id":"v","method":"ping"}`, `"v"`, rpcError(`"v"`, invalidRequest, "jsonrpc must be '2.0'")},
		{"no method", `{"jsonrpc":"2.0","id":"m"}`, `"m"`, rpcError(`"m"`, invalidRequest, "method must be a non-empty string")},
		{"method as a number", `{"jsonrpc":"2.0","id":"m","method":7}`, `"m"`, rpcError(`"m"`, invalidRequest, "method must be a non-empty string")},
		{"method with another case", `{"jsonrpc":"2.0","id":"m","Method":"ping"}`, `"m"`, rpcError(`"m"`, invalidRequest, "method must be a non-empty string")},
		{"a request that is also a response", `{"jsonrpc":"2.0","id":"m","method":"ping","result":{}}`, `"m"`, rpcError(`"m"`, invalidRequest, "a message cannot be both a request and a response")},
		{"a response from the client", `{"jsonrpc":"2.0","id":"r","result":{}}`, "", ""},
		{"an error response from the client", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, "", ""},
		{"a request without id", `{"jsonrpc":"2.0","method":"tools/list"}`, "", ""},
		{"an empty line", ``, "", ""},
		{"a line of blanks", " \t \r", "", ""},
		{"an unknown notification", `{"jsonrpc":"2.0","method":"notifications/nonsense","params":{"x":1}}`, "", ""},
		{"a notification carrying an id", `{"jsonrpc":"2.0","id":"n","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`, "", ""},
		{"cancelling an id never sent", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never"}}`, "", ""},
		{"cancelling with a malformed requestId", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}`, "", ""},
		{"cancelling without a requestId", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`, "", ""},
	}
	for _, id := range []string{`1.5`, `2.0`, `1e3`, `-1.0E+2`, `null`, `true`, `false`, `{}`, `{"id":1}`, `[]`, `[1]`} {
		cases = append(cases, exchange{"id " + id, `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`, null, rpcError(null, invalidRequest, "id must be a string or an integer")})
	}
	for _, params := range []string{`[]`, `[1,2]`, `"x"`, `5`, `true`, `null`} {
		cases = append(cases, exchange{"params " + params, `{"jsonrpc":"2.0","id":"p","method":"tools/list","params":` + params + `}`, `"p"`, rpcError(`"p"`, invalidRequest, "params must be an object")})
	}
	return cases
}

// paramRule is one params member of one method and how a value of the
// wrong type is answered.
type paramRule struct {
	method, member string // member may be "_meta.<key>"
	kind           string // "string" or "object": what the member must be
	message        string // the -32602 message
	others         string // params members that make the request otherwise valid
	stateless      bool   // send with the stateless era's _meta
}

// wrongValues are JSON values of every type but want.
func wrongValues(want string) []string {
	all := map[string][]string{"string": {`"x"`}, "object": {`{}`}}
	var out []string
	for _, v := range []string{`5`, `2.5`, `"x"`, `true`, `null`, `[]`, `[{}]`, `{}`} {
		if !slices.Contains(all[want], v) {
			out = append(out, v)
		}
	}
	return out
}

const statelessMeta = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`

// paramRules cover every params member of every method the server knows.
var paramRules = []paramRule{
	{"initialize", "protocolVersion", "string", "protocolVersion is required and must be a string", `"capabilities":{},"clientInfo":{"name":"c","version":"1"}`, false},
	{"initialize", "capabilities", "object", "capabilities must be an object", `"protocolVersion":"2025-06-18","clientInfo":{"name":"c","version":"1"}`, false},
	{"initialize", "clientInfo", "object", "clientInfo must be an object", `"protocolVersion":"2025-06-18","capabilities":{}`, false},
	{"ping", "_meta", "object", "_meta must be an object", ``, false},
	{"tools/list", "cursor", "string", "cursor must be a string", ``, false},
	{"tools/list", "_meta", "object", "_meta must be an object", ``, false},
	{"tools/call", "name", "string", "name is required and must be a string", `"arguments":{"reference":"PMT-771","as_of":"2026-03-31"}`, false},
	{"tools/call", "arguments", "object", "arguments must be an object", `"name":"payments.lookup"`, false},
	{"tools/call", "_meta", "object", "_meta must be an object", `"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-31"}`, false},
	{"tools/call", "_meta.version", "string", "_meta.version must be a string (a version constraint)", `"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-31"}`, false},
	{"tools/call", "_meta.schemaHash", "string", "_meta.schemaHash must be a string", `"name":"payments.lookup","arguments":{"reference":"PMT-771","as_of":"2026-03-31"}`, false},
	{"resources/list", "cursor", "string", "cursor must be a string", ``, false},
	{"resources/templates/list", "cursor", "string", "cursor must be a string", ``, false},
	{"resources/read", "uri", "string", "uri is required and must be a string", ``, false},
	{"prompts/list", "cursor", "string", "cursor must be a string", ``, false},
	{"resources/subscribe", "uri", "string", "uri is required and must be a string", ``, false},
	{"resources/unsubscribe", "uri", "string", "uri is required and must be a string", ``, false},
	{"logging/setLevel", "level", "string", `level must be one of ["debug" "info" "notice" "warning" "error" "critical" "alert" "emergency"]`, ``, false},
	{"prompts/get", "name", "string", "name is required and must be a string", `"arguments":{"reference":"PMT-771"}`, false},
	{"prompts/get", "arguments", "object", "arguments must be an object of strings", `"name":"investigate"`, false},
	{"server/discover", "_meta", "object", "_meta must be an object", ``, false},
	{"server/discover", "_meta.io.modelcontextprotocol/protocolVersion", "string", "_meta.io.modelcontextprotocol/protocolVersion is required and must be a string", ``, true},
	{"server/discover", "_meta.io.modelcontextprotocol/clientCapabilities", "object", "_meta.io.modelcontextprotocol/clientCapabilities is required and must be an object", ``, true},
	{"subscriptions/listen", "notifications", "object", "notifications must be an object", ``, true},
	{"tools/list", "_meta.io.modelcontextprotocol/protocolVersion", "string", "_meta.io.modelcontextprotocol/protocolVersion is required and must be a string", ``, true},
}

// paramCases turns the rules whose method matches keep into exchanges.
func paramCases(keep func(method string) bool) []exchange {
	var cases []exchange
	n := 0
	for _, r := range paramRules {
		if !keep(r.method) {
			continue
		}
		for _, v := range wrongValues(r.kind) {
			n++
			id := `"w` + strconv.Itoa(n) + `"`
			var members, meta []string
			if r.others != "" {
				members = append(members, r.others)
			}
			if r.stateless {
				meta = []string{`"` + mcp.MetaProtocolVersion + `":"2026-07-28"`, `"` + mcp.MetaClientCapabilities + `":{}`}
			}
			switch key, isMeta := strings.CutPrefix(r.member, "_meta."); {
			case isMeta:
				// The wrong value replaces the _meta key it names, or
				// joins the others.
				kv := `"` + key + `":` + v
				i := slices.IndexFunc(meta, func(m string) bool { return strings.HasPrefix(m, `"`+key+`":`) })
				if i >= 0 {
					meta[i] = kv
				} else {
					meta = append(meta, kv)
				}
			case r.member == "_meta":
				members = append(members, `"_meta":`+v)
			default:
				members = append(members, `"`+r.member+`":`+v)
			}
			if len(meta) > 0 {
				members = append(members, `"_meta":{`+strings.Join(meta, ",")+`}`)
			}
			cases = append(cases, exchange{
				name: fmt.Sprintf("%s %s: %s", r.method, r.member, v),
				line: `{"jsonrpc":"2.0","id":` + id + `,"method":"` + r.method + `","params":{` + strings.Join(members, ",") + `}}`,
				id:   id, want: rpcError(id, invalidParams, r.message),
			})
		}
	}
	return cases
}

// argumentCases give every property of every version the treasurer can
// call a value of each wrong type, the rest of the arguments valid: the
// answer lists exactly that one error, and the handler is not reached.
func argumentCases() []exchange {
	valid := map[string]map[string]any{
		"crm.notes.append@1.0.0": {"customer_id": "C-1", "note": "called back"},
		"payments.lookup@1.0.0":  {"reference": "PMT-771", "include_legs": true},
		"payments.lookup@2.0.0":  {"reference": "PMT-771", "include_legs": false, "as_of": "2026-03-31"},
		"payments.lookup@3.0.0":  {"reference": "PMT-771", "include_legs": false, "as_of": "2026-03-31"},
		"payments.release@1.0.0": {"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"},
	}
	wrong := []struct {
		text string
		kind schema.Kind
	}{{`5`, schema.KindInteger}, {`2.5`, schema.KindNumber}, {`"x"`, schema.KindString}, {`true`, schema.KindBoolean},
		{`null`, schema.KindNull}, {`[]`, schema.KindArray}, {`{}`, schema.KindObject}}
	var cases []exchange
	n := 0
	for _, spec := range bank.Specs() {
		args := valid[spec.Key()]
		for _, prop := range spec.InputSchema.PropertyNames() {
			declared := spec.InputSchema.Property(prop).Types()
			for _, w := range wrong {
				if slices.Contains(declared, w.kind) || (w.kind == schema.KindInteger && slices.Contains(declared, schema.KindNumber)) {
					continue
				}
				n++
				id := `"a` + strconv.Itoa(n) + `"`
				fields := []string{}
				for _, name := range spec.InputSchema.PropertyNames() {
					v, ok := args[name]
					if name == prop {
						fields = append(fields, `"`+name+`":`+w.text)
					} else if ok {
						enc, _ := json.Marshal(v)
						fields = append(fields, `"`+name+`":`+string(enc))
					}
				}
				line := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + spec.Name +
					`","arguments":{` + strings.Join(fields, ",") + `},"_meta":{"version":"` + spec.Version.String() + `"}}}`
				data, _ := json.Marshal(map[string]any{"errors": []string{"$." + prop + ": expected type " + declared[0].String() + ", got " + w.kind.String()}})
				want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"arguments failed schema validation","data":` + string(data) + `}}`
				cases = append(cases, exchange{fmt.Sprintf("%s %s: %s", spec.Key(), prop, w.text), line, id, want})
			}
		}
	}
	return cases
}

// TestBadInputIsAnsweredExactly sends every kind of bad input on one stdio
// session — before the handshake, then after it — and checks each exact
// answer (or that there is none) and that the session still serves after
// each.
func TestBadInputIsAnsweredExactly(t *testing.T) {
	srv, _ := bankServer(t, mcp.Options{})
	c := serveStdio(t, srv, treasurer)
	notLive := func(id string) string { return rpcError(id, notInitialized, "server not initialized") }

	// Before initialize.
	before := envelopeCases()
	for _, m := range []string{"ping", "tools/list", "tools/call", "resources/list", "resources/read", "prompts/get", "no/such/method"} {
		before = append(before, exchange{"calling " + m + " before initialize", `{"jsonrpc":"2.0","id":"early","method":"` + m + `","params":{"name":"payments.lookup"}}`, `"early"`, notLive(`"early"`)})
	}
	const big = "123456789012345678901234567890"
	before = append(before,
		exchange{"an id beyond 64 bits is answered as sent", `{"jsonrpc":"2.0","id":` + big + `,"method":"tools/list"}`, big, notLive(big)},
		exchange{"notifications/initialized before initialize", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", ""},
	)
	before = append(before, paramCases(func(m string) bool { return m == "initialize" })...)
	n := play(t, c, before, notLive("%s"))

	c.handshake(mcp.Revision20250618)
	pong := `{"jsonrpc":"2.0","id":%s,"result":{}}`
	after := envelopeCases()
	after = append(after,
		exchange{"a second initialize", `{"jsonrpc":"2.0","id":"again","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
			`"again"`, rpcError(`"again"`, invalidRequest, "initialize was already received on this session")},
		exchange{"a notification carrying an id", `{"jsonrpc":"2.0","id":"n2","method":"notifications/initialized"}`, "", ""},
		exchange{"nested as deep as the limit (10000 levels)",
			`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}}`,
			`"deep"`, `{"jsonrpc":"2.0","id":"deep","result":{}}`},
		exchange{"an unknown method", `{"jsonrpc":"2.0","id":"u","method":"tools/delete"}`, `"u"`, rpcError(`"u"`, methodNotFound, "unknown method: tools/delete")},
		exchange{"an integer too large for int64", `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"payments.release","arguments":{"reference":"PMT-771","amount_minor":12345678901234567890,"currency":"AED"}}}`,
			`"big"`, `{"jsonrpc":"2.0","id":"big","error":{"code":-32602,"message":"arguments failed schema validation","data":{"errors":["$.amount_minor: out of range for a 64-bit integer"]}}}`},
		exchange{"a number too large for a double", `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"payments.release","arguments":{"reference":"PMT-771","amount_minor":1e400,"currency":"AED"}}}`,
			`"huge"`, `{"jsonrpc":"2.0","id":"huge","error":{"code":-32602,"message":"arguments failed schema validation","data":{"errors":["$.amount_minor: expected type integer, got number"]}}}`},
		exchange{"an integral float for an integer", `{"jsonrpc":"2.0","id":"f","method":"tools/call","params":{"name":"payments.release","arguments":{"reference":"PMT-771","amount_minor":5.0,"currency":"AED"}}}`,
			`"f"`, `{"jsonrpc":"2.0","id":"f","error":{"code":-32602,"message":"arguments failed schema validation","data":{"errors":["$.amount_minor: expected type integer, got number"]}}}`},
		exchange{"a cursor this server never issued", `{"jsonrpc":"2.0","id":"cur","method":"tools/list","params":{"cursor":"bmV4dA=="}}`, `"cur"`, rpcError(`"cur"`, invalidParams, "invalid cursor: it is not a cursor this server issued; list again without one")},
		exchange{"a prompt argument that is not a string", `{"jsonrpc":"2.0","id":"pa","method":"prompts/get","params":{"name":"investigate","arguments":{"reference":771}}}`,
			`"pa"`, rpcError(`"pa"`, invalidParams, "argument reference must be a string")},
		exchange{"an unsupported stateless revision", `{"jsonrpc":"2.0","id":"sv","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			`"sv"`, `{"jsonrpc":"2.0","id":"sv","error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2099-01-01","supported":["2026-07-28"]}}}`},
	)
	after = append(after, paramCases(func(m string) bool { return m != "initialize" })...)
	after = append(after, argumentCases()...)
	n += play(t, c, after, pong)

	if err := c.close(); err != nil {
		t.Fatalf("ServeStream: %v", err)
	}
	record(t, figure{ID: "bad-input/stdio", Area: "Bad input",
		Tried: "Malformed and hostile messages on one stdio session, before and after the handshake: unparseable JSON, invalid UTF-8, escaped lone surrogates, duplicate keys at any depth, nesting past the 10000-level limit, ids that are floats/null/booleans/objects/arrays, batches, params that are arrays or scalars, every params member of every method with every wrong JSON type, every argument of every tool version with every wrong type, numbers too large for int64 or a double, calls before initialize, a second initialize, notifications carrying an id, unknown notifications, cancellations of unknown ids, responses from the client",
		Count: n, Unit: "inputs",
		Held: "each got its exact expected answer (or none, for notifications, responses and blank lines), byte for byte; a ping after each one was answered; no stray output"})
}

// pingOfSize is a ping of exactly n bytes.
func pingOfSize(n int) string {
	head := `{"jsonrpc":"2.0","id":"pad","method":"ping","params":{"pad":"`
	return head + strings.Repeat("x", n-len(head)-3) + `"}}`
}

// TestMessageSizeLimit: a stdio line of exactly the limit is served, one
// byte more is refused (id null) and skipped, and the session goes on —
// with a configured limit and with the default of 16 MiB (only the message
// one byte over it: a 16 MiB message served is slow under the race
// detector and shows nothing the small limit does not).
func TestMessageSizeLimit(t *testing.T) {
	n := 0
	for _, limit := range []int{4096, 0} {
		srv, _ := bankServer(t, mcp.Options{MaxMessageBytes: limit})
		cases := []exchange{}
		if limit == 0 {
			limit = 16 << 20
			cases = append(cases, exchange{"one byte over the default limit", pingOfSize(limit + 1), "null", rpcError("null", invalidRequest, "message exceeds the limit of 16777216 bytes")})
		} else {
			cases = append(cases,
				exchange{"exactly at the limit", pingOfSize(limit), `"pad"`, `{"jsonrpc":"2.0","id":"pad","result":{}}`},
				exchange{"one byte over the limit", pingOfSize(limit + 1), "null", rpcError("null", invalidRequest, "message exceeds the limit of 4096 bytes")},
				exchange{"far over the limit", pingOfSize(1 << 20), "null", rpcError("null", invalidRequest, "message exceeds the limit of 4096 bytes")},
			)
		}
		c := serveStdio(t, srv, treasurer)
		c.handshake(mcp.Revision20250618)
		n += play(t, c, cases, `{"jsonrpc":"2.0","id":%s,"result":{}}`)
		if err := c.close(); err != nil {
			t.Fatal(err)
		}
	}
	record(t, figure{ID: "bad-input/size-limit", Area: "Bad input",
		Tried: "stdio messages exactly at, one byte over, and far over a size limit of 4096 bytes (`Options.MaxMessageBytes`), and one byte over its default of 16 MiB",
		Count: n, Unit: "messages",
		Held: "the message at the limit was served; the longer ones were answered `-32600 message exceeds the limit of N bytes` under id null and skipped; the session went on serving"})
}
