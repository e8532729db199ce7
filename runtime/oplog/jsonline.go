package oplog

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// JSONHandler writes records as JSON lines to a writer: it is
// slog.NewJSONHandler(w, nil), and writes what that handler writes. Under
// an Async it also writes the call log's and the access log's lines
// itself: a record's line is made as the record is queued, as the slog
// handler would write it, byte for byte, without making a slog record,
// reflecting on the arguments or allocating (see LogCall and LogAccess).
// That is why a service's log is an Async over a JSONHandler rather than
// over slog's own: those two logs, a line a call and a line a request,
// are most of what it writes.
//
// Handlers derived by WithAttrs or WithGroup are slog's: their lines
// carry more than a call record, and the Async hands them the record.
type JSONHandler struct {
	slog.Handler
	out *lockedWriter
}

// JSONOptions configure NewJSONHandler; nil, or the zero value, writes
// records at slog.LevelInfo and above.
type JSONOptions struct {
	// Level is the least level of the records written; nil means
	// slog.LevelInfo. A *slog.LevelVar changes it while the service
	// runs: at slog.LevelWarn the call log and the access log, both at
	// Info, are off, and a request pays for the check of the level
	// alone (Enabled).
	Level slog.Leveler
}

// NewJSONHandler returns a JSONHandler writing to w. Its lines are
// slog.NewJSONHandler's with no options but the level.
func NewJSONHandler(w io.Writer, opts *JSONOptions) *JSONHandler {
	var level slog.Leveler
	if opts != nil {
		level = opts.Level
	}
	out := &lockedWriter{w: w}
	return &JSONHandler{Handler: slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level}), out: out}
}

// writeLines writes lines the slog handler would have written, whole.
func (h *JSONHandler) writeLines(lines []byte) {
	_, _ = h.out.Write(lines) // a log that cannot be written is not the request's failure
}

// lockedWriter keeps the lines written by the slog handler and those
// written by writeLines whole: each Write is whole lines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// appendCallLine appends to dst the line slog.NewJSONHandler(w, nil)
// writes for c.Record(), for a record with text arguments that needs no
// clipping (c.fits). ok is false, and dst is not to be used, where the
// slog handler's line says something went wrong: arguments that are not
// JSON text, a time whose year has not four digits. The record then
// goes to the slog handler (see Async.logCall).
func appendCallLine(dst []byte, c *CallRecord, w *lineState) (_ []byte, ok bool) {
	if dst, ok = appendLineStart(dst, c.Time, &w.stamp); !ok {
		return dst, false
	}
	dst = append(dst, callLineHead...)
	dst = w.heads.append(dst, c)
	dst = appendAttr(dst, keyRequestID, c.RequestID)
	dst = append(dst, `,"`+argumentsKey+`":`...)
	if c.Checked && len(c.Arguments) > 0 {
		dst = textdec.AppendCompact(dst, c.Arguments)
	} else if dst, ok = appendCompact(dst, c.Arguments); !ok {
		return dst, false
	}
	return append(dst, '}', '\n'), true
}

// appendAttr appends `,"key":` and value quoted as slog quotes it; key
// needs no escaping.
func appendAttr(dst []byte, key, value string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return textdec.AppendQuoteAsSlog(dst, value)
}

// lineState is what call lines made one after another share: the time's
// text (stamp) and the call lines' heads.
type lineState struct {
	stamp stamp
	heads callHeads
}

// callHeads keeps, for the tool versions whose calls were written last,
// the text a call line has for them: the tool, version and schema hash,
// quoted. A server's calls come from a few tool versions, the same
// three strings over and over, and quoting them was a fifth of writing a
// line. A slot is chosen by where the tool's and the version's strings
// lie (a server passes the same ones for every call of a version), and
// is used only when its three strings equal the record's: two tool
// versions that share a slot cost their quoting, never a wrong line.
type callHeads [16]struct {
	tool, version, hash string
	text                []byte // `,"tool":…,"version":…,"schema_hash":…`
}

