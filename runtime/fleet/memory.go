package fleet

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
)

// Memory is the Store of one process: nothing is shared, nothing can be
// unreachable. Its zero value is not usable; call NewMemory.
type Memory struct {
	events *eventstore.Memory

	mu       sync.Mutex
	sessions map[string]memSession
	overlay  Overlay
	watchers map[*memWatcher]struct{}
}

type memSession struct {
	record  []byte
	expires time.Time
}

type memWatcher struct{ changed func(uint64) }

// NewMemory returns an empty store whose events are kept by an
// eventstore.Memory bounded by events.
func NewMemory(events eventstore.MemoryOptions) *Memory {
	return &Memory{
		events:   eventstore.NewMemory(events),
		sessions: map[string]memSession{},
		watchers: map[*memWatcher]struct{}{},
	}
}

// SaveSession implements Store.
func (m *Memory) SaveSession(_ context.Context, id string, record []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[id] = memSession{record: record, expires: time.Now().Add(ttl)}
	return nil
}

// LoadSession implements Store.
func (m *Memory) LoadSession(_ context.Context, id string, ttl time.Duration) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok || time.Now().After(s.expires) {
		delete(m.sessions, id)
		return nil, nil
	}
	s.expires = time.Now().Add(ttl)
	m.sessions[id] = s
	return s.record, nil
}

// DeleteSession implements Store.
func (m *Memory) DeleteSession(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, id)
	return nil
}

// Events implements Store.
func (m *Memory) Events() eventstore.Store { return m.events }

// Overlay implements Store.
func (m *Memory) Overlay(context.Context) (Overlay, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Overlay{Version: m.overlay.Version, Lifecycles: maps.Clone(m.overlay.Lifecycles)}, nil
}

// SetOverlay implements Store.
func (m *Memory) SetOverlay(_ context.Context, read uint64, lifecycles map[string]estate.Lifecycle) (Overlay, error) {
	m.mu.Lock()
	if m.overlay.Version != read {
		m.mu.Unlock()
		return Overlay{}, ErrConflict
	}
	m.overlay = Overlay{Version: read + 1, Lifecycles: maps.Clone(lifecycles)}
	o := Overlay{Version: m.overlay.Version, Lifecycles: maps.Clone(lifecycles)}
	watchers := make([]*memWatcher, 0, len(m.watchers))
	for w := range m.watchers {
		watchers = append(watchers, w)
	}
	m.mu.Unlock()
	for _, w := range watchers {
		w.changed(o.Version)
	}
	return o, nil
}

// Watch implements Store.
func (m *Memory) Watch(ctx context.Context, changed func(version uint64)) {
	w := &memWatcher{changed: changed}
	m.mu.Lock()
	m.watchers[w] = struct{}{}
	m.mu.Unlock()
	<-ctx.Done()
	m.mu.Lock()
	delete(m.watchers, w)
	m.mu.Unlock()
}

// Ping implements Store: memory is always there.
func (m *Memory) Ping(context.Context) error { return nil }

// Close implements Store.
func (m *Memory) Close() error { return nil }
