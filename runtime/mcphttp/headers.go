package mcphttp

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/oplog"
)

// checkStatelessHeaders is the 2026-07-28 server validation: the headers a
// request of that era must carry, each equal to the body value it mirrors.
// It returns nil when they are in order, -32022 when they agree on a
// revision this server does not serve statelessly, and -32020
// (HeaderMismatch) otherwise.
func checkStatelessHeaders(h http.Header, in *mcp.Incoming, bodyVersion string) *jsonrpc.Error {
	msg := in.Message
	version := headerValue(h, HeaderProtocolVersion)
	switch {
	case version == "":
		return mismatch("the " + HeaderProtocolVersion + " header is required")
	case bodyVersion == "":
		return mismatch(HeaderProtocolVersion + " header value " + quote(version) + " does not match params._meta, which names no " + mcp.MetaProtocolVersion)
	case bodyVersion != version:
		return mismatch(HeaderProtocolVersion + " header value " + quote(version) + " does not match body value " + quote(bodyVersion))
	}
	if rev, known := mcp.ParseRevision(version); !known || !rev.Stateless() {
		return mcp.UnsupportedProtocolVersionError(version)
	}
	method, present := header(h, HeaderMethod)
	switch {
	case !present:
		return mismatch("the " + HeaderMethod + " header is required")
	case method != msg.Method:
		return mismatch(HeaderMethod + " header value " + quote(method) + " does not match body value " + quote(msg.Method))
	}
	field := nameField(msg.Method)
	if field == "" {
		return nil
	}
	raw, present := header(h, HeaderName)
	if !present {
		return mismatch("the " + HeaderName + " header is required for " + msg.Method)
	}
	name, ok := decodeHeaderValue(raw)
	if !ok {
		return mismatch(HeaderName + " header value " + quote(raw) + " is not valid base64")
	}
	if !in.StringMemberIs(field, name) {
		body, _ := in.StringMember(field)
		return mismatch(HeaderName + " header value " + quote(name) + " does not match params." + field + " " + quote(body))
	}
	return nil
}

func mismatch(message string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeHeaderMismatch, "Header mismatch: "+message)
}

// header returns a header's value and whether it is present at all. A
// request carrying it twice never gets here (see repeatedHeader).
//
// name is in canonical form (http.CanonicalHeaderKey), as every name this
// package asks for is (TestHeaderNamesAreCanonical), and so are the keys
// of a request's Header as net/http reads them: the map is read as it
// is. Header.Get and Values canonicalize the name again, which was some
// 400 instructions a header, six headers a call.
func header(h http.Header, name string) (string, bool) {
	v := h[name]
	if len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// headerValue is header's value alone: Header.Get of a canonical name.
func headerValue(h http.Header, name string) string {
	v, _ := header(h, name)
	return v
}

// repeatedHeader names a header of this transport (Mcp-*) that the request
// carries more than once, "" when there is none. Such a request is refused
// before anything reads it: checking one of the values against the body
// while a gateway routes or authorises on another is the smuggling that
// duplicate JSON members are refused for (see jsonrpc.Decode).
func repeatedHeader(h http.Header) string {
	for name, values := range h {
		if len(values) > 1 && strings.HasPrefix(name, "Mcp-") {
			return name
		}
	}
	return ""
}

// nameField is the params member Mcp-Name mirrors for a method, "" when the
// method has none.
func nameField(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read":
		return "uri"
	}
	return ""
}

// decodeHeaderValue undoes the Base64 sentinel form =?base64?...?= of a
// header value that could not travel as plain ASCII; any other value is
// returned as it is.
func decodeHeaderValue(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) < len(prefix)+len(suffix) || !strings.HasPrefix(v, prefix) || !strings.HasSuffix(v, suffix) {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(prefix) : len(v)-len(suffix)])
	return string(b), err == nil
}

// acceptance is what an Accept header admits of the two answer forms.
type acceptance struct{ json, sse bool }

// parseAccept reads Accept headers; none at all admits both.
func parseAccept(values []string) acceptance {
	if len(values) == 0 {
		return acceptance{json: true, sse: true}
	}
	var a acceptance
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(item, ";")
			mt = strings.TrimSpace(mt)
			json, sse := mediaRange(mt)
			if !json && !sse {
				// Media types are compared without regard to case (RFC
				// 9110 §8.3.1); clients write these in lower case, and
				// lowering every one was 230 instructions.
				json, sse = mediaRange(strings.ToLower(mt))
			}
			a.json, a.sse = a.json || json, a.sse || sse
		}
	}
	return a
}

// mediaRange says which answer forms a media range in lower case admits.
func mediaRange(mt string) (json, sse bool) {
	switch mt {
	case "*/*":
		return true, true
	case "application/json", "application/*":
		return true, false
	case "text/event-stream", "text/*":
		return false, true
	}
	return false, false
}

// quote is how an error text shows a value the peer sent: quoted, and
// clipped (see oplog.Clip).
func quote(s string) string { return strconv.Quote(oplog.Clip(s, oplog.MaxEcho)) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// revisionList names every revision the server speaks, for an error text.
func revisionList() string {
	var names []string
	for _, r := range mcp.Revisions() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

// statelessRevisions are the revisions a stateless request may name.
func statelessRevisions() []string {
	var names []string
	for _, r := range mcp.Revisions() {
		if r.Stateless() {
			names = append(names, string(r))
		}
	}
	return names
}
