package mcp

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/protocol"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Revision is an MCP protocol revision, named by its date. Every rule that
// differs between revisions is a method here and nowhere else: the server
// asks the revision in force for a request, it never compares dates itself.
// The members and capabilities a revision defines are one table (Feature,
// Revision.Has).
//
// # The two eras
//
// The handshake era (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) opens a
// session with initialize and notifications/initialized; the revision is
// negotiated once and governs the session.
//
// The stateless era starts at 2026-07-28 (SEP-2575). There is no handshake:
// every request carries its revision and the client's capabilities in
// params._meta, and the server answers each request on its own. What this
// package implements of it, with the names as the 2026-07-28 schema and
// specification pages write them:
//
//   - _meta keys "io.modelcontextprotocol/protocolVersion" (string,
//     required), "io.modelcontextprotocol/clientCapabilities" (object,
//     required) and "io.modelcontextprotocol/clientInfo" (optional). A
//     request missing a required key, or with one of the wrong type, is
//     -32602 Invalid params.
//   - An unsupported revision is UnsupportedProtocolVersionError: code
//     -32022, message "Unsupported protocol version", data
//     {"supported": [...], "requested": "..."}.
//   - server/discover answers {supportedVersions, capabilities,
//     instructions?} as a cacheable result.
//   - Every result carries "resultType": "complete" and identifies the server
//     in "_meta": {"io.modelcontextprotocol/serverInfo": {name, version}}.
//   - tools/list, resources/list, resources/templates/list, prompts/list and
//     resources/read carry "ttlMs" and "cacheScope". Ours is "private": what
//     a caller sees depends on who it is.
//   - subscriptions/listen {notifications: {toolsListChanged, ...}} opens a
//     stream; the server first sends notifications/subscriptions/acknowledged
//     with the subset it honours, then tags every notification on the stream
//     with "_meta": {"io.modelcontextprotocol/subscriptionId": <listen id>}.
//     On stdio the client ends it with notifications/cancelled.
//   - initialize, ping, logging/setLevel, resources/subscribe and
//     resources/unsubscribe do not exist in it: -32601. A request chooses
//     the log messages it receives with _meta
//     "io.modelcontextprotocol/logLevel" (an unknown level is -32602).
//   - The server sends the client no requests. Call.Elicit, Call.ElicitURL,
//     Call.Sample and Call.Roots ask through the call's result instead: a
//     tools/call is answered {"resultType": "input_required",
//     "inputRequests": {name: {method, params}}, "requestState": sealed},
//     and the client's next call carries "inputResponses" {name: result}
//     and the same "requestState" as params members (SEP-2322). See
//     docs/concepts.md#asking-the-client.
//
// Decisions where the specification leaves room:
//
//   - A request is in the stateless era when its _meta carries
//     "io.modelcontextprotocol/protocolVersion" or
//     "io.modelcontextprotocol/clientCapabilities", or when its method is
//     server/discover or subscriptions/listen (methods of that era only).
//     Any other request belongs to the session's handshake.
//   - server/discover lists every revision the server speaks, newest first:
//     a dual-era client may still choose a handshake revision through
//     initialize. Served by a transport that serves the stateless era only
//     (Session.ServeStatelessOnly), it lists that era's revisions. The -32022 error lists only the revisions a request may
//     name in its _meta (the stateless ones), since those are the only ones
//     a retry of that request can use; it is a subset of discover's list.
//   - server/discover's result is "cacheScope": "public": it is the same
//     for every caller.
type Revision string

// The revisions this server speaks, oldest first.
const (
	Revision20241105 Revision = protocol.Revision20241105
	Revision20250326 Revision = protocol.Revision20250326
	Revision20250618 Revision = protocol.Revision20250618
	Revision20251125 Revision = protocol.Revision20251125
	Revision20260728 Revision = protocol.Revision20260728
)

var revisions = []Revision{Revision20241105, Revision20250326, Revision20250618, Revision20251125, Revision20260728}

// Revisions returns every revision this server speaks, oldest first.
func Revisions() []Revision { return slices.Clone(revisions) }

// LatestRevision is the newest revision this server speaks.
func LatestRevision() Revision { return revisions[len(revisions)-1] }

// LatestHandshakeRevision is the newest revision of the handshake era: what
// initialize offers a client that asked for a revision it does not know.
func LatestHandshakeRevision() Revision {
	for i := len(revisions) - 1; ; i-- {
		if !revisions[i].Stateless() {
			return revisions[i]
		}
	}
}

