// Command sdkserver serves typed tools over stdio with the official Go SDK,
// whose input and output schemas the SDK infers from the Go types below:
// the import round-trip test brings them over with mcpgen import and
// checks that the generated server validates calls as this one does.
// Each tool's arguments are a different shape of Go type (integers,
// numbers, optional pointers, slices, nested structs, slices of structs,
// maps, no fields at all), so the test covers what the inference writes
// for each.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type AddIn struct {
	A int `json:"a" jsonschema:"the first addend"`
	B int `json:"b" jsonschema:"the second addend"`
}

type AddOut struct {
	Sum int `json:"sum"`
}

type ShoutIn struct {
	Text  string `json:"text"`
	Times *int   `json:"times,omitempty"`
}

type ConvertIn struct {
	Amount float64  `json:"amount"`
	To     string   `json:"to"`
	Tags   []string `json:"tags,omitempty"`
}

type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	Zip    string `json:"zip,omitempty"`
}

type Line struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type OrderIn struct {
	Customer string            `json:"customer"`
	ShipTo   Address           `json:"shipTo"`
	Lines    []Line            `json:"lines"`
	Labels   map[string]string `json:"labels,omitempty"`
	Express  bool              `json:"express,omitempty"`
}

type OrderOut struct {
	Accepted bool `json:"accepted"`
	Lines    int  `json:"lines"`
}

type NothingIn struct{}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-tools", Version: "0.3.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two integers.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in AddIn) (*mcp.CallToolResult, AddOut, error) {
			return nil, AddOut{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "shout", Description: "Upper-case a text.", Annotations: &mcp.ToolAnnotations{IdempotentHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in ShoutIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(in.Text)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "convert", Description: "Convert an amount."},
		func(ctx context.Context, req *mcp.CallToolRequest, in ConvertIn) (*mcp.CallToolResult, any, error) {
			// A handler that fails for a reason of its own, after the SDK
			// took the arguments: the test tells this from a refusal.
			if in.To != "EUR" {
				return nil, nil, fmt.Errorf("no rate to %q", in.To)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.To}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "place_order", Description: "Place an order.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false}},
		func(ctx context.Context, req *mcp.CallToolRequest, in OrderIn) (*mcp.CallToolResult, OrderOut, error) {
			if len(in.Lines) == 0 {
				return nil, OrderOut{}, errors.New("an order needs a line")
			}
			return nil, OrderOut{Accepted: true, Lines: len(in.Lines)}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ping", Description: "Answer pong.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in NothingIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
