package oplog

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
)

// Defaults of Limits.
const (
	// DefaultMaxString bytes of one string: a panic's stack keeps its
	// first frames, a megabyte of a peer's text keeps a line.
	DefaultMaxString = 4 << 10
	// DefaultMaxRecord bytes of strings in one record, in all: what one
	// log line can cost, whatever its attributes hold.
	DefaultMaxRecord = 16 << 10
)

// Limits bound what one log record may carry. The zero value means the
// defaults.
type Limits struct {
	// MaxString bounds every string of a record: its message, each
	// attribute's value, the text of an error, and every string, key
	// and element inside a value of maps and slices (the JSON value model
	// of package schema, []string, json.RawMessage). Longer ones are
	// clipped (see Clip).
	MaxString int
	// MaxRecord bounds the bytes of strings in one record, in all; past
	// it values are replaced by "…" and a map or slice ends with a member
	// or element counting what was left out.
	MaxRecord int
}

func (l Limits) withDefaults() Limits {
	if l.MaxString <= 0 {
		l.MaxString = DefaultMaxString
	}
	if l.MaxRecord <= 0 {
		l.MaxRecord = DefaultMaxRecord
	}
	return l
}

// Logger returns l clipping every record with the default limits (see
// Capped), or a logger that discards everything when l is nil: what a
// library does with the logger its user gives it.
func Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(Capped(l.Handler(), Limits{}))
}

// Capped returns a handler that clips every record to limits before h
// sees it: what a peer sent, logged as a method, a tool name, an error or
// a call's arguments, costs the log at most MaxRecord bytes. A handler
// that clips already (Capped's, Async's) is returned as it is.
func Capped(h slog.Handler, limits Limits) slog.Handler {
	switch h.(type) {
	case *capped, *Async:
		return h
	}
	return &capped{next: h, limits: limits.withDefaults()}
}

type capped struct {
	next   slog.Handler
	limits Limits
}

func (c *capped) Enabled(ctx context.Context, l slog.Level) bool { return c.next.Enabled(ctx, l) }

func (c *capped) Handle(ctx context.Context, r slog.Record) error {
	return c.next.Handle(ctx, clipRecord(r, c.limits))
}

func (c *capped) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &capped{next: c.next.WithAttrs(clipAttrs(attrs, c.limits)), limits: c.limits}
}

func (c *capped) WithGroup(name string) slog.Handler {
	return &capped{next: c.next.WithGroup(Clip(name, c.limits.MaxString)), limits: c.limits}
}

// clipRecord returns a copy of r within limits.
func clipRecord(r slog.Record, limits Limits) slog.Record {
	b := budget{Limits: limits, left: limits.MaxRecord}
	out := slog.NewRecord(r.Time, r.Level, b.str(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(b.attr(a))
		return true
	})
	return out
}

func clipAttrs(attrs []slog.Attr, limits Limits) []slog.Attr {
	b := budget{Limits: limits, left: limits.MaxRecord}
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = b.attr(a)
	}
	return out
}

// budget clips the strings of one record, counting what it keeps.
type budget struct {
	Limits
	left int
}

// str clips s to MaxString and to what is left of the record's bytes.
func (b *budget) str(s string) string { return spend(b, s) }

// spend is b.str for a string or bytes: of bytes, only what is kept is
// copied.
func spend[T ~string | ~[]byte](b *budget, s T) string {
	kept := clip(s, min(b.MaxString, b.left))
	b.left -= min(len(kept), b.left)
	return kept
}

// spent reports whether the record has no bytes left.
func (b *budget) spent() bool { return b.left <= 0 }

// elementCost is what a member or an element counts against the record
// besides its strings: a map of a thousand empty members is no cheaper to
// write than a string of some kilobytes.
const elementCost = 16

// element charges one member or element.
func (b *budget) element() { b.left -= elementCost }

func (b *budget) attr(a slog.Attr) slog.Attr {
	a.Key = b.str(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(b.str(v.String()))
	case slog.KindGroup:
		group := v.Group()
		out := make([]slog.Attr, len(group))
		for i, g := range group {
			out[i] = b.attr(g)
		}
		a.Value = slog.GroupValue(out...)
	case slog.KindAny:
		a.Value = slog.AnyValue(b.value(v.Any(), 0))
	default:
		a.Value = v
	}
	return a
}

// maxDepth bounds how deep value follows maps and slices.
const maxDepth = 16

// value clips a value of an attribute: strings, errors, and the maps and
// slices a log carries. Other values are kept as they are.
func (b *budget) value(v any, depth int) any {
	if depth > maxDepth {
		return "…"
	}
	switch v := v.(type) {
	case string:
		return b.str(v)
	case error:
		return b.str(v.Error())
	case json.RawMessage:
		if len(v) <= min(b.MaxString, b.left) {
			b.left -= len(v)
			return v
		}
		return spend(b, v)
	case map[string]any:
		out := make(map[string]any, min(len(v), 16))
		for k, e := range v {
			if b.spent() {
				out["…"] = strconv.Itoa(len(v)-len(out)) + " more members"
				break
			}
			b.element()
			out[b.str(k)] = b.value(e, depth+1)
		}
		return out
	case []any:
		return clipSlice(b, v, func(e any) any { return b.value(e, depth+1) }, func(more string) any { return more })
	case []string:
		return clipSlice(b, v, b.str, func(more string) string { return more })
	}
	return v
}

// clipSlice clips each element of v with each while the record has bytes
// left, and ends with an element that says how many were left out.
func clipSlice[E any](b *budget, v []E, each func(E) E, more func(string) E) []E {
	out := make([]E, 0, min(len(v), 16))
	for i, e := range v {
		if b.spent() {
			return append(out, more(strconv.Itoa(len(v)-i)+" more elements"))
		}
		b.element()
		out = append(out, each(e))
	}
	return out
}
