// Package protocol is the vocabulary of the Model Context Protocol that the
// server (runtime/mcp), the client (runtime/client) and the generator share:
// the revisions, the method and notification names, the _meta keys, and
// the wire types of content blocks, resources and prompts with their JSON
// form. It imports only the standard library and the runtime's JSON
// string writer, so that a package needing a name or a content block does
// not link the server.
//
// The MCP specification (modelcontextprotocol.io/specification, one page
// per revision) defines every name here except the estate's _meta keys,
// which docs/concepts.md describes.
package protocol

// The revisions, oldest first. The handshake era ends with 2025-11-25;
// 2026-07-28 opens the stateless era (docs/concepts.md#the-eras).
const (
	Revision20241105 = "2024-11-05"
	Revision20250326 = "2025-03-26"
	Revision20250618 = "2025-06-18"
	Revision20251125 = "2025-11-25"
	Revision20260728 = "2026-07-28"
)

// The requests a client sends.
const (
	MethodInitialize            = "initialize"
	MethodPing                  = "ping"
	MethodDiscover              = "server/discover"
	MethodListen                = "subscriptions/listen"
	MethodToolsList             = "tools/list"
	MethodToolsCall             = "tools/call"
	MethodResourcesList         = "resources/list"
	MethodResourcesRead         = "resources/read"
	MethodResourceTemplatesList = "resources/templates/list"
	MethodPromptsList           = "prompts/list"
	MethodPromptsGet            = "prompts/get"
	MethodSetLevel              = "logging/setLevel"
	MethodResourcesSubscribe    = "resources/subscribe"
	MethodResourcesUnsubscribe  = "resources/unsubscribe"
	MethodComplete              = "completion/complete"
)

// The requests a server sends.
const (
	MethodCreateMessage = "sampling/createMessage"
	MethodElicit        = "elicitation/create"
	MethodListRoots     = "roots/list"
)

// The notifications.
const (
	NotificationInitialized      = "notifications/initialized"
	NotificationCancelled        = "notifications/cancelled"
	NotificationToolsChanged     = "notifications/tools/list_changed"
	NotificationResourcesChanged = "notifications/resources/list_changed"
	NotificationPromptsChanged   = "notifications/prompts/list_changed"
	NotificationSubscriptionAck  = "notifications/subscriptions/acknowledged"
	NotificationProgress         = "notifications/progress"
	NotificationMessage          = "notifications/message"
	NotificationResourceUpdated  = "notifications/resources/updated"
	// NotificationElicitationComplete tells the client that the
	// out-of-band interaction of a URL-mode elicitation has ended
	// (2025-11-25).
	NotificationElicitationComplete = "notifications/elicitation/complete"
)

// The _meta keys of the stateless era (reserved by MCP).
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
)

// The estate's _meta keys (docs/concepts.md#the-hash-and-drift): on a
// tools/list entry (version, sideEffect, schemaHash, and supersededBy when
// the version names its successor), on a tools/call request (version: a
// constraint pinning the version the call reaches; schemaHash: the input
// schema hash the caller planned against), and on the result of a call
// that reached a deprecated or preview version, or one that names its
// successor (lifecycle: "deprecated" or "preview"; supersededBy:
// "name@X.Y.Z", the version to move the pin to). Neither is listed, so a
// pinned call's result is where a client meets them.
const (
	MetaVersion      = "version"
	MetaSideEffect   = "sideEffect"
	MetaSchemaHash   = "schemaHash"
	MetaLifecycle    = "lifecycle"
	MetaSupersededBy = "supersededBy"
)

// The content block types.
const (
	ContentText     = "text"
	ContentImage    = "image"
	ContentAudio    = "audio"
	ContentResource = "resource"
)
