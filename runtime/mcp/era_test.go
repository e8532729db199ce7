package mcp

import (
	"encoding/json"
	"testing"
)

// TestEraReadsWhatDecodingWouldFind holds params.era on params read without
// decoding _meta (as StatelessRequest reads them) to the rule as the
// decoded _meta states it: a
// request is of the stateless era when its method is one of that era's, or
// when _meta, an object, has either protocol key; the version is that key's
// value when it is a string.
func TestEraReadsWhatDecodingWouldFind(t *testing.T) {
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
		{methodToolsList, `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}`},
		{methodDiscover, ``},
		{methodListen, `{"_meta":{}}`},
	} {
		var raw json.RawMessage
		if tc.params != "" {
			raw = json.RawMessage(tc.params)
		}
		decoded := parseParams(raw)
		_, hasVersion := decoded.meta[MetaProtocolVersion]
		_, hasCaps := decoded.meta[MetaClientCapabilities]
		wantVersion, _ := decoded.meta[MetaProtocolVersion].(string)
		want := tc.method == methodDiscover || tc.method == methodListen || hasVersion || hasCaps

		var p params
		p.parse(raw, false)
		stateless, version := p.era(tc.method)
		if dStateless, dVersion := decoded.era(tc.method); dStateless != stateless || dVersion != version {
			t.Errorf("%s %s: era %v %q read alone, %v %q read while decoding", tc.method, tc.params, stateless, version, dStateless, dVersion)
		}
		if stateless != want || version != wantVersion {
			t.Errorf("%s %s: era %v %q, decoded _meta says %v %q", tc.method, tc.params, stateless, version, want, wantVersion)
		}
	}
}
