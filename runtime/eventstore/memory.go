package eventstore

import (
	"container/list"
	"context"
	"maps"
	"slices"
	"sync"
)

// Defaults of MemoryOptions.
const (
	// DefaultMaxStreamBytes keeps some hundreds of progress notifications
	// and a large answer of one stream.
	DefaultMaxStreamBytes = 1 << 20
	// DefaultMaxBytes bounds the whole store: at its worst a few dozen
	// streams as full as a stream may be, or thousands of usual ones.
	DefaultMaxBytes = 64 << 20
)

// EventOverhead and StreamOverhead are what an event and a stream cost
// besides the events' data, in the store's counting: the slice headers,
// map entries and list elements that hold them. Counting them bounds the
// memory of a stream of many empty events too.
const (
	EventOverhead  = 32
	StreamOverhead = 256
)

// MemoryOptions bound a Memory store. The zero value is the defaults.
type MemoryOptions struct {
	// MaxStreamBytes bounds what one stream keeps: past it, the stream's
	// oldest events are dropped. An event larger than the bound is not
	// kept at all, and the events before it go too, so that a replay
	// across it fails rather than skips it. Zero means
	// DefaultMaxStreamBytes.
	MaxStreamBytes int
	// MaxBytes bounds the whole store: past it, the oldest events of the
	// stream least recently appended to are dropped, and a stream with no
	// event left is forgotten. A caller that never comes back thus costs
	// at most its streams' bound, and not for long when others write.
	// Zero means DefaultMaxBytes.
	MaxBytes int
}

// Memory is a Store in this process's memory, bounded per stream and in
// all (MemoryOptions); the data and the overhead of each event count.
type Memory struct {
	maxStream, max int

	mu       sync.Mutex
	sessions map[string]map[string]*memStream
	lru      list.List // of *memStream, least recently appended to first
	bytes    int
}

// memStream is one stream's events: events[i] is at position first+i, and
// next is the position the next event takes. A stream whose events were
// all dropped by its own bound keeps first = next, so that a replay from
// before them fails.
type memStream struct {
	session, name string
	first, next   uint64
	events        [][]byte
	bytes         int
	elem          *list.Element
}

// NewMemory returns an empty store bounded by opts.
func NewMemory(opts MemoryOptions) *Memory {
	if opts.MaxStreamBytes <= 0 {
		opts.MaxStreamBytes = DefaultMaxStreamBytes
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	return &Memory{maxStream: opts.MaxStreamBytes, max: opts.MaxBytes, sessions: map[string]map[string]*memStream{}}
}

// Bytes is what the store holds now, in its counting (data and overheads).
func (m *Memory) Bytes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Append implements Store.
func (m *Memory) Append(_ context.Context, session, stream string, pos uint64, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.streams(session)[stream]
	switch {
	case pos == 0:
		return ErrOutOfOrder
	case st == nil:
		// New, or dropped whole: what came before pos counts as dropped.
		st = &memStream{session: session, name: stream, first: pos, next: pos}
		st.elem = m.lru.PushBack(st)
		m.sessions[session][stream] = st
		st.bytes = StreamOverhead
		m.bytes += StreamOverhead
	case pos != st.next:
		return ErrOutOfOrder
	default:
		m.lru.MoveToBack(st.elem)
	}
	st.next++
	cost := len(data) + EventOverhead
	if StreamOverhead+cost > m.maxStream {
		// Too large to keep: the stream keeps none of its events, so
		// that no replay passes over this one.
		m.dropFirst(st, len(st.events))
		st.first = st.next
	} else {
		for st.bytes+cost > m.maxStream {
			m.dropFirst(st, 1)
		}
		st.events = append(st.events, data)
		st.bytes += cost
		m.bytes += cost
	}
	m.shrink(st)
	return nil
}

// streams returns the session's streams, making the map if need be.
func (m *Memory) streams(session string) map[string]*memStream {
	ss := m.sessions[session]
	if ss == nil {
		ss = map[string]*memStream{}
		m.sessions[session] = ss
	}
	return ss
}

// dropFirst drops the stream's n oldest events.
func (m *Memory) dropFirst(st *memStream, n int) {
	for _, d := range st.events[:n] {
		st.bytes -= len(d) + EventOverhead
		m.bytes -= len(d) + EventOverhead
	}
	clear(st.events[:n])
	st.events = st.events[n:]
	st.first += uint64(n)
	if len(st.events) == 0 {
		st.events = nil // let the backing array go
	}
}

// shrink drops events, oldest of the least recently appended stream
// first, until the store is within MaxBytes or holds only the events of
// last, the stream just appended to; that one is dropped down to an empty
// stream, never forgotten, since it is being written.
func (m *Memory) shrink(last *memStream) {
	for m.bytes > m.max {
		st := m.lru.Front().Value.(*memStream)
		switch {
		case len(st.events) > 0:
			m.dropFirst(st, 1)
		case st != last:
			m.remove(st)
		default:
			return
		}
	}
}

// remove forgets a stream.
func (m *Memory) remove(st *memStream) {
	m.lru.Remove(st.elem)
	m.dropFirst(st, len(st.events))
	m.bytes -= StreamOverhead
	ss := m.sessions[st.session]
	delete(ss, st.name)
	if len(ss) == 0 {
		delete(m.sessions, st.session)
	}
}

// After implements Store. The events are returned in a new slice; their
// data is shared with the store, which never changes it.
func (m *Memory) After(_ context.Context, session, stream string, pos uint64) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.sessions[session][stream]
	switch {
	case st == nil || pos >= st.next:
		return nil, ErrUnknown
	case pos+1 < st.first:
		return nil, ErrDropped
	}
	kept := st.events[pos+1-st.first:]
	out := make([]Event, len(kept))
	for i, d := range kept {
		out[i] = Event{Pos: pos + 1 + uint64(i), Data: d}
	}
	return out, nil
}

// ForgetStream implements Store.
func (m *Memory) ForgetStream(_ context.Context, session, stream string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if st := m.sessions[session][stream]; st != nil {
		m.remove(st)
	}
	return nil
}

// ForgetSession implements Store.
func (m *Memory) ForgetSession(_ context.Context, session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, st := range slices.Collect(maps.Values(m.sessions[session])) {
		m.remove(st)
	}
	return nil
}
