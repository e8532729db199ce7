package mcp_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// pagedBank is the sample estate with tools page.00 to page.29 added, in
// pages of size.
func pagedBank(t *testing.T, size int) *bank {
	t.Helper()
	b := newBank(t, mcp.Options{PageSize: size})
	for i := range 30 {
		b.bind(t, freeTool(fmt.Sprintf("page.%02d", i), estate.Read), func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	}
	return b
}

// listPages lists method page by page, starting at cursor ("" for the
// first page) and calling between after each page; it returns the names
// (or URIs) listed under member, and how many pages it took.
func listPages(t *testing.T, w *wire, withMeta func(string) string, method, member, key, cursor string, between func(page int)) (names []string, pages int) {
	t.Helper()
	for {
		params := "{}"
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		got := w.call(`{"jsonrpc":"2.0","id":"p` + fmt.Sprint(pages) + `","method":"` + method + `","params":` + withMeta(params) + `}`)
		entries, ok := jget(t, got, "result", member).([]any)
		if !ok {
			t.Fatalf("%s page %d: %s", method, pages, got)
		}
		for _, e := range entries {
			names = append(names, e.(map[string]any)[key].(string))
		}
		pages++
		next, present := jget(t, got, "result", "nextCursor").(string)
		if present && next == "" {
			t.Fatalf("an empty nextCursor: %s", got)
		}
		if !present {
			return names, pages
		}
		if between != nil {
			between(pages)
		}
		cursor = next
	}
}

// Paging through tools/list lists every tool the principal may see exactly
// once, in order, in pages of at most the page size, in every revision;
// the last page carries no nextCursor.
func TestToolsListPages(t *testing.T) {
	b := pagedBank(t, 4)
	for _, rev := range mcp.Revisions() {
		t.Run(string(rev), func(t *testing.T) {
			w, withMeta := session(t, b.srv, investigator, rev)
			whole := b.srvList(t, investigator)
			got, pages := listPages(t, w, withMeta, "tools/list", "tools", "name", "", nil)
			if !slices.Equal(got, whole) {
				t.Errorf("paged:\n%v\nwant\n%v", got, whole)
			}
			if want := (len(whole) + 3) / 4; pages != want {
				t.Errorf("%d pages for %d tools, want %d", pages, len(whole), want)
			}
		})
	}
}

// srvList is what discovery lists for p, by wire name.
func (b *bank) srvList(t *testing.T, p estate.Principal) []string {
	t.Helper()
	specs, err := b.reg.Discover(p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Published())
	}
	if len(names) < 30 {
		t.Fatalf("discovery lists %d tools", len(names))
	}
	return names
}

// A cursor issued before a lifecycle change continues the list as it is
// after it: a tool present throughout is listed once, one deprecated
// meanwhile after the cursor is not listed, one published meanwhile after
// the cursor is.
func TestCursorAcrossALifecycleChange(t *testing.T) {
	b := pagedBank(t, 5)
	w, withMeta := session(t, b.srv, investigator, mcp.Revision20251125)
	got, _ := listPages(t, w, withMeta, "tools/list", "tools", "name", "", func(page int) {
		if page != 1 {
			return
		}
		if err := b.reg.Deprecate("page.01", "1.0.0", ""); err != nil { // on the first page
			t.Fatal(err)
		}
		if err := b.reg.Deprecate("page.20", "1.0.0", ""); err != nil { // after it
			t.Fatal(err)
		}
		b.bind(t, freeTool("page.25a", estate.Read), func(*mcp.Call) (*mcp.Result, error) { return nil, nil })
	})
	seen := map[string]int{}
	for _, name := range got {
		seen[name]++
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", name, n)
		}
	}
	if seen["page.20"] != 0 || seen["page.25a"] != 1 || seen["page.01"] != 1 || seen["page.29"] != 1 {
		t.Errorf("listed across the change: %v", got)
	}
	if !slices.IsSorted(got) {
		t.Errorf("not in order: %v", got)
	}
}

