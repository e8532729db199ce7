// Package fleet holds what the replicas of one service behind a load
// balancer must share, so that any replica can answer any request: the
// handshake-era sessions (their id, the principal they are bound to, the
// negotiated revision, the client's capabilities), the events of
// resumable streams (an eventstore.Store), and the lifecycle overlay with
// its change notifications.
//
// Two stores implement it: Memory, the default, for one process with
// nothing to run beside it, and Redis, shared by every replica that names
// the same Redis server and key prefix.
//
// The lifecycle overlay is the fleet's record of lifecycle changes, as
// name@X.Y.Z to lifecycle, on top of what the manifests published. It is
// versioned: each change replaces it whole, only if the version it was
// read at is still the current one (SetOverlay, ErrConflict otherwise),
// so two operators changing it at once never lose one's change. A replica
// is told of a change (Watch), re-reads the overlay and applies it when
// its version is newer than the one it applied; it also re-reads it on a
// period, so that a notification it missed (a dropped pub/sub connection)
// costs a delay, never a replica that disagrees for good.
package fleet

import (
	"context"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
)

// Overlay is the lifecycle overlay at one version: Lifecycles maps
// name@X.Y.Z to the lifecycle the fleet set. Version 0 is the empty
// overlay no change has written yet.
type Overlay struct {
	Version    uint64
	Lifecycles map[string]estate.Lifecycle
}

var (
	// ErrConflict is SetOverlay's error when the overlay changed since
	// the version the caller read: read it again and decide again.
	ErrConflict = errors.New("fleet: the lifecycle overlay changed since it was read")
)

// Store is what replicas share. Its methods are safe for concurrent use.
// A method that could not reach the shared state returns an error, never
// a guess: a replica that cannot read the state must not answer as if it
// had.
//
// A Store is the mcphttp.SessionStore and eventstore.Store of the
// replicas' Streamable HTTP handlers.
type Store interface {
	// SaveSession keeps a session's record under its id for ttl from
	// now, replacing what was kept.
	SaveSession(ctx context.Context, id string, record []byte, ttl time.Duration) error
	// LoadSession returns the session's record and keeps it for ttl
	// from now: a session in use does not expire. The record is nil when
	// there is none: the store never had it, the session ended, or it
	// expired.
	LoadSession(ctx context.Context, id string, ttl time.Duration) ([]byte, error)
	// DeleteSession forgets a session.
	DeleteSession(ctx context.Context, id string) error

	// Events keeps resumable streams' events, bounded per stream.
	Events() eventstore.Store

	// Overlay returns the lifecycle overlay as it is now.
	Overlay(ctx context.Context) (Overlay, error)
	// SetOverlay replaces the overlay by lifecycles, as version
	// read+1, if its version is still read; ErrConflict otherwise.
	// Every Watch is told of the new version.
	SetOverlay(ctx context.Context, read uint64, lifecycles map[string]estate.Lifecycle) (Overlay, error)
	// Watch calls changed with the version of each overlay change it is
	// told about, until ctx is done. A notification may be missed (the
	// connection to the store broke): a replica also reads the overlay
	// on a period.
	Watch(ctx context.Context, changed func(version uint64))

	// Ping reports whether the shared state can be read now.
	Ping(ctx context.Context) error
	// Close releases the store's connections.
	Close() error
}
