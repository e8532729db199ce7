package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/fleet"
)

// DefaultStoreCheck is how often a shared store is pinged for readiness
// and its lifecycle overlay re-read: a replica that missed a change's
// notification, or lost the store, knows it within this period.
const DefaultStoreCheck = time.Second

// openStore opens the store -store names: the memory of this process
// ("" or "memory"), or a Redis server (redis:// or rediss://), whose keys
// start with the service's name so that services share a server.
func (s *Service) openStore(cfg *Config, logger *slog.Logger) (fleet.Store, error) {
	switch {
	case cfg.Store == "" || cfg.Store == "memory":
		return fleet.NewMemory(eventstore.MemoryOptions{}), nil
	case strings.HasPrefix(cfg.Store, "redis://"), strings.HasPrefix(cfg.Store, "rediss://"):
		return fleet.NewRedis(cfg.Store, fleet.RedisOptions{Prefix: "mcp:" + s.name() + ":", Logger: logger})
	}
	return nil, fmt.Errorf("-store %q: want memory, or a redis:// or rediss:// URL", cfg.Store)
}

// shared says whether cfg names a store other processes share.
func (c *Config) shared() bool { return c.Store != "" && c.Store != "memory" }

// overlayJSON is the overlay as a lifecycle file's JSON, which
// applyLifecycle reads: one parser and one set of rules for both.
func overlayJSON(lifecycles map[string]estate.Lifecycle) []byte {
	data, _ := json.Marshal(lifecycles)
	return data
}

// applyOverlay applies the store's overlay to r, all or none.
func applyOverlay(r *estate.Registry, o fleet.Overlay) error {
	return applyLifecycle(r, fmt.Sprintf("the lifecycle overlay (version %d)", o.Version), overlayJSON(o.Lifecycles))
}

// fleetState is a replica's view of its shared store: whether it could
// read it at the last check, and the overlay version it applied. A
// replica that cannot read the store is not ready, and its endpoint
// answers no request: it would answer against a lifecycle it may no
// longer have.
type fleetState struct {
	store   fleet.Store
	problem atomic.Pointer[string] // why the store is unusable; nil when it is fine
	applied atomic.Uint64          // the overlay version applied
}

// err reports why the store is unusable, or nil.
func (f *fleetState) err() error {
	if p := f.problem.Load(); p != nil {
		return errors.New(*p)
	}
	return nil
}

func (f *fleetState) fail(err error) {
	msg := "the shared store cannot be read: " + err.Error()
	f.problem.Store(&msg)
}

// sync reads the overlay and applies it when it is newer than the one
// applied. An overlay the registry refuses (written by another build of
// the service, naming a version this one does not have) is logged and
// skipped: the replica keeps serving what it has, and says so.
func (f *fleetState) sync(ctx context.Context, r *estate.Registry, logger *slog.Logger) error {
	o, err := f.store.Overlay(ctx)
	if err != nil {
		f.fail(err)
		return err
	}
	f.problem.Store(nil)
	if o.Version <= f.applied.Load() {
		return nil
	}
	err = applyOverlay(r, o)
	f.applied.Store(o.Version)
	if err != nil {
		logger.Error("lifecycle overlay refused", "version", o.Version, "error", err)
		return err
	}
	logger.Info("lifecycle overlay applied", "version", o.Version)
	return nil
}

// follow keeps the overlay applied until ctx is done: at once when the
// store tells of a change, and every check period whatever it told,
// which also pings the store for readiness.
func (f *fleetState) follow(ctx context.Context, r *estate.Registry, check time.Duration, logger *slog.Logger) {
	told := make(chan struct{}, 1)
	go f.store.Watch(ctx, func(uint64) {
		select {
		case told <- struct{}{}:
		default:
		}
	})
	t := time.NewTicker(check)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-told:
		case <-t.C:
		}
		was := f.err()
		err := func() error {
			ctx, cancel := context.WithTimeout(ctx, check)
			defer cancel()
			if err := f.store.Ping(ctx); err != nil {
				f.fail(err)
				return err
			}
			return f.sync(ctx, r, logger)
		}()
		now := f.err()
		switch {
		case was == nil && now != nil:
			logger.Error("shared store lost", "error", err)
		case was != nil && now == nil:
			logger.Info("shared store back")
		}
	}
}

// setLifecycle is -lifecycle-set: it applies changes, name@X.Y.Z=state
// comma-separated, to the shared overlay, once for the fleet. The
// registry this process built decides whether they are legal: the
// overlay as it is is applied to it first, then the changes, by the rules
// every replica applies them with (estate.Registry.ChangeLifecycles), so
// a change refused here would be refused there. A change another
// operator made meanwhile is read again, and the changes checked again.
func setLifecycle(ctx context.Context, store fleet.Store, newRegistry func() (*estate.Registry, error), spec string, out io.Writer) error {
	changes := map[string]estate.Lifecycle{}
	for _, c := range list(spec) {
		key, to, ok := strings.Cut(c, "=")
		if !ok {
			return fmt.Errorf("-lifecycle-set %q: want name@X.Y.Z=state", c)
		}
		changes[key] = estate.Lifecycle(to)
	}
	for {
		o, err := store.Overlay(ctx)
		if err != nil {
			return err
		}
		r, err := newRegistry()
		if err != nil {
			return err
		}
		if err := applyOverlay(r, o); err != nil {
			return err
		}
		if err := applyLifecycle(r, "-lifecycle-set", overlayJSON(changes)); err != nil {
			return err
		}
		next := maps.Clone(o.Lifecycles)
		if next == nil {
			next = map[string]estate.Lifecycle{}
		}
		maps.Copy(next, changes)
		set, err := store.SetOverlay(ctx, o.Version, next)
		if errors.Is(err, fleet.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "lifecycle overlay version %d: %s\n", set.Version, overlayJSON(set.Lifecycles))
		return nil
	}
}
