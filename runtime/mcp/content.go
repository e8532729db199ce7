package mcp

import (
	"encoding/base64"
	"encoding/json"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The content block types MCP defines and this package writes and reads.
const (
	ContentText     = protocol.ContentText
	ContentImage    = protocol.ContentImage
	ContentAudio    = protocol.ContentAudio
	ContentResource = protocol.ContentResource
)

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

// TextContent returns a text block.
func TextContent(text string) Content { return Content{Type: ContentText, Text: text} }

// ImageContent returns an image block holding data, e.g. a PNG with
// mimeType "image/png".
func ImageContent(mimeType string, data []byte) Content {
	return Content{Type: ContentImage, MIMEType: mimeType, Data: base64.StdEncoding.EncodeToString(data)}
}

// AudioContent returns an audio block holding data, e.g. a WAV file with
// mimeType "audio/wav".
func AudioContent(mimeType string, data []byte) Content {
	return Content{Type: ContentAudio, MIMEType: mimeType, Data: base64.StdEncoding.EncodeToString(data)}
}

// ResourceContent returns a block embedding a resource's contents, so the
// model reads them without a resources/read round trip.
func ResourceContent(r ResourceContents) Content {
	return Content{Type: ContentResource, Resource: &r}
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
	b = appendString(b, typ)
	switch typ {
	case ContentText:
		b = appendMember(b, "text", c.Text)
	case ContentImage, ContentAudio:
		b = appendMember(b, "data", c.Data)
		b = appendMember(b, "mimeType", c.MIMEType)
	case ContentResource:
		if c.Resource == nil {
			return nil, errors.New("mcp: a resource content block has no resource")
		}
		b = append(b, `,"resource":`...)
		b = c.Resource.appendJSON(b)
	default:
		// A type this package does not know: the members that are set.
		if c.Text != "" {
			b = appendMember(b, "text", c.Text)
		}
		if c.Data != "" {
			b = appendMember(b, "data", c.Data)
		}
		if c.MIMEType != "" {
			b = appendMember(b, "mimeType", c.MIMEType)
		}
		if c.Resource != nil {
			b = append(b, `,"resource":`...)
			b = c.Resource.appendJSON(b)
		}
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string. Invalid UTF-8 is written as
// U+FFFD, as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	b = textdec.AppendQuote(b, s)
	return b
}

// appendMember appends `,"name":"value"`; name needs no escaping.
func appendMember(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, value)
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
		return errors.New("mcp: a content block has no type")
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

// TextContents returns text contents of the resource at uri.
func TextContents(uri, mimeType, text string) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Text: text}
}

// BlobContents returns binary contents of the resource at uri.
func BlobContents(uri, mimeType string, data []byte) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}
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
	b = appendString(b, r.URI)
	if r.MIMEType != "" {
		b = appendMember(b, "mimeType", r.MIMEType)
	}
	if r.Blob != "" {
		b = appendMember(b, "blob", r.Blob)
	} else {
		b = appendMember(b, "text", r.Text)
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

// isBase64 reports whether s is standard, padded base64, as MCP's data and
// blob members are.
func isBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}
