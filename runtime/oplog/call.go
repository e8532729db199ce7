package oplog

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// CallMessage is the message of every record of a server's call log.
const CallMessage = "tool call"

// CallRecord is one record of a server's call log: which tool version ran,
// under which contract, for which request, with what arguments. The server
// fills one in per call and LogCall writes it; the slog.Record it becomes
// (see Record) is built only where it is written, which for an Async is
// the writer's goroutine, not the request's.
type CallRecord struct {
	Time       time.Time
	Tool       string
	Version    string
	SchemaHash string
	RequestID  string
	// Arguments are the call's arguments as the JSON text sent, when
	// they are logged so; the record must own them (the caller's buffer
	// is reused). Otherwise Preview is what is logged of them: a value
	// of package schema's model (a clipped, redacted preview).
	Arguments json.RawMessage
	Preview   any
}

// Record is c as the slog record every handler takes: CallMessage at
// Info, with the attributes tool, version, schema_hash, request_id and
// arguments.
func (c *CallRecord) Record() slog.Record {
	r := slog.NewRecord(c.Time, slog.LevelInfo, CallMessage, 0)
	var args slog.Value
	if c.Arguments != nil {
		args = slog.AnyValue(c.Arguments)
	} else {
		args = slog.AnyValue(c.Preview)
	}
	r.AddAttrs(
		slog.String("tool", c.Tool),
		slog.String("version", c.Version),
		slog.String("schema_hash", c.SchemaHash),
		slog.String("request_id", c.RequestID),
		slog.Attr{Key: "arguments", Value: args},
	)
	return r
}

// LogCall writes c to h, which has said it is enabled at Info. An Async
// queues c as it is, so that the caller pays for neither the record's
// attributes, nor a copy of them, nor their clipping (its writer does all
// three); any other handler gets c.Record().
func LogCall(ctx context.Context, h slog.Handler, c *CallRecord) {
	if a, ok := h.(*Async); ok {
		a.logCall(ctx, c)
		return
	}
	_ = h.Handle(ctx, c.Record()) // a log that cannot be written is not the call's failure
}
