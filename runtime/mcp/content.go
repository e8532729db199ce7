package mcp

import (
	"encoding/base64"
	"slices"

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

// Content, ResourceContents and the prompt shapes are the protocol's wire
// types, shared with the client; the server's API names them here too.
type (
	Content          = protocol.Content
	ResourceContents = protocol.ResourceContents
	PromptMessage    = protocol.PromptMessage
	PromptArgument   = protocol.PromptArgument
)

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

// appendMember appends `,"name":"value"`; name needs no escaping.
func appendMember(b []byte, name, value string) []byte { return textdec.AppendMember(b, name, value) }

// TextContents returns text contents of the resource at uri.
func TextContents(uri, mimeType, text string) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Text: text}
}

// BlobContents returns binary contents of the resource at uri.
func BlobContents(uri, mimeType string, data []byte) ResourceContents {
	return ResourceContents{URI: uri, MIMEType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}
}

// isBase64 reports whether s is standard, padded base64, as MCP's data and
// blob members are.
func isBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// withoutAudio returns content for a revision without audio blocks
// (FeatureAudioContent): each audio block becomes a text block saying what
// was left out, so that the model knows a block was there, and the
// answer holds only blocks the revision defines. content is not modified.
func withoutAudio(content []Content) []Content {
	if !slices.ContainsFunc(content, isAudio) {
		return content
	}
	out := slices.Clone(content)
	for i, c := range out {
		if isAudio(c) {
			out[i] = TextContent("[audio content (" + c.MIMEType + ") left out: this protocol revision has no audio blocks]")
		}
	}
	return out
}

func isAudio(c Content) bool { return c.Type == ContentAudio }
