package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

var retail = estate.Principal{AgentID: "r", Tenant: "retail", MaxClassification: estate.Internal}

// richCatalogue has a binary resource, a resource read by a function,
// templates (one declarative, one read by a function, one wholesale-only),
// and a prompt whose messages are built by a function.
func richCatalogue(t *testing.T) *mcp.Server {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{
		Resources: []mcp.Resource{
			{URI: "test://static-binary", Name: "png", MIMEType: "image/png", Blob: "iVBORw=="},
			{URI: "test://live", Name: "live", Read: func(_ context.Context, r *mcp.ResourceRead) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextContents(r.URI, "text/plain", "live for "+r.Principal.Tenant)}, nil
			}},
			{URI: "test://broken", Name: "broken", Read: func(context.Context, *mcp.ResourceRead) ([]mcp.ResourceContents, error) {
				return nil, errors.New("disk on fire")
			}},
		},
		ResourceTemplates: []mcp.ResourceTemplate{
			{URITemplate: "test://template/{id}/data", Name: "data", MIMEType: "application/json",
				Text: `{"id":"{id}","data":"Data for ID: {id}"}`},
			{URITemplate: "acct://{bank}/{number}", Name: "account", Read: func(_ context.Context, r *mcp.ResourceRead) ([]mcp.ResourceContents, error) {
				if r.Vars["number"] == "0" {
					return nil, mcp.ErrResourceNotFound
				}
				return []mcp.ResourceContents{mcp.TextContents(r.URI, "", r.Vars["bank"]+"|"+r.Vars["number"])}, nil
			}},
			{URITemplate: "ledger://{day}", Name: "ledger", Description: "Wholesale ledger", Tenants: []string{"wholesale"}, Text: "ledger of {day}"},
		},
		Prompts: []mcp.Prompt{{
			Name: "with_image", Description: "image then text",
			Arguments: []mcp.PromptArgument{{Name: "resourceUri", Required: true}},
			Get: func(_ context.Context, g *mcp.PromptGet) ([]mcp.PromptMessage, error) {
				return []mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.ResourceContent(mcp.TextContents(g.Arguments["resourceUri"], "text/plain", "embedded"))},
					{Role: mcp.RoleUser, Content: mcp.ImageContent("image/png", []byte{0x89})},
				}, nil
			},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestResourceTemplatesListAndRead(t *testing.T) {
	srv := richCatalogue(t)
	for _, rev := range []mcp.Revision{mcp.Revision20250618, mcp.Revision20260728} {
		ww, params := session(t, srv, investigator, rev)
		wr, _ := session(t, srv, retail, rev)
		list := ww.call(`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list","params":` + params(`{}`) + `}`)
		want := `[{"uriTemplate":"acct://{bank}/{number}","name":"account"},` +
			`{"uriTemplate":"ledger://{day}","name":"ledger","description":"Wholesale ledger"},` +
			`{"uriTemplate":"test://template/{id}/data","name":"data","mimeType":"application/json"}]`
		if !strings.Contains(list, `"resourceTemplates":`+want) {
			t.Errorf("%s wholesale list: %s", rev, list)
		}
		if list := wr.call(`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list","params":` + params(`{}`) + `}`); strings.Contains(list, "ledger") {
			t.Errorf("%s: retail sees the wholesale template: %s", rev, list)
		}
		read := func(w *wire, uri string) string {
			return strings.ReplaceAll(w.call(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":`+params(`{"uri":"`+uri+`"}`)+`}`), uri, "URI")
		}
		contents := func(w *wire, uri string) any { return jget(t, read(w, uri), "result", "contents", 0) }
		// Declarative text: the variable as the URI spells it.
		if got := contents(wr, "test://template/12%2F3/data"); keys(got) != "mimeType,text,uri" ||
			got.(map[string]any)["text"] != `{"id":"12%2F3","data":"Data for ID: 12%2F3"}` {
			t.Errorf("%s template text: %v", rev, got)
		}
		// A function: decoded variables.
		if got := contents(wr, "acct://first%20bank/42"); got.(map[string]any)["text"] != "first bank|42" {
			t.Errorf("%s template read: %v", rev, got)
		}
		if got := contents(ww, "ledger://2026-03-31"); got.(map[string]any)["text"] != "ledger of 2026-03-31" {
			t.Errorf("%s wholesale template: %v", rev, got)
		}
		if got := contents(wr, "test://static-binary"); keys(got) != "blob,mimeType,uri" || got.(map[string]any)["blob"] != "iVBORw==" {
			t.Errorf("%s blob: %v", rev, got)
		}
		if got := contents(wr, "test://live"); got.(map[string]any)["text"] != "live for retail" {
			t.Errorf("%s reader: %v", rev, got)
		}
		// One answer for everything the caller cannot read.
		unknown := read(wr, "nothing://here")
		if code(t, unknown) != "-32602" {
			t.Fatalf("%s unknown: %s", rev, unknown)
		}
		for _, uri := range []string{
			"ledger://2026-03-31",        // another tenant's template
			"acct://b/0",                 // the reader says not found
			"test://template/1/2/data",   // a variable never spans "/"
			"test://template//data",      // nor is empty
			`test://template/\"x\"/data`, // nor carries a quote
			"test://template/%zz/data",   // nor a bad escape
			"test://template/{id}/data",  // the template itself is no member
			"acct://b/1/extra",           // the whole URI must match
			"xtest://template/1/data",    // from its start
		} {
			if got := read(wr, uri); got != unknown {
				t.Errorf("%s %s: %s, unlike an unknown URI", rev, uri, got)
			}
		}
		if got := read(wr, "test://broken"); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"resource read failed"}}` {
			t.Errorf("%s reader error: %s", rev, got)
		}
	}
}

func TestPromptWithAGetter(t *testing.T) {
	w := serve(t, richCatalogue(t), investigator)
	w.handshake(mcp.Revision20250618)
	got := w.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"with_image","arguments":{"resourceUri":"test://example"}}}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"description":"image then text","messages":[` +
		`{"role":"user","content":{"type":"resource","resource":{"uri":"test://example","mimeType":"text/plain","text":"embedded"}}},` +
		`{"role":"user","content":{"type":"image","data":"iQ==","mimeType":"image/png"}}]}}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if got := w.call(`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"with_image"}}`); got != `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"missing arguments: resourceUri"}}` {
		t.Errorf("missing argument: %s", got)
	}
}

func TestResourceTemplatesMustBeWellFormed(t *testing.T) {
	for _, tmpl := range []mcp.ResourceTemplate{
		{URITemplate: "x://fixed"},
		{URITemplate: "x://{+path}"},
		{URITemplate: "x://{?q}"},
		{URITemplate: "x://{a,b}"},
		{URITemplate: "x://{a*}"},
		{URITemplate: "x://{a}{b}"},
		{URITemplate: "x://{a}/{a}"},
		{URITemplate: "x://{a"},
		{URITemplate: "x://a}/{b}"},
		{URITemplate: "x://{}"},
		{URITemplate: "x://{a}", Text: "{b}"},
	} {
		if _, err := mcp.NewServer(mcp.Options{ResourceTemplates: []mcp.ResourceTemplate{tmpl}}); err == nil {
			t.Errorf("accepted %q (text %q)", tmpl.URITemplate, tmpl.Text)
		}
	}
	dup := mcp.ResourceTemplate{URITemplate: "x://{a}"}
	if _, err := mcp.NewServer(mcp.Options{ResourceTemplates: []mcp.ResourceTemplate{dup, dup}}); err == nil {
		t.Error("accepted a repeated template")
	}
	if _, err := mcp.NewServer(mcp.Options{Resources: []mcp.Resource{{URI: "x://b", Blob: "not base64!"}}}); err == nil {
		t.Error("accepted a blob that is not base64")
	}
	// A text that is JSON, with braces of its own, is fine.
	if _, err := mcp.NewServer(mcp.Options{ResourceTemplates: []mcp.ResourceTemplate{{URITemplate: "x://{a}", Text: `{"a":"{a}","b":{}}`}}}); err != nil {
		t.Error(err)
	}
}
