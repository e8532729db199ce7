package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// CompletionRequest asks for suggestions for one argument of a prompt or
// one variable of a resource template (completion/complete).
type CompletionRequest struct {
	// Argument is the argument or variable being completed.
	Argument string
	// Value is what the user has typed so far.
	Value string
	// Arguments are the values already chosen for the other arguments
	// (the request's context.arguments, from 2025-06-18); nil when none.
	Arguments map[string]string
	// Principal is who asks. Never log it.
	Principal estate.Principal
}

// Completion is the answer: suggested values, best first. At most
// MaxCompletionValues are sent; a longer list is cut and marked HasMore.
type Completion struct {
	Values []string
	// Total is how many values match in all, when known (0: unknown).
	Total int
	// HasMore says there are matches beyond Values.
	HasMore bool
}

// MaxCompletionValues is MCP's limit on the values of one completion.
const MaxCompletionValues = 100

// Completer suggests values. An error is logged and answered as an
// internal error.
type Completer func(ctx context.Context, req *CompletionRequest) (*Completion, error)

// CompleteFrom returns a Completer suggesting, in the order given, the
// values that start with what the user typed.
func CompleteFrom(values ...string) Completer {
	values = slices.Clone(values)
	return func(_ context.Context, req *CompletionRequest) (*Completion, error) {
		out := []string{}
		for _, v := range values {
			if strings.HasPrefix(v, req.Value) {
				out = append(out, v)
			}
		}
		return &Completion{Values: out, Total: len(out)}, nil
	}
}

type completionParams struct {
	Ref struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument struct {
		Name  *string `json:"name"`
		Value *string `json:"value"`
	} `json:"argument"`
	Context struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

type completionEntry struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

type completeResult struct {
	Completion completionEntry `json:"completion"`
	common
}

// complete serves completion/complete for a prompt's argument
// ("ref/prompt") or a resource template's variable ("ref/resource", named
// by its URI template). A prompt or template the caller cannot see is
// answered as one that does not exist; an argument it does not declare is
// -32602; one without a Completer gets no suggestions.
func (s *Server) complete(r *request) (any, *jsonrpc.Error) {
	var p completionParams
	for _, m := range []struct {
		name string
		into any
	}{{"ref", &p.Ref}, {"argument", &p.Argument}, {"context", &p.Context}} {
		if raw := r.params.member(m.name); raw != nil {
			if err := json.Unmarshal(raw, m.into); err != nil {
				return nil, invalidParams(m.name + ": " + echo(err.Error()))
			}
		}
	}
	if p.Argument.Name == nil || p.Argument.Value == nil {
		return nil, invalidParams("argument.name and argument.value are required strings")
	}
	name := *p.Argument.Name
	var completer Completer
	switch p.Ref.Type {
	case "ref/prompt":
		pr, found := s.cat().prompt(p.Ref.Name)
		if !found {
			return nil, invalidParams("unknown prompt: " + echo(p.Ref.Name))
		}
		if !slices.ContainsFunc(pr.Arguments, func(a PromptArgument) bool { return a.Name == name }) {
			return nil, invalidParams("prompt " + pr.Name + " has no argument " + echo(name))
		}
		completer = pr.Complete
	case "ref/resource":
		t, found := s.template(r.session.principal.Tenant, p.Ref.URI)
		if !found {
			return nil, invalidParams("unknown resource template: " + echo(p.Ref.URI))
		}
		if !slices.Contains(t.vars, name) {
			return nil, invalidParams("resource template " + t.URITemplate + " has no variable " + echo(name))
		}
		completer = t.Complete
	default:
		return nil, invalidParams(`ref.type must be "ref/prompt" or "ref/resource"`)
	}
	res := &completeResult{Completion: completionEntry{Values: []string{}}}
	if completer != nil {
		c, err := completer(r.ctx, &CompletionRequest{
			Argument: name, Value: *p.Argument.Value, Arguments: p.Context.Arguments, Principal: r.session.principal,
		})
		if err != nil {
			s.log.LogAttrs(r.ctx, slog.LevelError, "completion failed", slog.String("ref", p.Ref.Name+p.Ref.URI), slog.String("error", err.Error()))
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "completion failed")
		}
		if c != nil {
			res.Completion = completionEntry{Values: c.Values, Total: c.Total, HasMore: c.HasMore}
		}
	}
	if res.Completion.Values == nil {
		res.Completion.Values = []string{}
	}
	if n := len(res.Completion.Values); n > MaxCompletionValues {
		res.Completion.Values = res.Completion.Values[:MaxCompletionValues]
		res.Completion.HasMore = true
		res.Completion.Total = max(res.Completion.Total, n)
	}
	s.finish(r.rev, &res.common, "")
	return res, nil
}
