package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// ApplyLifecycle applies the lifecycle file's changes to r, all or none.
// The whole file is read first: one JSON object, no key twice (a second
// value for a key would silently win), each key name@X.Y.Z. The registry
// then checks every change against the estate and applies them together,
// or none (estate.Registry.ChangeLifecycles): a file naming one version
// that does not exist leaves every other version as it was. A change
// applied already is no change, so applying the same file again is
// harmless; clients get notifications/tools/list_changed once for a file
// that changed something.
func ApplyLifecycle(r *estate.Registry, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return applyLifecycle(r, file, data)
}

func applyLifecycle(r *estate.Registry, file string, data []byte) error {
	var changes []estate.LifecycleChange
	var problems []error
	err := jsonrpc.ForEachMember(data, func(key string, value json.RawMessage) error {
		name, version, ok := strings.Cut(key, "@")
		if !ok {
			problems = append(problems, fmt.Errorf("%q is not name@X.Y.Z", key))
			return nil
		}
		to, _ := jsonrpc.Unquote(value)
		changes = append(changes, estate.LifecycleChange{Name: name, Version: version, To: estate.Lifecycle(to)})
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: not a JSON object of name@X.Y.Z to lifecycle: %v; nothing was changed", file, err)
	}
	if err := errors.Join(append(problems, r.ChangeLifecycles(changes))...); err != nil {
		return fmt.Errorf("%s: nothing was changed: %w", file, err)
	}
	return nil
}

// watchLifecycle applies the file again on every SIGHUP and, every poll
// (0: never), when its content differs from what was last applied, until
// ctx is done. applied is the content applied at start. A file that fails
// to apply is logged and leaves the estate as it was; the same content
// is not tried again until it changes or SIGHUP asks.
func watchLifecycle(ctx context.Context, r *estate.Registry, file string, applied []byte, poll time.Duration, logger *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		forced := false
		select {
		case <-ctx.Done():
			return
		case <-hup:
			forced = true
		case <-tick:
		}
		data, err := os.ReadFile(file)
		switch {
		case err != nil:
			if forced {
				logger.Error("lifecycle reload failed", "file", file, "error", err)
			}
			continue
		case !forced && bytes.Equal(data, applied):
			continue
		}
		applied = data
		if err := applyLifecycle(r, file, data); err != nil {
			logger.Error("lifecycle reload failed", "file", file, "error", err)
		} else {
			logger.Info("lifecycle reloaded", "file", file)
		}
	}
}
