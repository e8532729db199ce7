package client

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The result types hold what the client reads from the wire. Fields the
// client does not interpret stay as raw JSON so nothing a server sends is
// lost.

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

// Content is one block of a tool result or prompt message. Text is set for
// text blocks; Raw keeps the block as sent so image, audio and resource
// blocks survive intact.
type Content struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	MimeType string          `json:"mimeType,omitempty"`
	Data     string          `json:"data,omitempty"`
	Resource json.RawMessage `json:"resource,omitempty"`
}

// CallResult is a tools/call result. IsError marks a tool failure: the call
// reached the tool and the tool reports an error the model should see. It is
// not a protocol error, which comes back as a *jsonrpc.Error instead.
type CallResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
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

// Resource is one entry of resources/list.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// ResourceContents is one element of a resources/read result.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptMessage is one message of a prompts/get result.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// PromptResult is a prompts/get result.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}
