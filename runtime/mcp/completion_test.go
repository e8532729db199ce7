package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func TestCompletion(t *testing.T) {
	var seen *mcp.CompletionRequest
	many := make([]string, 150)
	for i := range many {
		many[i] = fmt.Sprintf("v%03d", i)
	}
	srv, err := mcp.NewServer(mcp.Options{
		Prompts: []mcp.Prompt{
			{Name: "city", Arguments: []mcp.PromptArgument{{Name: "country"}, {Name: "name"}},
				Complete: func(ctx context.Context, req *mcp.CompletionRequest) (*mcp.Completion, error) {
					seen = req
					return mcp.CompleteFrom("paris", "park", "party", "rome")(ctx, req)
				}},
			{Name: "plain", Arguments: []mcp.PromptArgument{{Name: "arg1"}}},
			{Name: "broken", Arguments: []mcp.PromptArgument{{Name: "a"}},
				Complete: func(context.Context, *mcp.CompletionRequest) (*mcp.Completion, error) { return nil, errors.New("boom") }},
		},
		ResourceTemplates: []mcp.ResourceTemplate{
			{URITemplate: "v://{v}", Name: "v", Complete: mcp.CompleteFrom(many...)},
			{URITemplate: "ledger://{day}", Name: "ledger", Tenants: []string{"wholesale"}, Complete: mcp.CompleteFrom("2026-03-31")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []mcp.Revision{mcp.Revision20250618, mcp.Revision20260728} {
		w, params := session(t, srv, retail, rev)
		complete := func(p string) string {
			got := w.call(`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":` + params(p) + `}`)
			if rev.Stateless() && code(t, got) == "" {
				got = strings.Replace(got, `,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcpgen","version":"0.0.0"}}`, "", 1)
			}
			return got
		}
		ok := func(completion string) string {
			return `{"jsonrpc":"2.0","id":1,"result":{"completion":` + completion + `}}`
		}
		fail := func(message string) string {
			return `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + message + `"}}`
		}
		for p, want := range map[string]string{
			`{"ref":{"type":"ref/prompt","name":"city"},"argument":{"name":"name","value":"par"},"context":{"arguments":{"country":"fr"}}}`: ok(`{"values":["paris","park","party"],"total":3}`),
			`{"ref":{"type":"ref/prompt","name":"city"},"argument":{"name":"name","value":"x"}}`:                                            ok(`{"values":[]}`),
			`{"ref":{"type":"ref/prompt","name":"plain"},"argument":{"name":"arg1","value":"test"}}`:                                        ok(`{"values":[]}`),
			`{"ref":{"type":"ref/resource","uri":"v://{v}"},"argument":{"name":"v","value":"v14"}}`:                                         ok(`{"values":["v140","v141","v142","v143","v144","v145","v146","v147","v148","v149"],"total":10}`),
			`{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}}`:                                                fail("unknown prompt: nope"),
			`{"ref":{"type":"ref/prompt","name":"city"},"argument":{"name":"zip","value":""}}`:                                              fail("prompt city has no argument zip"),
			`{"ref":{"type":"ref/resource","uri":"v://{v}"},"argument":{"name":"w","value":""}}`:                                            fail("resource template v://{v} has no variable w"),
			`{"ref":{"type":"ref/resource","uri":"ledger://{day}"},"argument":{"name":"day","value":""}}`:                                   fail("unknown resource template: ledger://{day}"), // another tenant's
			`{"ref":{"type":"ref/resource","uri":"none://{x}"},"argument":{"name":"x","value":""}}`:                                         fail("unknown resource template: none://{x}"),
			`{"ref":{"type":"ref/tool","name":"t"},"argument":{"name":"a","value":""}}`:                                                     fail(`ref.type must be \"ref/prompt\" or \"ref/resource\"`),
			`{"ref":{"type":"ref/prompt","name":"city"},"argument":{"name":"name"}}`:                                                        fail("argument.name and argument.value are required strings"),
		} {
			if got := complete(p); got != want {
				t.Errorf("%s %s:\n got %s\nwant %s", rev, p, got, want)
			}
		}
		complete(`{"ref":{"type":"ref/prompt","name":"city"},"argument":{"name":"name","value":"par"},"context":{"arguments":{"country":"fr"}}}`)
		if seen == nil || seen.Arguments["country"] != "fr" || seen.Argument != "name" || seen.Value != "par" || seen.Principal.Tenant != "retail" {
			t.Errorf("%s: the completer saw %+v", rev, seen)
		}
		got := complete(`{"ref":{"type":"ref/resource","uri":"v://{v}"},"argument":{"name":"v","value":""}}`)
		if values := jget(t, got, "result", "completion", "values").([]any); len(values) != mcp.MaxCompletionValues ||
			jget(t, got, "result", "completion", "hasMore") != true || fmt.Sprint(jget(t, got, "result", "completion", "total")) != "150" {
			t.Errorf("%s: %d values, %s", rev, len(values), got)
		}
		if got := complete(`{"ref":{"type":"ref/prompt","name":"broken"},"argument":{"name":"a","value":""}}`); code(t, got) != "-32603" {
			t.Errorf("%s: a failing completer: %s", rev, got)
		}
	}
}

// TestOddParamsAreAnswered sends the methods of logging, subscriptions,
// templates and completion params of every wrong shape: each is answered
// with a JSON-RPC response (the rest of the server is fuzzed; these must
// not be the hole).
func TestOddParamsAreAnswered(t *testing.T) {
	srv := richCatalogue(t)
	sess := srv.NewSession(investigator, func([]byte) {})
	defer sess.Close()
	ctx := context.Background()
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	odd := []string{`{}`, `{"uri":null}`, `{"uri":[]}`, `{"level":{}}`, `{"ref":1}`, `{"ref":{"type":"ref/prompt","name":5},"argument":{"name":"a","value":1}}`,
		`{"ref":{"type":"ref/resource","uri":"test://template/{id}/data"},"argument":{"name":"id","value":""},"context":{"arguments":{"x":1}}}`,
		`{"argument":null,"context":"x"}`, `{"uri":"test://template/%/data"}`}
	for _, method := range []string{"logging/setLevel", "resources/subscribe", "resources/unsubscribe", "resources/read", "resources/templates/list", "completion/complete"} {
		for _, params := range odd {
			out := sess.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
			if !strings.HasPrefix(string(out), `{"jsonrpc":"2.0","id":1,"result":`) && !strings.HasPrefix(string(out), `{"jsonrpc":"2.0","id":1,"error":`) {
				t.Errorf("%s %s: %s", method, params, out)
			}
		}
	}
}
