package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/png"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// The fixtures server.yaml cannot state: a binary resource, a resource
// template, and prompts whose messages carry an image or an embedded
// resource. The suite's argument completions are attached here too.
func addFixtures(opts *mcp.Options) {
	opts.Resources = append(opts.Resources, mcp.Resource{
		URI: "test://static-binary", Name: "Static Binary Resource", Description: "A static binary resource (image) for testing",
		MIMEType: "image/png", Blob: base64.StdEncoding.EncodeToString(redPixelPNG),
	})
	opts.ResourceTemplates = append(opts.ResourceTemplates, mcp.ResourceTemplate{
		URITemplate: "test://template/{id}/data", Name: "Resource Template",
		Description: "A resource template with parameter substitution", MIMEType: "application/json",
		Read:     readTemplate,
		Complete: mcp.CompleteFrom("1", "2", "3", "123"),
	})
	opts.Prompts = append(opts.Prompts,
		mcp.Prompt{
			Name: "test_prompt_with_embedded_resource", Description: "A prompt that includes an embedded resource",
			Arguments: []mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
			Get: func(_ context.Context, g *mcp.PromptGet) ([]mcp.PromptMessage, error) {
				return []mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.ResourceContent(mcp.TextContents(g.Arguments["resourceUri"], "text/plain", "Embedded resource content for testing."))},
					{Role: mcp.RoleUser, Content: mcp.TextContent("Please process the embedded resource above.")},
				}, nil
			},
		},
		mcp.Prompt{
			Name: "test_prompt_with_image", Description: "A prompt that includes image content",
			Get: func(context.Context, *mcp.PromptGet) ([]mcp.PromptMessage, error) {
				return []mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.ImageContent("image/png", redPixelPNG)},
					{Role: mcp.RoleUser, Content: mcp.TextContent("Please analyze the image above.")},
				}, nil
			},
		},
	)
	for i := range opts.Prompts {
		if opts.Prompts[i].Name == "test_prompt_with_arguments" {
			opts.Prompts[i].Complete = mcp.CompleteFrom("paris", "park", "party")
		}
	}
}

// readTemplate serves test://template/{id}/data: the id in a JSON document.
func readTemplate(_ context.Context, r *mcp.ResourceRead) ([]mcp.ResourceContents, error) {
	id := r.Vars["id"]
	doc, err := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextContents(r.URI, "application/json", string(doc))}, nil
}

// redPixelPNG is a 1x1 red PNG, the suite's test image.
var redPixelPNG = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// silentWAV is a WAV file of one silent 16-bit mono sample at 8 kHz, the
// suite's minimal audio.
var silentWAV = func() []byte {
	const rate, channels, bits = 8000, 1, 16
	sample := []byte{0, 0}
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + len(sample)))
	b.WriteString("WAVEfmt ")
	le(uint32(16)) // the fmt chunk's size
	le(uint16(1))  // PCM
	le(uint16(channels))
	le(uint32(rate))
	le(uint32(rate * channels * bits / 8)) // bytes per second
	le(uint16(channels * bits / 8))        // bytes per frame
	le(uint16(bits))
	b.WriteString("data")
	le(uint32(len(sample)))
	b.Write(sample)
	return b.Bytes()
}()
