package mcp

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestParamsReadWhatDecodingWouldFind holds params.parse, which skips
// every _meta member it does not read, to the rules as the decoded _meta
// states them: a request is of the stateless era when its method is one
// of that era's, or when _meta, an object, has either protocol key; the
// version is that key's value when it is a string; and each _meta member
// the server reads is the decoded member.
func TestParamsReadWhatDecodingWouldFind(t *testing.T) {
	for _, tc := range []struct {
		method, params string
	}{
		{methodToolsCall, ``},
		{methodToolsCall, `{"name":"x"}`},
		{methodToolsCall, `{"_meta":{}}`},
		{methodToolsCall, `{"_meta":"2026-07-28"}`},
		{methodToolsCall, `{"_meta":null}`},
		{methodToolsCall, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`},
		{methodToolsCall, `{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}`},
		{methodToolsCall, `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`},
		{methodToolsCall, `{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-\u00307-28"}}`},
		{methodToolsCall, `{"_meta":{"progressToken":1,"nested":{"io.modelcontextprotocol/protocolVersion":"x"}}}`},
		{methodToolsCall, `{"_meta":{"version":"^1","schemaHash":"h","io.modelcontextprotocol/logLevel":"info","big":[1,2,{"a":[]}]}}`},
		{methodToolsList, `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}`},
		{methodDiscover, ``},
		{methodListen, `{"_meta":{}}`},
	} {
		var raw json.RawMessage
		var meta map[string]any
		if tc.params != "" {
			raw = json.RawMessage(tc.params)
			v, err := schema.DecodeJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			meta, _ = v.(map[string]any)["_meta"].(map[string]any)
		}
		_, hasVersion := meta[MetaProtocolVersion]
		_, hasCaps := meta[MetaClientCapabilities]
		wantVersion, _ := meta[MetaProtocolVersion].(string)
		want := tc.method == methodDiscover || tc.method == methodListen || hasVersion || hasCaps

		p := parseParams(raw)
		if stateless, version := p.era(tc.method); stateless != want || version != wantVersion {
			t.Errorf("%s %s: era %v %q, decoded _meta says %v %q", tc.method, tc.params, stateless, version, want, wantVersion)
		}
		for key, i := range map[string]int{MetaProtocolVersion: metaProtocolVersion, MetaClientCapabilities: metaClientCapabilities,
			MetaLogLevel: metaLogLevel, MetaVersion: metaVersionPin, MetaSchemaHash: metaSchemaHash, MetaProgressToken: metaProgressToken} {
			wantValue, present := meta[key]
			got := p.metaMembers[i]
			if (got != nil) != present {
				t.Errorf("%s: %s read as %q, decoded present %v", tc.params, key, got, present)
				continue
			}
			if present {
				if v, err := schema.DecodeJSON(got); err != nil || !schema.Equal(v, wantValue) {
					t.Errorf("%s: %s read as %s, decoded as %v", tc.params, key, got, wantValue)
				}
			}
		}
	}
}
