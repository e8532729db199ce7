package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/examples/conformance-server/conformance"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// handlers implements conformance.Handler: each tool answers what the
// conformance suite's scenario checks, talking to the client through the
// typed *mcp.Call (log messages, progress, sampling, elicitation).
type handlers struct{}

var _ conformance.Handler = handlers{}

// step is the pause between the messages of the logging and progress
// fixtures: the suite checks that a client receives notifications sent
// while a call runs, not in one burst with its answer.
const step = 50 * time.Millisecond

// pause waits d, or less when the call is cancelled.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestSimpleTextV1 returns one text block.
func (handlers) TestSimpleTextV1(context.Context, *mcp.Call, conformance.TestSimpleTextV1Args) (*mcp.Result, error) {
	return mcp.TextResult("This is a simple text response for testing."), nil
}

// TestImageContentV1 returns one image block.
func (handlers) TestImageContentV1(context.Context, *mcp.Call, conformance.TestImageContentV1Args) (*mcp.Result, error) {
	return &mcp.Result{Content: []mcp.Content{mcp.ImageContent("image/png", redPixelPNG)}}, nil
}

// TestAudioContentV1 returns one audio block.
func (handlers) TestAudioContentV1(context.Context, *mcp.Call, conformance.TestAudioContentV1Args) (*mcp.Result, error) {
	return &mcp.Result{Content: []mcp.Content{mcp.AudioContent("audio/wav", silentWAV)}}, nil
}

// TestEmbeddedResourceV1 returns one embedded resource block.
func (handlers) TestEmbeddedResourceV1(context.Context, *mcp.Call, conformance.TestEmbeddedResourceV1Args) (*mcp.Result, error) {
	return &mcp.Result{Content: []mcp.Content{
		mcp.ResourceContent(mcp.TextContents("test://embedded-resource", "text/plain", "This is an embedded resource content.")),
	}}, nil
}

// TestMultipleContentTypesV1 returns text, an image and a resource.
func (handlers) TestMultipleContentTypesV1(context.Context, *mcp.Call, conformance.TestMultipleContentTypesV1Args) (*mcp.Result, error) {
	return &mcp.Result{Content: []mcp.Content{
		mcp.TextContent("Multiple content types test:"),
		mcp.ImageContent("image/png", redPixelPNG),
		mcp.ResourceContent(mcp.TextContents("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`)),
	}}, nil
}

// TestToolWithLoggingV1 sends three log messages while it runs.
func (handlers) TestToolWithLoggingV1(ctx context.Context, call *mcp.Call, _ conformance.TestToolWithLoggingV1Args) (*mcp.Result, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := pause(ctx, step); err != nil {
				return nil, err
			}
		}
		if err := call.Log(ctx, mcp.LogInfo, msg); err != nil {
			return nil, err
		}
	}
	return mcp.TextResult("Tool with logging executed successfully"), nil
}

// TestToolWithProgressV1 reports progress 0, 50 and 100 of 100 (sent
// only when the caller asked, with a progress token).
func (handlers) TestToolWithProgressV1(ctx context.Context, call *mcp.Call, _ conformance.TestToolWithProgressV1Args) (*mcp.Result, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, step); err != nil {
				return nil, err
			}
		}
		if err := call.Progress(ctx, p, 100, fmt.Sprintf("Completed step %v of 100", p)); err != nil {
			return nil, err
		}
	}
	return mcp.TextResult("Tool with progress executed successfully"), nil
}

// TestErrorHandlingV1 always fails: a tool error, not a protocol error.
func (handlers) TestErrorHandlingV1(context.Context, *mcp.Call, conformance.TestErrorHandlingV1Args) (*mcp.Result, error) {
	return nil, errors.New("This tool intentionally returns an error for testing")
}

// TestReconnectionV1 answers after a pause: long enough for a transport
// that polls (-poll-after) to close the call's stream before the answer,
// which the client then gets by resuming the stream.
func (handlers) TestReconnectionV1(ctx context.Context, _ *mcp.Call, _ conformance.TestReconnectionV1Args) (*mcp.Result, error) {
	if err := pause(ctx, 2*step); err != nil {
		return nil, err
	}
	return mcp.TextResult("Reconnection test completed successfully."), nil
}