// ParseRevision reports whether s names a revision this server speaks.
func ParseRevision(s string) (Revision, bool) {
	r := Revision(s)
	return r, slices.Contains(revisions, r)
}

// Stateless reports whether r is of the stateless era: no handshake, the
// revision and client capabilities in every request's _meta,
// server/discover, results with resultType.
func (r Revision) Stateless() bool { return r >= Revision20260728 }

// SchemaViolationIsToolError reports whether a tools/call whose arguments
// fail the input schema is answered with an isError result (2025-11-25 on,
// SEP-1303, so the model sees the errors and can correct itself) rather than
// a -32602 protocol error (earlier revisions). Either way
// the handler is never reached and every error is listed, sorted.
func (r Revision) SchemaViolationIsToolError() bool { return r >= Revision20251125 }

// ResultType reports whether results carry "resultType".
func (r Revision) ResultType() bool { return r.Stateless() }

// CacheHints reports whether list results (and resources/read) carry
// "ttlMs" and "cacheScope".
func (r Revision) CacheHints() bool { return r.Stateless() }

// ServerInfoInResults reports whether every result names the server in
// _meta["io.modelcontextprotocol/serverInfo"] (there is no initialize
// result to carry it).
func (r Revision) ServerInfoInResults() bool { return r.Stateless() }

// Serves reports whether method exists in r. The handshake and ping exist
// only in the handshake era; discovery and subscriptions/listen only in
// the stateless one. Everything else is common to both.
func (r Revision) Serves(method string) bool {
	switch method {
	case methodInitialize, methodPing:
		return !r.Stateless()
	case methodDiscover, methodListen:
		return r.Stateless()
	case methodSetLevel, methodResourcesSubscribe, methodResourcesUnsubscribe:
		return !r.Stateless()
	case methodToolsList, methodToolsCall, methodResourcesList, methodResourcesRead,
		methodResourceTemplatesList, methodPromptsList, methodPromptsGet, methodComplete:
		return true
	}
	return false
}

// Batches reports whether a client may send a JSON-RPC batch (an array
// of messages) in r: 2025-03-26 requires a server to accept them, and
// 2025-06-18 removed them again. Every other revision's session refuses a
// batch with one -32600.
func (r Revision) Batches() bool { return r == Revision20250326 }

// ClientRequests reports whether the server may send requests to the client
// (sampling, elicitation, roots) while it serves a request. The handshake
// era has a session to carry them; the stateless era has none, and asks
// with a result instead (InputRequiredResults).
func (r Revision) ClientRequests() bool { return !r.Stateless() }

// InputRequiredResults reports whether the server asks the client for
// input by answering a call with resultType "input_required", its
// questions in inputRequests and a sealed requestState, which the client's
// next call echoes with its answers in inputResponses (multi round-trip
// requests, SEP-2322): the stateless era's way, since it has no requests
// from server to client.
func (r Revision) InputRequiredResults() bool { return r.Stateless() }

// Elicitation reports whether elicitation/create exists in r: it arrived
// in 2025-06-18.
func (r Revision) Elicitation() bool { return r >= Revision20250618 }

// ElicitationMode reports whether an elicitation/create request names its
// mode ("form"): 2025-11-25 added URL mode, and with it the member.
func (r Revision) ElicitationMode() bool { return r >= Revision20251125 }

// SessionLogLevel reports how the client chooses which log messages it
// receives. In the handshake era logging/setLevel sets a minimum level for
// the session, and until it does every message is sent (as the SDKs do).
// In the stateless era each request asks in its _meta
// ("io.modelcontextprotocol/logLevel"), and a request that does not ask
// receives none.
func (r Revision) SessionLogLevel() bool { return !r.Stateless() }

// StreamPolling reports whether an event stream of r's Streamable HTTP
// transport starts with a priming event (an id, no message) and may be
// closed by the server before it ends, the client reconnecting with
// Last-Event-ID to poll the rest (2025-11-25, SEP-1699). Earlier
// revisions' clients expect every event to carry a message and a stream
// to stay open until the answer; the stateless era has no resumable
// streams.
func (r Revision) StreamPolling() bool { return r >= Revision20251125 && !r.Stateless() }

// ResourceSubscriptions reports whether resources/subscribe exists in r,
// and so whether the server declares resources.subscribe.
func (r Revision) ResourceSubscriptions() bool { return !r.Stateless() }

// negotiate is initialize's choice: the requested revision when it is a
// handshake revision this server speaks, else the newest handshake one. It
// never fails: a version skew must degrade a connection, not break it.
func negotiate(requested string) Revision {
	if r, ok := ParseRevision(requested); ok && !r.Stateless() {
		return r
	}
	return LatestHandshakeRevision()
}

