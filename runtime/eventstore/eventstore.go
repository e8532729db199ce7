// Package eventstore keeps the events of resumable streams, so that a
// client whose connection broke can be sent what it missed: the store
// behind Streamable HTTP's Last-Event-ID (see package mcphttp), and the
// seam a store shared by several replicas implements.
//
// A stream belongs to a session and is named within it; its events are
// numbered by their writer, from 1, one more for each next event. The
// writer numbers them, not the store, so that a number is never given
// twice even when the store has dropped all it knew of a stream. The store
// knows nothing of MCP or of HTTP: an event is the bytes a transport
// wrote, and how a position is written on the wire is the transport's
// business.
//
// A store is bounded, and dropping is never silent: After reports
// ErrDropped when an event the caller asks for is no longer kept, rather
// than returning what is left, which a client could not tell from the
// whole.
package eventstore

import (
	"context"
	"errors"
)

// Event is one stored event: its position in its stream, and its data.
type Event struct {
	Pos  uint64
	Data []byte
}

var (
	// ErrDropped is After's error when an event after the position asked
	// for was dropped to keep the store within its bounds: the stream
	// cannot be resumed from there.
	ErrDropped = errors.New("eventstore: the events after that position are no longer kept")
	// ErrUnknown is After's error when the store holds nothing of the
	// stream (it never had events, it was forgotten, or all of it was
	// dropped), or the position is past the stream's last event.
	ErrUnknown = errors.New("eventstore: no such stream or position")
	// ErrOutOfOrder is Append's error for a position that does not follow
	// the stream's last one.
	ErrOutOfOrder = errors.New("eventstore: the position does not follow the stream's last event")
)

// Store keeps streams' events. Its methods are safe for concurrent use.
type Store interface {
	// Append adds data as the event at position pos of the session's
	// stream: the position after the stream's last event, or any position
	// from 1 for a stream the store does not hold (a new one, or one it
	// dropped, whose earlier events then count as dropped). The store
	// keeps data as it is; the caller does not change it afterwards.
	Append(ctx context.Context, session, stream string, pos uint64, data []byte) error
	// After returns the stream's events after position pos, oldest first
	// (none when pos is the last); pos 0 asks for every event. It fails
	// with ErrDropped when any of them is no longer kept, returning none,
	// and with ErrUnknown (see there).
	After(ctx context.Context, session, stream string, pos uint64) ([]Event, error)
	// ForgetStream drops a stream's events.
	ForgetStream(ctx context.Context, session, stream string) error
	// ForgetSession drops the events of every stream of a session.
	ForgetSession(ctx context.Context, session string) error
}