// A cursor the server did not issue is -32602 with a message saying so,
// on every list; so is one issued for another list.
func TestInvalidCursor(t *testing.T) {
	b := pagedBank(t, 4)
	w, withMeta := session(t, b.srv, investigator, mcp.Revision20250618)
	first := w.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	toolsCursor, _ := jget(t, first, "result", "nextCursor").(string)
	if toolsCursor == "" {
		t.Fatalf("no nextCursor: %s", first)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(toolsCursor)
	raw[len(raw)-5] ^= 1 // the key changed, the checksum not
	tampered := base64.RawURLEncoding.EncodeToString(raw)
	for _, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		for cursor, want := range map[string]string{
			`"!!not base64!!"`:   "not a cursor this server issued",
			`""`:                 "not a cursor this server issued",
			`"` + tampered + `"`: "not a cursor this server issued",
			`"` + base64.RawURLEncoding.EncodeToString([]byte("page.03")) + `"`: "not a cursor this server issued",
			`7`: "cursor must be a string",
		} {
			got := w.call(`{"jsonrpc":"2.0","id":2,"method":"` + method + `","params":` + withMeta(`{"cursor":`+cursor+`}`) + `}`)
			if msg, _ := jget(t, got, "error", "message").(string); code(t, got) != "-32602" || !strings.Contains(msg, want) {
				t.Errorf("%s with cursor %s: %s", method, cursor, got)
			}
		}
		if method == "tools/list" {
			continue
		}
		got := w.call(`{"jsonrpc":"2.0","id":3,"method":"` + method + `","params":{"cursor":"` + toolsCursor + `"}}`)
		if msg, _ := jget(t, got, "error", "message").(string); code(t, got) != "-32602" || !strings.Contains(msg, "continues tools/list") {
			t.Errorf("%s with a tools/list cursor: %s", method, got)
		}
	}
}

// Resources, templates and prompts page as tools do, each list filtered
// for the caller (a resource of another tenant is never listed).
func TestCataloguePages(t *testing.T) {
	var resources []mcp.Resource
	var templates []mcp.ResourceTemplate
	var prompts []mcp.Prompt
	var wantResources, wantTemplates, wantPrompts []string
	for i := range 11 {
		r := mcp.Resource{URI: fmt.Sprintf("doc://%02d", i), Name: "d", Text: "t"}
		tm := mcp.ResourceTemplate{URITemplate: fmt.Sprintf("doc://t%02d/{id}", i), Name: "t", Text: "{id}"}
		if i%3 == 0 {
			r.Tenants, tm.Tenants = []string{"retail"}, []string{"retail"}
		} else {
			wantResources, wantTemplates = append(wantResources, r.URI), append(wantTemplates, tm.URITemplate)
		}
		resources, templates = append(resources, r), append(templates, tm)
		prompts = append(prompts, mcp.Prompt{Name: fmt.Sprintf("p%02d", i), Template: "p"})
		wantPrompts = append(wantPrompts, fmt.Sprintf("p%02d", i))
	}
	srv, err := mcp.NewServer(mcp.Options{PageSize: 3, Resources: resources, ResourceTemplates: templates, Prompts: prompts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, rev := range []mcp.Revision{mcp.Revision20241105, mcp.Revision20260728} {
		w, withMeta := session(t, srv, investigator, rev)
		for _, c := range []struct {
			method, member, key string
			want                []string
		}{
			{"resources/list", "resources", "uri", wantResources},
			{"resources/templates/list", "resourceTemplates", "uriTemplate", wantTemplates},
			{"prompts/list", "prompts", "name", wantPrompts},
		} {
			got, pages := listPages(t, w, withMeta, c.method, c.member, c.key, "", nil)
			if !slices.Equal(got, c.want) || pages != (len(c.want)+2)/3 {
				t.Errorf("%s %s: %d pages of %v", rev, c.method, pages, got)
			}
		}
	}
}

// A negative page size answers every list in one page.
func TestOnePageWhenPagingIsOff(t *testing.T) {
	b := pagedBank(t, -1)
	w, withMeta := session(t, b.srv, investigator, mcp.Revision20251125)
	got, pages := listPages(t, w, withMeta, "tools/list", "tools", "name", "", nil)
	if pages != 1 || !slices.Equal(got, b.srvList(t, investigator)) {
		t.Errorf("%d pages: %v", pages, got)
	}
}
