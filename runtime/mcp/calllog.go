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

// redact returns v with the values the schema marks secret replaced by
// Redacted (see schema.Schema.Redact). v is not modified.
func redact(v any, s *schema.Schema) any {
	if s == nil {
		return v
	}
	return s.Redact(v, Redacted)
}
