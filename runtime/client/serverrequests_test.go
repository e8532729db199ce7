package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// askServer has one tool, "ask", that samples the client's model and
// reports progress before and after.
func askServer(t *testing.T, ended chan<- error) *mcp.Server {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	spec := sampleSpec("ask", "1.0.0", "Ask", "Ask the model.", `{"type":"object"}`, estate.Read, nil, estate.Public, "platform", nil)
	err = srv.Bind(spec, mcp.Tool{Handler: func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		c.Progress(ctx, 1, 2, "asking")
		res, err := c.Sample(ctx, mcp.SamplingRequest{
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent("2+2?")}}, MaxTokens: 10,
		})
		if ended != nil {
			ended <- err
		}
		if err != nil {
			return nil, err
		}
		c.Progress(ctx, 2, 2, "answered")
		return mcp.TextResult(res.Content.Text), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestOnRequestAnswersTheServer(t *testing.T) {
	progress := make(chan string, 4)
	c := pipe(askServer(t, nil), investigator, client.Options{
		Capabilities: map[string]any{"sampling": map[string]any{}},
		OnRequest: func(_ context.Context, method string, params json.RawMessage) (any, error) {
			var p struct {
				Messages []struct {
					Content struct{ Text string } `json:"content"`
				} `json:"messages"`
			}
			if method != "sampling/createMessage" || json.Unmarshal(params, &p) != nil || len(p.Messages) != 1 {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "unexpected "+method)
			}
			return map[string]any{"role": "assistant", "model": "m", "content": map[string]any{"type": "text", "text": "4, to " + p.Messages[0].Content.Text}}, nil
		},
		OnNotification: func(method string, params json.RawMessage) {
			if method == "notifications/progress" {
				progress <- string(params)
			}
		},
	})
	defer c.Close()
	ctx := ctxT(t)
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, "ask", nil, client.WithProgressToken("p-1"))
	if err != nil || res.Text() != "4, to 2+2?" {
		t.Fatalf("%+v %v", res, err)
	}
	for _, want := range []string{
		`{"progressToken":"p-1","progress":1,"total":2,"message":"asking"}`,
		`{"progressToken":"p-1","progress":2,"total":2,"message":"answered"}`,
	} {
		if got := <-progress; got != want {
			t.Errorf("progress %s, want %s", got, want)
		}
	}
}

func TestOnRequestErrorsReachTheServer(t *testing.T) {
	c := pipe(askServer(t, nil), investigator, client.Options{
		Capabilities: map[string]any{"sampling": map[string]any{}},
		OnRequest: func(context.Context, string, json.RawMessage) (any, error) {
			return nil, errors.New("no model configured")
		},
	})
	defer c.Close()
	ctx := ctxT(t)
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, "ask", nil)
	if err != nil || !res.IsError || res.Text() != "jsonrpc error -32603: no model configured" {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestServerCancellationReachesOnRequest(t *testing.T) {
	ended := make(chan error, 1)
	asked, handlerDone := make(chan struct{}), make(chan error, 1)
	c := pipe(askServer(t, ended), investigator, client.Options{
		Capabilities: map[string]any{"sampling": map[string]any{}},
		OnRequest: func(ctx context.Context, _ string, _ json.RawMessage) (any, error) {
			close(asked)
			<-ctx.Done() // a user who never answers
			handlerDone <- ctx.Err()
			return nil, ctx.Err()
		},
	})
	defer c.Close()
	ctx := ctxT(t)
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	callCtx, cancelCall := context.WithCancel(ctx)
	go func() {
		c.CallTool(callCtx, "ask", nil)
	}()
	// Cancelling the tool call cancels the server's sampling request,
	// which cancels the client's handler.
	<-asked
	cancelCall()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the server's request ended with %v", err)
	}
	if err := <-handlerDone; !errors.Is(err, context.Canceled) {
		t.Errorf("the client's handler ended with %v", err)
	}
}