// supportedVersions lists, newest first, the revisions server/discover
// advertises (all of them) or, with statelessOnly, the ones a request may
// name in its _meta.
func supportedVersions(statelessOnly bool) []string {
	var out []string
	for i := len(revisions) - 1; i >= 0; i-- {
		if !statelessOnly || revisions[i].Stateless() {
			out = append(out, string(revisions[i]))
		}
	}
	return out
}

// The methods the server knows.
const (
	methodInitialize            = protocol.MethodInitialize
	methodPing                  = protocol.MethodPing
	methodDiscover              = protocol.MethodDiscover
	methodListen                = protocol.MethodListen
	methodToolsList             = protocol.MethodToolsList
	methodToolsCall             = protocol.MethodToolsCall
	methodResourcesList         = protocol.MethodResourcesList
	methodResourcesRead         = protocol.MethodResourcesRead
	methodResourceTemplatesList = protocol.MethodResourceTemplatesList
	methodPromptsList           = protocol.MethodPromptsList
	methodPromptsGet            = protocol.MethodPromptsGet
	methodSetLevel              = protocol.MethodSetLevel
	methodResourcesSubscribe    = protocol.MethodResourcesSubscribe
	methodResourcesUnsubscribe  = protocol.MethodResourcesUnsubscribe
	methodComplete              = protocol.MethodComplete

	notificationInitialized      = protocol.NotificationInitialized
	notificationCancelled        = protocol.NotificationCancelled
	notificationToolsChanged     = protocol.NotificationToolsChanged
	notificationResourcesChanged = protocol.NotificationResourcesChanged
	notificationPromptsChanged   = protocol.NotificationPromptsChanged
	notificationSubscriptionAck  = protocol.NotificationSubscriptionAck
	notificationProgress         = protocol.NotificationProgress
	notificationMessage          = protocol.NotificationMessage
	notificationResourceUpdated  = protocol.NotificationResourceUpdated

	// The requests the server sends to the client.
	methodCreateMessage = protocol.MethodCreateMessage
	methodElicit        = protocol.MethodElicit
	methodListRoots     = protocol.MethodListRoots

	notificationElicitationComplete = protocol.NotificationElicitationComplete
)

func init() {
	// What every message names: the methods and notifications the server
	// knows, the params members it reads, and the revisions a request's
	// _meta names (see jsonrpc.Intern).
	names := []string{
		methodInitialize, methodPing, methodDiscover, methodListen, methodToolsList, methodToolsCall,
		methodResourcesList, methodResourcesRead, methodResourceTemplatesList, methodPromptsList,
		methodPromptsGet, methodSetLevel, methodResourcesSubscribe, methodResourcesUnsubscribe, methodComplete,
		notificationInitialized, notificationCancelled,
		"_meta", "name", "arguments", "uri", "cursor", "level", "requestId", "notifications",
		"protocolVersion", "capabilities", "clientInfo", "ref", "argument", "context", "toolsListChanged",
		"inputResponses", "requestState",
		"resourcesListChanged", "promptsListChanged",
	}
	for _, r := range revisions {
		names = append(names, string(r))
	}
	jsonrpc.RegisterNames(names...)
}

// The _meta keys of the stateless era (reserved by MCP).
const (
	MetaProtocolVersion    = protocol.MetaProtocolVersion
	MetaClientCapabilities = protocol.MetaClientCapabilities
	MetaClientInfo         = protocol.MetaClientInfo
	MetaServerInfo         = protocol.MetaServerInfo
	MetaSubscriptionID     = protocol.MetaSubscriptionID
	MetaLogLevel           = protocol.MetaLogLevel
)

// The estate's _meta keys: on a tools/list entry (version, sideEffect,
// schemaHash, and supersededBy when the version names its successor), on a
// tools/call request (version: a constraint pinning the version the call
// reaches; schemaHash: the input schema hash the caller planned against),
// and on the result of a call that reached a deprecated version or one
// that names its successor (lifecycle: "deprecated"; supersededBy:
// "name@X.Y.Z", the version to move the pin to). Deprecated versions are
// never listed, so a pinned call's result is where a client meets them.
const (
	MetaVersion      = protocol.MetaVersion
	MetaSideEffect   = protocol.MetaSideEffect
	MetaSchemaHash   = protocol.MetaSchemaHash
	MetaLifecycle    = protocol.MetaLifecycle
	MetaSupersededBy = protocol.MetaSupersededBy
)
