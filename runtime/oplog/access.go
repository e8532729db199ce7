package oplog

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// AccessMessage is the message of an access log record.
const AccessMessage = "http request"

// AccessRecord is one line of an HTTP transport's access log: a request
// served, how it was answered and how long it took. Like a CallRecord it
// is written by LogAccess, which under an Async over a JSONHandler queues
// its line, made without a slog record: one record for every request a
// server answers.
type AccessRecord struct {
	// Time is when the request ended (the caller, which timed the
	// request, has it); a zero Time is written as none, as slog does.
	Time      time.Time
	Method    string // the HTTP method
	Path      string // the URL's path
	Status    int    // the HTTP status answered
	MCPMethod string // the JSON-RPC method carried, "" when none
	Duration  time.Duration
}

// The keys of an access record's attributes, in the order they are
// written.
const (
	keyMethod     = "method"
	keyPath       = "path"
	keyStatus     = "status"
	keyMCPMethod  = "mcp_method"
	keyDurationMS = "duration_ms"
)

// durationMS is the duration written: milliseconds, to the microsecond.
func (a *AccessRecord) durationMS() float64 { return float64(a.Duration.Microseconds()) / 1000 }

// Record is a as the slog record every handler takes: AccessMessage at
// Info with method, path, status, mcp_method and duration_ms.
func (a *AccessRecord) Record() slog.Record {
	r := slog.NewRecord(a.Time, slog.LevelInfo, AccessMessage, 0)
	r.AddAttrs(slog.String(keyMethod, a.Method), slog.String(keyPath, a.Path), slog.Int(keyStatus, a.Status),
		slog.String(keyMCPMethod, a.MCPMethod), slog.Float64(keyDurationMS, a.durationMS()))
	return r
}

// fits is fits(a.Record(), limits) without making the record.
func (a *AccessRecord) fits(limits Limits) (n int, ok bool) {
	f := startFitting(AccessMessage, limits)
	_ = f.attr(len(keyMethod)+len(a.Method)) && f.attr(len(keyPath)+len(a.Path)) && f.attr(len(keyStatus)) &&
		f.attr(len(keyMCPMethod)+len(a.MCPMethod)) && f.attr(len(keyDurationMS))
	return f.counted()
}

// LogAccess writes a to h, which has said it is enabled at Info. An Async
// over a JSONHandler queues a's line, made as a CallRecord's is (see
// Async); an Async over another handler queues a as it is (its strings
// are the caller's and not changed), so that the request pays for
// neither a slog record nor its attributes' clipping; any other handler,
// or an Async given a record that needs clipping, gets a.Record().
func LogAccess(ctx context.Context, h slog.Handler, a *AccessRecord) {
	if as, ok := h.(*Async); ok {
		if n, fit := a.fits(as.limits); fit {
			if as.queueLine(maxAccessLine(a), func(dst []byte, s *lineState) ([]byte, bool) {
				return appendAccessLine(dst, a, &s.stamp)
			}) {
				return
			}
			if e := as.entry(ctx, n); e != nil {
				e.access, e.isAccess = *a, true
				as.q.push(e)
			}
			return
		}
	}
	_ = h.Handle(ctx, a.Record()) // a log that cannot be written is not the request's failure
}

// maxAccessLine bounds the bytes of a's line: its strings quoted (at
// most six bytes a byte), and the rest, a time, the keys and two numbers,
// in 320 bytes.
func maxAccessLine(a *AccessRecord) int {
	return 320 + 6*(len(a.Method)+len(a.Path)+len(a.MCPMethod))
}

// appendAccessLine appends to dst the line slog.NewJSONHandler(w, nil)
// writes for a.Record(); ok is false where that line would say something
// went wrong (a time whose year has not four digits), and the caller then
// hands the handler the record.
func appendAccessLine(dst []byte, a *AccessRecord, s *stamp) (_ []byte, ok bool) {
	if dst, ok = appendLineStart(dst, a.Time, s); !ok {
		return dst, false
	}
	dst = append(dst, `"level":"INFO","msg":"`+AccessMessage+`","`+keyMethod+`":`...)
	dst = textdec.AppendQuoteAsSlog(dst, a.Method)
	dst = append(dst, `,"`+keyPath+`":`...)
	dst = textdec.AppendQuoteAsSlog(dst, a.Path)
	dst = append(dst, `,"`+keyStatus+`":`...)
	dst = strconv.AppendInt(dst, int64(a.Status), 10)
	dst = append(dst, `,"`+keyMCPMethod+`":`...)
	dst = textdec.AppendQuoteAsSlog(dst, a.MCPMethod)
	dst = append(dst, `,"`+keyDurationMS+`":`...)
	// slog writes a float64 with json.Marshal, whose form encode.Float
	// writes (a duration is never NaN or infinite).
	line, err := encode.Float(dst, a.durationMS())
	if err != nil {
		return dst, false
	}
	return append(line, '}', '\n'), true
}
