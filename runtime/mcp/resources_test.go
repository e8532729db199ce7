package mcp_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func catalogueServer(t *testing.T) *mcp.Server {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{
		Resources: []mcp.Resource{
			holdPolicy,
			{URI: "doc://a/faq", Name: "FAQ", Description: "Questions", MIMEType: "text/plain", Text: "Ask."},
		},
		Prompts: []mcp.Prompt{
			investigatePrompt,
			{Name: "brief", Title: "Brief", Template: "Brief on {topic}{suffix}.", Arguments: []mcp.PromptArgument{
				{Name: "topic", Required: true}, {Name: "suffix", Description: "optional tail"},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestResourcesAreTenantFiltered(t *testing.T) {
	srv := catalogueServer(t)
	retail := estate.Principal{AgentID: "r", Tenant: "retail", MaxClassification: estate.Internal}
	for _, rev := range []mcp.Revision{mcp.Revision20250618, mcp.Revision20260728} {
		ww, params := session(t, srv, investigator, rev)
		wr, _ := session(t, srv, retail, rev)
		list := ww.call(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":` + params(`{}`) + `}`)
		if got := jget(t, list, "result", "resources"); len(got.([]any)) != 2 ||
			jget(t, list, "result", "resources", 0, "uri") != "doc://a/faq" || keys(jget(t, list, "result", "resources", 1)) != "mimeType,name,uri" {
			t.Errorf("%s wholesale: %s", rev, list)
		}
		list = wr.call(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":` + params(`{}`) + `}`)
		if got := jget(t, list, "result", "resources").([]any); len(got) != 1 {
			t.Errorf("%s retail: %s", rev, list)
		}
		read := func(w *wire, uri string) string {
			return strings.ReplaceAll(w.call(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":`+params(`{"uri":"`+uri+`"}`)+`}`), uri, "URI")
		}
		if got := read(ww, holdPolicy.URI); jget(t, got, "result", "contents", 0, "text") != holdPolicy.Text {
			t.Errorf("%s wholesale read: %s", rev, got)
		}
		unknown := read(wr, "policy://no/such")
		if unknown != `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown resource: URI"}}` {
			t.Errorf("%s unknown: %s", rev, unknown)
		}
		if got := read(wr, holdPolicy.URI); got != unknown {
			t.Errorf("%s: another tenant's resource reads differently from a missing one:\n%s\n%s", rev, got, unknown)
		}
		if got := wr.call(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":` + params(`{"uri":5}`) + `}`); code(t, got) != "-32602" {
			t.Errorf("non-string uri: %s", got)
		}
	}
}

func TestPrompts(t *testing.T) {
	srv := catalogueServer(t)
	w := serve(t, srv, investigator)
	w.handshake(mcp.Revision20250618)
	list := w.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"prompts":[` +
		`{"name":"brief","title":"Brief","arguments":[{"name":"topic","required":true},{"name":"suffix","description":"optional tail","required":false}]},` +
		`{"name":"investigate","description":"Investigate a held payment","arguments":[{"name":"reference","required":true}]}]}}`
	if list != want {
		t.Errorf("prompts/list:\n got %s\nwant %s", list, want)
	}
	get := func(params string) string {
		return w.call(`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":` + params + `}`)
	}
	if got := get(`{"name":"investigate","arguments":{"reference":"PMT-771"}}`); got != `{"jsonrpc":"2.0","id":2,"result":{"description":"Investigate a held payment","messages":[{"role":"user","content":{"type":"text","text":"Investigate payment PMT-771. State the hold reason."}}]}}` {
		t.Errorf("get: %s", got)
	}
	// One pass: a value naming another placeholder is not filled again; an
	// optional argument left out is empty.
	if got := get(`{"name":"brief","arguments":{"topic":"{suffix}"}}`); jget(t, got, "result", "messages", 0, "content", "text") != "Brief on {suffix}." {
		t.Errorf("one-pass fill: %s", got)
	}
	for params, message := range map[string]string{
		`{"name":"investigate"}`:                               "missing arguments: reference",
		`{"name":"investigate","arguments":{}}`:                "missing arguments: reference",
		`{"name":"investigate","arguments":{"reference":771}}`: "argument reference must be a string",
		`{"name":"investigate","arguments":["PMT-1"]}`:         "arguments must be an object of strings",
		`{"name":"nope","arguments":{}}`:                       "unknown prompt: nope",
		`{"arguments":{}}`:                                     "name is required and must be a string",
	} {
		if got := get(params); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"`+message+`"}}` {
			t.Errorf("%s: %s", params, got)
		}
	}
}

func TestCatalogueMustBeUnambiguous(t *testing.T) {
	for _, opts := range []mcp.Options{
		{Resources: []mcp.Resource{holdPolicy, holdPolicy}},
		{Resources: []mcp.Resource{{Name: "no uri"}}},
		{Prompts: []mcp.Prompt{investigatePrompt, investigatePrompt}},
		{Prompts: []mcp.Prompt{{Name: "p", Arguments: []mcp.PromptArgument{{Name: "a"}, {Name: "a"}}}}},
	} {
		if _, err := mcp.NewServer(opts); err == nil {
			t.Errorf("accepted %+v", opts)
		}
	}
}