// TestSamplingV1 asks the client's model. A client that did not
// declare sampling gets a tool error saying so.
func (handlers) TestSamplingV1(ctx context.Context, call *mcp.Call, args conformance.TestSamplingV1Args) (*mcp.Result, error) {
	res, err := call.Sample(ctx, mcp.SamplingRequest{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent(args.Prompt)}},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, fmt.Errorf("sampling failed: %w", err)
	}
	return mcp.TextResult("LLM response: " + res.Content.Text), nil
}

// elicited reports the user's answer as the suite's fixtures do.
func elicited(prefix string, res *mcp.ElicitResult) (*mcp.Result, error) {
	content, err := json.Marshal(res.Content)
	if err != nil {
		return nil, err
	}
	if res.Content == nil {
		content = []byte("{}")
	}
	return mcp.TextResult(fmt.Sprintf("%s: action=%s, content=%s", prefix, res.Action, content)), nil
}

// TestElicitationV1 asks the user for a username and an email.
func (handlers) TestElicitationV1(ctx context.Context, call *mcp.Call, args conformance.TestElicitationV1Args) (*mcp.Result, error) {
	res, err := call.Elicit(ctx, mcp.ElicitRequest{
		Message: args.Message,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"username": map[string]any{"type": "string", "description": "User's response"},
				"email":    map[string]any{"type": "string", "description": "User's email address"},
			},
			"required": []string{"username", "email"},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("elicitation failed: %w", err)
	}
	return elicited("User response", res)
}

// TestElicitationSep1034DefaultsV1 asks for a form whose fields all
// have defaults.
func (handlers) TestElicitationSep1034DefaultsV1(ctx context.Context, call *mcp.Call, _ conformance.TestElicitationSep1034DefaultsV1Args) (*mcp.Result, error) {
	res, err := call.Elicit(ctx, mcp.ElicitRequest{
		Message: "Please review and update the form fields with defaults",
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
				"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
				"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
				"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
				"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
			},
			"required": []string{},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("elicitation failed: %w", err)
	}
	return elicited("Elicitation completed", res)
}

// titled is a list of {const, title} choices.
func titled(pairs ...string) []map[string]string {
	var out []map[string]string
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]string{"const": pairs[i], "title": pairs[i+1]})
	}
	return out
}

// TestElicitationSep1330EnumsV1 asks for a choice from each of the
// five kinds of enum field.
func (handlers) TestElicitationSep1330EnumsV1(ctx context.Context, call *mcp.Call, _ conformance.TestElicitationSep1330EnumsV1Args) (*mcp.Result, error) {
	options := []string{"option1", "option2", "option3"}
	res, err := call.Elicit(ctx, mcp.ElicitRequest{
		Message: "Please select options from the enum fields",
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"untitledSingle": map[string]any{"type": "string", "description": "Select one option", "enum": options},
				"titledSingle": map[string]any{"type": "string", "description": "Select one option with titles",
					"oneOf": titled("value1", "First Option", "value2", "Second Option", "value3", "Third Option")},
				"legacyEnum": map[string]any{"type": "string", "description": "Select one option (legacy)",
					"enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
				"untitledMulti": map[string]any{"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
					"items": map[string]any{"type": "string", "enum": options}},
				"titledMulti": map[string]any{"type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3,
					"items": map[string]any{"anyOf": titled("value1", "First Choice", "value2", "Second Choice", "value3", "Third Choice")}},
			},
			"required": []string{},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("elicitation failed: %w", err)
	}
	return elicited("Elicitation completed", res)
}

// JSONSchema202012ToolV1 reports the arguments it received, at 1.0.0 and
// at 1.0.1 (the same tool, with the address as the suite declares it: a
// $defs entry).
func (handlers) JSONSchema202012ToolV1(_ context.Context, call *mcp.Call, _ conformance.JSONSchema202012ToolV1Args) (*mcp.Result, error) {
	return mcp.TextResult("JSON Schema 2020-12 tool called with: " + string(call.Raw)), nil
}
