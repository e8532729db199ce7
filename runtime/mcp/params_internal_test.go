package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// A copy of a reading does not refer to the reading it was copied from:
// HandleIncoming copies the transport's reading into the request, which
// may outlive it (a handler answered and still running).
func TestParamsCopyIsItsOwn(t *testing.T) {
	for _, raw := range []string{
		`{"name":"n","arguments":{"a":1}}`,
		`{"name":"n","cursor":"c","uri":"u","level":"info","arguments":{"a":1}}`, // more than the inline four
	} {
		var p params
		p.parse(json.RawMessage(raw))
		q := p
		p = params{} // the reading is gone
		if got := string(q.member("name")); got != `"n"` {
			t.Errorf("%s: name %q after the reading was cleared", raw, got)
		}
		if got := string(q.member("arguments")); got != `{"a":1}` {
			t.Errorf("%s: arguments %q after the reading was cleared", raw, got)
		}
	}
}

// A call names a bound tool without a string made for the name; a name
// written with an escape, or one no tool has, is read as before; a wire
// name reaches its tool.
func TestCallNameMakesNoString(t *testing.T) {
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	bind := func(name, wire string) {
		spec := estate.ToolSpec{
			Name: name, WireName: wire, Version: estate.MustParseVersion("1.0.0"), Description: name,
			InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read,
			DataClassification: estate.Public, Owner: "platform",
		}
		if err := srv.Bind(spec, Tool{Handler: func(context.Context, *Call) (*Result, error) { return nil, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	bind("payments.lookup", "")
	bind("crm.notes.append", "notes_append")
	for _, c := range []struct{ raw, sent, tool string }{
		{`"payments.lookup"`, "payments.lookup", "payments.lookup"},
		{`"payments\u002elookup"`, "payments.lookup", "payments.lookup"},
		{`"notes_append"`, "notes_append", "crm.notes.append"},
		{`"crm.notes.append"`, "crm.notes.append", "crm.notes.append"},
		{`"nobody"`, "nobody", "nobody"},
	} {
		sent, tool, ok := srv.callName(json.RawMessage(c.raw))
		if !ok || sent != c.sent || tool != c.tool {
			t.Errorf("%s: %q %q %v, want %q %q", c.raw, sent, tool, ok, c.sent, c.tool)
		}
	}
	if _, _, ok := srv.callName(json.RawMessage(`7`)); ok {
		t.Error("a number was read as a name")
	}
	raw := json.RawMessage(`"payments.lookup"`)
	if n := testing.AllocsPerRun(100, func() { srv.callName(raw) }); n != 0 {
		t.Errorf("reading a bound tool's name allocated %v times", n)
	}
}
