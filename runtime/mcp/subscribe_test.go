package mcp_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func TestResourceSubscriptions(t *testing.T) {
	srv := richCatalogue(t)
	ww := serve(t, srv, investigator)
	ww.handshake(mcp.Revision20250618)
	wr := serve(t, srv, retail)
	wr.handshake(mcp.Revision20250618)
	call := func(w *wire, method, uri string) string {
		return w.call(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"uri":"` + uri + `"}}`)
	}
	for _, uri := range []string{"test://live", "ledger://2026-03-31"} {
		if got := call(ww, "resources/subscribe", uri); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
			t.Errorf("subscribe %s: %s", uri, got)
		}
	}
	if got := call(wr, "resources/subscribe", "test://live"); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("retail subscribe: %s", got)
	}
	// Another tenant's resource, and no resource at all, answer alike.
	if got, want := call(wr, "resources/subscribe", "ledger://2026-03-31"),
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown resource: ledger://2026-03-31"}}`; got != want {
		t.Errorf("unentitled subscribe: %s", got)
	}
	if got := call(wr, "resources/subscribe", "nothing://here"); got != `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown resource: nothing://here"}}` {
		t.Errorf("unknown subscribe: %s", got)
	}

	srv.NotifyResourceUpdated("test://live")
	want := `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://live"}}`
	if got := ww.notification(); got != want {
		t.Errorf("wholesale: %s", got)
	}
	if got := wr.notification(); got != want {
		t.Errorf("retail: %s", got)
	}
	srv.NotifyResourceUpdated("ledger://2026-03-31")
	if got := ww.notification(); got != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"ledger://2026-03-31"}}` {
		t.Errorf("template member: %s", got)
	}

	if got := call(ww, "resources/unsubscribe", "test://live"); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("unsubscribe: %s", got)
	}
	if got := call(ww, "resources/unsubscribe", "never://subscribed"); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("unsubscribe of nothing: %s", got)
	}
	srv.NotifyResourceUpdated("test://live")
	if got := wr.notification(); got != want {
		t.Errorf("retail, still subscribed: %s", got)
	}
	ww.quiet() // the unsubscribed session hears nothing
	srv.NotifyResourceUpdated("test://unwatched")
	wr.quiet()

	// The stateless era has no resources/subscribe.
	w := serve(t, srv, investigator)
	if got := w.call(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":` + withStatelessMeta(`{"uri":"test://live"}`) + `}`); code(t, got) != "-32601" {
		t.Errorf("stateless subscribe: %s", got)
	}
}
