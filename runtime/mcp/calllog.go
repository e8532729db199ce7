package mcp

import (
	"encoding/json"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/internal/mono"
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
// in bench/). The record's time is when r began, told from the reading of
// the monotonic clock its transport or its deadline took (see
// flight.began) without reading a clock again; a request timed by nothing
// leaves it to LogCall, which reads one clock rather than two (see
// oplog.LogCall). The call is r.call; redacted arguments are written into
// r.logText.
func (s *Server) logCall(r *request, schemaHash string) {
	ctx, call := r.ctx, &r.call
	h := s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := oplog.CallRecord{
		Tool: call.Spec.Name, Version: call.Spec.Version.String(),
		SchemaHash: schemaHash, RequestID: call.RequestID.String(),
	}
	if began := r.flight.began; began > 0 {
		rec.Time = mono.Wall(began) // no clock read for the line (see flight.began)
	}
	rec.Arguments, rec.Preview = loggedArguments(call, &r.logText)
	rec.Checked = rec.Arguments != nil // strict text: call.Raw, or written from it
	oplog.LogCall(ctx, h, &rec)
}

// redactedText is Redacted as the JSON text written in place of a secret.
var redactedText = []byte(`"` + Redacted + `"`)

// maxLogScratch bounds the buffer a request keeps for the text of its
// call's redacted arguments.
const maxLogScratch = 2 * oplog.DefaultMaxString

// loggedArguments is what the call log shows of a call's arguments. When
// the text fits one string of a record, it is that text: as sent when the
// input schema marks nothing secret, and otherwise with every x-secret
// value replaced by Redacted, written from the text into scratch, the
// request's buffer (schema.Schema.AppendRedacted). Either way nothing is
// decoded on the request's path (oplog.LogCall copies what it keeps: the
// record is written after the request's buffers are reused), and the
// line carries it as it is. Longer arguments are a preview decoded as far
// as one record holds (oplog.Preview: logging a call never decodes more of
// it than the line shows) with every x-secret value redacted.
func loggedArguments(call *Call, scratch *[]byte) (text json.RawMessage, preview any) {
	in := call.Spec.InputSchema
	if len(call.Raw) <= oplog.DefaultMaxString {
		if !in.HasSecrets() {
			return call.Raw, nil
		}
		out := in.AppendRedacted((*scratch)[:0], call.Raw, redactedText)
		if cap(out) <= maxLogScratch {
			*scratch = out
		}
		if len(out) <= oplog.DefaultMaxString {
			return out, nil
		}
	}
	return nil, redact(oplog.Preview(call.Raw, oplog.Limits{}), in)
}

// redact returns v with the values the schema marks secret replaced by
// Redacted (see schema.Schema.Redact). v is not modified.
func redact(v any, s *schema.Schema) any {
	if s == nil {
		return v
	}
	return s.Redact(v, Redacted)
}
