package protocol

import (
	"bytes"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestContentAppendsWhatItsWireFormEncodes holds Content.AppendJSON to the
// wire form the reflective encoder writes (jsonrpc.Marshal: encoding/json
// without HTML escaping), block type by block type.
func TestContentAppendsWhatItsWireFormEncodes(t *testing.T) {
	text, data, mime := "a \"quoted\" <b> & é\n", "aGVsbG8=", "image/png"
	res := &ResourceContents{URI: "file:///a", MIMEType: "text/plain", Text: "x"}
	blob := &ResourceContents{URI: "file:///b", Blob: "AA=="}
	empty := ""
	cases := []struct {
		c    Content
		wire wireContent
	}{
		{Content{Type: ContentText, Text: text}, wireContent{Type: ContentText, Text: &text}},
		{Content{Text: text}, wireContent{Type: ContentText, Text: &text}},
		{Content{Type: ContentText}, wireContent{Type: ContentText, Text: &empty}},
		{Content{Type: ContentImage, Data: data, MIMEType: mime}, wireContent{Type: ContentImage, Data: &data, MIMEType: &mime}},
		{Content{Type: ContentAudio}, wireContent{Type: ContentAudio, Data: &empty, MIMEType: &empty}},
		{Content{Type: ContentResource, Resource: res}, wireContent{Type: ContentResource, Resource: res}},
		{Content{Type: ContentResource, Resource: blob}, wireContent{Type: ContentResource, Resource: blob}},
		{Content{Type: "x-custom", Text: text, MIMEType: mime}, wireContent{Type: "x-custom", Text: &text, MIMEType: &mime}},
	}
	for _, c := range cases {
		got, err := c.c.AppendJSON([]byte("prefix:"))
		if err != nil {
			t.Fatal(err)
		}
		ref, err := jsonrpc.Marshal(wireResourceForm(c.wire))
		if err != nil {
			t.Fatal(err)
		}
		want := append([]byte("prefix:"), ref...)
		if !bytes.Equal(got, want) {
			t.Errorf("%+v:\n got %s\nwant %s", c.c, got, want)
		}
	}
	if _, err := (Content{Type: ContentResource}).AppendJSON(nil); err == nil {
		t.Error("a resource block without a resource encoded")
	}
}

// wireResourceForm replaces a wire block's resource by its wire form, so
// that the reference encoding does not go through the appender under test.
func wireResourceForm(w wireContent) any {
	type wire struct {
		Type     string                `json:"type"`
		Text     *string               `json:"text,omitempty"`
		Data     *string               `json:"data,omitempty"`
		MIMEType *string               `json:"mimeType,omitempty"`
		Resource *wireResourceContents `json:"resource,omitempty"`
	}
	out := wire{Type: w.Type, Text: w.Text, Data: w.Data, MIMEType: w.MIMEType}
	if r := w.Resource; r != nil {
		out.Resource = &wireResourceContents{URI: r.URI, MIMEType: r.MIMEType}
		if r.Blob != "" {
			out.Resource.Blob = &r.Blob
		} else {
			out.Resource.Text = &r.Text
		}
	}
	return out
}
