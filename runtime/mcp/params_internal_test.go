package mcp

import (
	"encoding/json"
	"testing"
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
