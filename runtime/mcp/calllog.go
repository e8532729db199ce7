package mcp

import (
	"context"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Redacted replaces, in the call log, the value of every property the input
// schema marks x-secret.
const Redacted = "[REDACTED]"

// logCall writes the call log: one record per call that reaches a handler
// (a call refused at a gate is not a call). It names the tool, the version
// and the request id, and carries the arguments with every x-secret value
// replaced by Redacted, at any depth. Nothing about the principal is logged:
// who called is the audit trail's business, and a principal may carry
// credentials. The arguments logged are a preview of their text, as much as
// one log record holds (oplog.Preview): logging a call never decodes more
// of it than the line shows.
func (s *Server) logCall(ctx context.Context, call *Call) {
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	s.log.LogAttrs(ctx, slog.LevelInfo, "tool call",
		slog.String("tool", call.Spec.Name),
		slog.String("version", call.Spec.Version.String()),
		slog.String("request_id", call.RequestID.String()),
		slog.Any("arguments", redact(oplog.Preview(call.Raw, oplog.Limits{}), call.Spec.InputSchema)),
	)
}

// redact returns v with the values the schema marks secret replaced. It
// follows properties, additionalProperties and items; a value the schema
// does not describe is kept. v is not modified: objects and arrays the
// schema describes are copied.
func redact(v any, s *schema.Schema) any {
	if s == nil {
		return v
	}
	if s.Secret {
		return Redacted
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for name, pv := range v {
			if ps, ok := s.Properties[name]; ok {
				out[name] = redact(pv, ps)
			} else {
				out[name] = redact(pv, s.AdditionalProperties)
			}
		}
		return out
	case []any:
		if s.Items == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redact(e, s.Items)
		}
		return out
	}
	return v
}
