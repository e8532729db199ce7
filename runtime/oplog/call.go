package oplog

import (
	"bytes"
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
// the writer's goroutine, not the request's, and for an Async over a
// JSONHandler not at all: the record's line is made as it is queued,
// without one.
type CallRecord struct {
	// Time is when the call was logged; LogCall takes it when it is
	// zero (see LogCall).
	Time       time.Time
	Tool       string
	Version    string
	SchemaHash string
	RequestID  string
	// Arguments are the call's arguments as the JSON text sent, when
	// they are logged so; LogCall reads them only while it runs (what it
	// hands on holds a copy: the caller's buffer is reused). Otherwise
	// Preview is
	// what is logged of them: a value of package schema's model (a
	// clipped, redacted preview).
	Arguments json.RawMessage
	Preview   any
	// Checked says that Arguments are text the server's strict reader
	// accepted (package jsonrpc's Decode: one value, valid UTF-8,
	// distinct member names), as a call's arguments always are: the
	// line then only removes their spaces, without checking them
	// again. Text that is not strict JSON must not be marked so; its line
	// would be written as it is, spaces removed.
	Checked bool
}

// The keys of a call record's attributes, in the order they are
// written; argumentsKey is the last.
const (
	keyTool       = "tool"
	keyVersion    = "version"
	keySchemaHash = "schema_hash"
	keyRequestID  = "request_id"
	argumentsKey  = "arguments"
)

// attrs are the record's string attributes, keys and values, in the order
// they are written; the arguments follow them.
func (c *CallRecord) attrs() [4][2]string {
	return [4][2]string{
		{keyTool, c.Tool},
		{keyVersion, c.Version},
		{keySchemaHash, c.SchemaHash},
		{keyRequestID, c.RequestID},
	}
}

// Record is c as the slog record every handler takes: CallMessage at
// Info, with the attributes tool, version, schema_hash, request_id and
// arguments.
func (c *CallRecord) Record() slog.Record {
	r := slog.NewRecord(c.Time, slog.LevelInfo, CallMessage, 0)
	for _, kv := range c.attrs() {
		r.AddAttrs(slog.String(kv[0], kv[1]))
	}
	var args slog.Value
	if c.Arguments != nil {
		args = slog.AnyValue(c.Arguments)
	} else {
		args = slog.AnyValue(c.Preview)
	}
	r.AddAttrs(slog.Attr{Key: argumentsKey, Value: args})
	return r
}

// fits is fits(c.Record(), limits) for a record whose arguments are text,
// without making the record.
// It runs on the request's path: the attributes are counted one by one,
// not through attrs, whose array was most of its cost.
func (c *CallRecord) fits(limits Limits) (n int, ok bool) {
	f := startFitting(CallMessage, limits)
	_ = f.attr(len(keyTool)+len(c.Tool)) && f.attr(len(keyVersion)+len(c.Version)) &&
		f.attr(len(keySchemaHash)+len(c.SchemaHash)) && f.attr(len(keyRequestID)+len(c.RequestID)) &&
		f.attr(len(argumentsKey)+len(c.Arguments))
	return f.counted()
}

// LogCall writes c to h, which has said it is enabled at Info. An Async
// over a JSONHandler queues c's line, made into a buffer the queue
// reuses; an Async over another handler queues c as it is, its arguments
// copied into that buffer. Either way the caller pays for neither a slog
// record, nor the clipping of its attributes, nor an allocation. Any
// other handler gets c.Record(), with a copy of the arguments (a handler
// may keep the record).
//
// A record whose Time is zero is logged at the time LogCall is called.
// An Async then reads only the monotonic clock on the caller's path, and
// tells the wall clock's time from it with a reading of both clocks the
// runtime keeps for a millisecond: time.Now reads both clocks, which was
// a third of what queueing a record cost a request. A caller that read
// the monotonic clock already when the call began (the server, for a
// request a transport timed) gives that time instead, and no clock is
// read for the record at all.
func LogCall(ctx context.Context, h slog.Handler, c *CallRecord) {
	a, isAsync := h.(*Async)
	if isAsync && c.Arguments != nil {
		if n, fit := c.fits(a.limits); fit {
			a.logCall(ctx, c, n)
			return
		}
	}
	// A plain handler; or an Async given a preview value or a record past
	// its limits, which it clips now (Handle): the queue never holds more
	// of a call than its line shows. A handler may keep the record, and
	// an Async keeps text within its limits as it is: those need a copy
	// of the caller's text. Longer text an Async clips, copying only what
	// it keeps.
	own := *c
	if own.Time.IsZero() {
		own.Time = time.Now()
	}
	if !isAsync || len(c.Arguments) <= a.limits.MaxString {
		own.Arguments = bytes.Clone(c.Arguments)
	}
	_ = h.Handle(ctx, own.Record()) // a log that cannot be written is not the call's failure
}
