package client

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The result types hold what the client reads from the wire. Fields the
// client does not interpret stay as raw JSON so nothing a server sends is
// lost. Content blocks, resources and prompts are package protocol's
// types, the ones the server writes.

// Implementation names a client or a server (clientInfo, serverInfo).
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Title   string `json:"title,omitempty"`
}

// ServerInfo is what the client learned about the server when it
// connected: from initialize in the handshake era, from server/discover in
// the stateless one.
type ServerInfo struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	ServerInfo      Implementation             `json:"serverInfo"`
	Instructions    string                     `json:"instructions,omitempty"`
	// SupportedVersions is server/discover's list (stateless era only).
	SupportedVersions []string `json:"supportedVersions,omitempty"`
	// Meta is the result's _meta: in the stateless era it names the server.
	Meta struct {
		ServerInfo Implementation `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// Tool is one entry of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Meta         ToolMeta        `json:"_meta"`
}

// ToolMeta is the estate metadata a tools/list entry carries in _meta.
type ToolMeta struct {
	Version    string `json:"version,omitempty"`
	SideEffect string `json:"sideEffect,omitempty"`
	SchemaHash string `json:"schemaHash,omitempty"`
	// SupersededBy is the successor ("name@X.Y.Z") a listed version
	// already names, so a caller can move its pin before the deprecation.
	SupersededBy string `json:"supersededBy,omitempty"`
}

// CallResult is a tools/call result. IsError marks a tool failure: the call
// reached the tool and the tool reports an error the model should see. It is
// not a protocol error, which comes back as a *jsonrpc.Error instead.
type CallResult struct {
	Content           []protocol.Content `json:"content"`
	StructuredContent json.RawMessage    `json:"structuredContent,omitempty"`
	IsError           bool               `json:"isError"`
	// Meta is the result's _meta: what the estate says of the version the
	// call reached.
	Meta CallMeta `json:"_meta"`
}

// CallMeta is the estate metadata of a tools/call result. A pinned call
// is where a client meets a version that is not listed, so its result
// says so: a deprecated version, with its successor, or a preview.
type CallMeta struct {
	// Lifecycle is "deprecated" or "preview" for a call that reached such a
	// version, "" for an active one.
	Lifecycle string `json:"lifecycle,omitempty"`
	// SupersededBy is the successor ("name@X.Y.Z") to move the pin to.
	SupersededBy string `json:"supersededBy,omitempty"`
}

// Text joins the text blocks of the result.
func (r *CallResult) Text() string {
	var s string
	for _, c := range r.Content {
		if c.Type == protocol.ContentText {
			s += c.Text
		}
	}
	return s
}

// PromptResult is a prompts/get result.
type PromptResult struct {
	Description string                   `json:"description,omitempty"`
	Messages    []protocol.PromptMessage `json:"messages"`
}
