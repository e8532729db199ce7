package protocol

import (
	"encoding/json"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// The wire shapes of what tools, resources and prompts return, which the
// server writes and the client reads. Both sides use these types, so a
// block the server writes is the block the client decodes, member for
// member.

// Content is one block of a tool result, a prompt message, or a sampling
// message: text, base64 data (an image or audio) with its MIME type, or an
// embedded resource.
type Content struct {
	// Type is ContentText (the default when empty), ContentImage,
	// ContentAudio or ContentResource.
	Type string
	Text string
	// Data is the base64 encoding of an image or audio block's bytes.
	Data     string
	MIMEType string
	// Resource is an embedded resource block's contents.
	Resource *ResourceContents
}

// wireContent is a block as MCP writes it, for reading one a client sent.
type wireContent struct {
	Type     string            `json:"type"`
	Text     *string           `json:"text,omitempty"`
	Data     *string           `json:"data,omitempty"`
	MIMEType *string           `json:"mimeType,omitempty"`
	Resource *ResourceContents `json:"resource,omitempty"`
}

// MarshalJSON writes the members the block's type requires (a text block
// always has "text", even when empty; an image always has "data" and
// "mimeType").
func (c Content) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// AppendJSON appends the block's encoding (see MarshalJSON) to b.
func (c Content) AppendJSON(b []byte) ([]byte, error) {
	typ := c.Type
	if typ == "" {
		typ = ContentText
	}
	b = append(b, `{"type":`...)
	b = textdec.AppendQuote(b, typ)
	switch typ {
	case ContentText:
		b = textdec.AppendMember(b, "text", c.Text)
	case ContentImage, ContentAudio:
		b = textdec.AppendMember(b, "data", c.Data)
		b = textdec.AppendMember(b, "mimeType", c.MIMEType)
	case ContentResource:
		if c.Resource == nil {
			return nil, errors.New("protocol: a resource content block has no resource")
		}
		b = append(b, `,"resource":`...)
		b = c.Resource.appendJSON(b)
	default:
		// A type this package does not know: the members that are set.
		if c.Text != "" {
			b = textdec.AppendMember(b, "text", c.Text)
		}
		if c.Data != "" {
			b = textdec.AppendMember(b, "data", c.Data)
		}
		if c.MIMEType != "" {
			b = textdec.AppendMember(b, "mimeType", c.MIMEType)
		}
		if c.Resource != nil {
			b = append(b, `,"resource":`...)
			b = c.Resource.appendJSON(b)
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads a block a client sent (a sampling result's content).
// A block of a type this package does not know keeps its type and the
// members it shares with the known ones.
func (c *Content) UnmarshalJSON(b []byte) error {
	var w wireContent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Type == "" {
		return errors.New("protocol: a content block has no type")
	}
	*c = Content{Type: w.Type, Resource: w.Resource}
	if w.Text != nil {
		c.Text = *w.Text
	}
	if w.Data != nil {
		c.Data = *w.Data
	}
	if w.MIMEType != nil {
		c.MIMEType = *w.MIMEType
	}
	return nil
}

// ResourceContents is what a resource holds: text, or a binary blob. It is
// an element of a resources/read result and the body of an embedded
// resource block.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	// Blob is the base64 encoding of binary contents; when it is set the
	// contents are binary and Text is not sent.
	Blob string
}

type wireResourceContents struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

// MarshalJSON writes exactly one of "text" and "blob", as MCP requires.
func (r ResourceContents) MarshalJSON() ([]byte, error) { return r.appendJSON(nil), nil }

func (r ResourceContents) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = textdec.AppendQuote(b, r.URI)
	if r.MIMEType != "" {
		b = textdec.AppendMember(b, "mimeType", r.MIMEType)
	}
	if r.Blob != "" {
		b = textdec.AppendMember(b, "blob", r.Blob)
	} else {
		b = textdec.AppendMember(b, "text", r.Text)
	}
	return append(b, '}')
}

// UnmarshalJSON reads contents a client sent.
func (r *ResourceContents) UnmarshalJSON(b []byte) error {
	var w wireResourceContents
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = ResourceContents{URI: w.URI, MIMEType: w.MIMEType}
	if w.Text != nil {
		r.Text = *w.Text
	}
	if w.Blob != nil {
		r.Blob = *w.Blob
	}
	return nil
}

// Resource is one entry of resources/list: what a client learns of a
// resource before it reads it.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// Prompt is one entry of prompts/list. A server always writes Arguments,
// as an empty list when the prompt takes none.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument declares one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// PromptMessage is one message of a prompts/get result.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}