// append appends c's head.
func (hs *callHeads) append(dst []byte, c *CallRecord) []byte {
	at := uintptr(unsafe.Pointer(unsafe.StringData(c.Tool))) ^ uintptr(unsafe.Pointer(unsafe.StringData(c.Version)))
	h := &hs[(at>>4)%uintptr(len(hs))]
	if h.text == nil || c.Tool != h.tool || c.Version != h.version || c.SchemaHash != h.hash {
		h.tool, h.version, h.hash = c.Tool, c.Version, c.SchemaHash
		h.text = appendAttr(h.text[:0], keyTool, c.Tool)
		h.text = appendAttr(h.text, keyVersion, c.Version)
		h.text = appendAttr(h.text, keySchemaHash, c.SchemaHash)
	}
	return append(dst, h.text...)
}

// appendLineStart appends the start of a line slog.NewJSONHandler(w, nil)
// writes for a record of time t: the brace and the time, none when t is
// zero. ok is false for a time whose year has not four digits, where
// that line says something went wrong. s is the stamp of the lines made
// before, which keeps what the lines of one second share.
func appendLineStart(dst []byte, t time.Time, s *stamp) (_ []byte, ok bool) {
	dst = append(dst, '{')
	if t.IsZero() {
		return dst, true
	}
	dst = append(dst, `"time":"`...)
	if dst, ok = s.append(dst, t); !ok {
		return dst, false
	}
	return append(dst, `",`...), true
}

// stamp writes times as t.AppendFormat(dst, time.RFC3339Nano) does,
// keeping the text of the last second it wrote: a log's lines come
// many to a second, and formatting a whole time (the date from the
// seconds since the epoch, each field, the zone) was a third of writing
// a call's line. The zero stamp is ready to use.
type stamp struct {
	sec  int64          // the second of text, t.Unix()
	loc  *time.Location // the location of text and zone
	text []byte         // "2006-01-02T15:04:05" of that second in that zone
	zone []byte         // "Z" or "-07:00"
}

// append appends t; ok is false, and nothing is appended, when t's year
// has not four digits. One second in one location has one offset from
// UTC: a time in the second and location of the last one costs neither
// its date nor its zone.
func (s *stamp) append(dst []byte, t time.Time) (_ []byte, ok bool) {
	if sec, loc := t.Unix(), t.Location(); sec != s.sec || loc != s.loc || s.text == nil {
		if y := t.Year(); y < 0 || y >= 10000 {
			return dst, false
		}
		s.sec, s.loc = sec, loc
		s.text = t.AppendFormat(s.text[:0], "2006-01-02T15:04:05")
		s.zone = t.AppendFormat(s.zone[:0], "Z07:00")
	}
	dst = append(dst, s.text...)
	if ns := t.Nanosecond(); ns != 0 {
		// ".999999999": the nanoseconds without their trailing zeros,
		// written two digits at a time (a digit at a time was two thirds
		// of the stamp's cost).
		var frac [10]byte
		frac[0] = '.'
		frac[9] = byte('0' + ns%10)
		ns /= 10
		for i := 7; i > 0; i -= 2 {
			pair := ns % 100 * 2
			frac[i], frac[i+1] = digitPairs[pair], digitPairs[pair+1]
			ns /= 100
		}
		n := len(frac)
		for frac[n-1] == '0' {
			n--
		}
		dst = append(dst, frac[:n]...)
	}
	return append(dst, s.zone...), true
}

// digitPairs are "00" to "99", one after the other.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendCompact appends text as slog writes a json.RawMessage: through
// json.Encoder, which compacts it and fails on text that is not JSON.
// Text the strict reader accepts is checked by it and compacted by a
// walk that checks nothing, which together cost less than json.Compact's
// scanner (BenchmarkCallLine); anything else goes to json.Compact, whose
// verdict is slog's. Arguments the server read (CallRecord.Checked) skip
// the check: the strict reader accepted them already.
func appendCompact(dst, text []byte) (_ []byte, ok bool) {
	if textdec.Validate(text) == nil {
		return textdec.AppendCompact(dst, text), true
	}
	buf := bytes.NewBuffer(dst)
	if json.Compact(buf, text) != nil {
		return buf.Bytes(), false
	}
	return buf.Bytes(), true
}

// callLineHead is what every call line has between its time and its
// attributes.
const callLineHead = `"level":"INFO","msg":"` + CallMessage + `"`
