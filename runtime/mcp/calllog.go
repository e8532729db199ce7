package mcp

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/oplog"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Redacted replaces, in the call log, the value of every property the input
// schema marks x-secret.
const Redacted = "[REDACTED]"

// logCall writes the call log: one record per call that reaches a handler
// (a call refused at a gate is not a call). It names the tool, the version,
// the schema hash of the contract the call ran under (what a caller pins,
// docs/concepts.md#the-hash-and-drift: the record says which contract the
// arguments were checked against, whatever the version's number) and the
// request id, and carries the arguments with every x-secret value replaced
// by Redacted, at any depth. Nothing about the principal is logged:
// who called is the audit trail's business, and a principal may carry
// credentials. The arguments logged are what loggedArguments says.
//
// The record is an oplog.CallRecord, not a slog call: with the service's
// asynchronous sink (oplog.Async over an oplog.JSONHandler) its line is
// made into a buffer the sink reuses, without a slog record, and written
// by the sink's writer, so a call with the log on costs the request no
// allocation and little time more than one with it off (BenchmarkCallLog
// in bench/). The record
// carries no time: LogCall takes it, reading one clock rather than two
// (see oplog.LogCall).
func (s *Server) logCall(ctx context.Context, call *Call, schemaHash string) {
	h := s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := oplog.CallRecord{
		Tool: call.Spec.Name, Version: call.Spec.Version.String(),
		SchemaHash: schemaHash, RequestID: call.RequestID.String(),
	}
	rec.Arguments, rec.Preview = loggedArguments(call)
	rec.Checked = rec.Arguments != nil // call.Raw: the envelope's strict reader accepted it
	oplog.LogCall(ctx, h, &rec)
}

// loggedArguments is what the call log shows of a call's arguments. When
// the input schema marks nothing secret and the text fits one string of a
// record, it is the text as sent (oplog.LogCall copies what it keeps: the
// record is written after the request's buffers are reused): no decoding
// on the request's path, and the line carries it as it is.
// Otherwise it is a preview decoded
// as far as one record holds (oplog.Preview: logging a call never decodes
// more of it than the line shows) with every x-secret value redacted.
func loggedArguments(call *Call) (text json.RawMessage, preview any) {
	if !call.Spec.InputSchema.HasSecrets() && len(call.Raw) <= oplog.DefaultMaxString {
		return call.Raw, nil
	}
	return nil, redact(oplog.Preview(call.Raw, oplog.Limits{}), call.Spec.InputSchema)
}

// redact returns v with the values the schema marks secret replaced by
// Redacted (see schema.Schema.Redact). v is not modified.
func redact(v any, s *schema.Schema) any {
	if s == nil {
		return v
	}
	return s.Redact(v, Redacted)
}
