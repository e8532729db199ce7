package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
	"github.com/mcpgen/mcpgen/runtime/fleet"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// A Store is what a Streamable HTTP handler shares its sessions through.
var _ mcphttp.SessionStore = fleet.Store(nil)

// stores returns each implementation, two handles on the same state where
// the store is shared (a second replica's view), or the same handle.
func stores(t *testing.T) map[string][2]fleet.Store {
	mem := fleet.NewMemory(eventstore.MemoryOptions{})
	out := map[string][2]fleet.Store{"memory": {mem, mem}}
	srv := redistest.Start(t)
	var pair [2]fleet.Store
	for i := range pair {
		r, err := fleet.NewRedis(srv.URL(), fleet.RedisOptions{Prefix: "test:", MaxStreamEvents: 3})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		pair[i] = r
	}
	out["redis"] = pair
	return out
}

func TestSessions(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := s[0], s[1]
			if rec, err := b.LoadSession(ctx, "s1", time.Minute); rec != nil || err != nil {
				t.Fatalf("LoadSession of nothing: %q, %v, want nil, nil", rec, err)
			}
			if err := a.SaveSession(ctx, "s1", []byte("record"), time.Minute); err != nil {
				t.Fatal(err)
			}
			got, err := b.LoadSession(ctx, "s1", time.Minute)
			if err != nil || string(got) != "record" {
				t.Fatalf("LoadSession: %q, %v", got, err)
			}
			if err := b.DeleteSession(ctx, "s1"); err != nil {
				t.Fatal(err)
			}
			if rec, err := a.LoadSession(ctx, "s1", time.Minute); rec != nil || err != nil {
				t.Fatalf("LoadSession after DeleteSession: %q, %v", rec, err)
			}
		})
	}
}

func TestSessionsExpire(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			if err := s[0].SaveSession(ctx, "brief", []byte("x"), time.Millisecond); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				rec, err := s[1].LoadSession(ctx, "brief", time.Millisecond)
				if rec == nil && err == nil {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("a session saved for 1ms is still there: %v", err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}

func TestEvents(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["redis"]
	w, r := s[0].Events(), s[1].Events()
	if err := w.Append(ctx, "sess", "st", 2, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(ctx, "sess", "st", 4, []byte("d")); !errors.Is(err, eventstore.ErrOutOfOrder) {
		t.Fatalf("Append out of order: %v", err)
	}
	if _, err := r.After(ctx, "sess", "st", 0); !errors.Is(err, eventstore.ErrDropped) {
		t.Fatalf("After before a stream's first event: %v, want ErrDropped", err)
	}
	for pos, d := range []string{3: "c", 4: "d", 5: "e"} {
		if d != "" {
			if err := w.Append(ctx, "sess", "st", uint64(pos), []byte(d)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// MaxStreamEvents 3 keeps c, d, e: b was dropped.
	if _, err := r.After(ctx, "sess", "st", 1); !errors.Is(err, eventstore.ErrDropped) {
		t.Fatalf("After past the bound: %v, want ErrDropped", err)
	}
	got, err := r.After(ctx, "sess", "st", 3)
	if err != nil || len(got) != 2 || got[0].Pos != 4 || string(got[0].Data) != "d" || got[1].Pos != 5 || string(got[1].Data) != "e" {
		t.Fatalf("After 3: %v, %v", got, err)
	}
	if got, err := r.After(ctx, "sess", "st", 5); err != nil || len(got) != 0 {
		t.Fatalf("After the last: %v, %v", got, err)
	}
	if _, err := r.After(ctx, "sess", "st", 6); !errors.Is(err, eventstore.ErrUnknown) {
		t.Fatalf("After past the last: %v, want ErrUnknown", err)
	}
	if err := w.Append(ctx, "sess", "other", 1, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := w.ForgetStream(ctx, "sess", "st"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.After(ctx, "sess", "st", 3); !errors.Is(err, eventstore.ErrUnknown) {
		t.Fatalf("After a forgotten stream: %v", err)
	}
	if got, err := r.After(ctx, "sess", "other", 0); err != nil || len(got) != 1 {
		t.Fatalf("the other stream: %v, %v", got, err)
	}
	if err := w.ForgetSession(ctx, "sess"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.After(ctx, "sess", "other", 0); !errors.Is(err, eventstore.ErrUnknown) {
		t.Fatalf("After a forgotten session: %v", err)
	}
}

func TestOverlay(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := s[0], s[1]
			watchCtx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			seen := make(chan uint64, 4)
			wg.Add(1)
			go func() { defer wg.Done(); b.Watch(watchCtx, func(v uint64) { seen <- v }) }()
			defer func() { stop(); wg.Wait() }()

			o, err := b.Overlay(ctx)
			if err != nil || o.Version != 0 || len(o.Lifecycles) != 0 {
				t.Fatalf("the first overlay: %+v, %v", o, err)
			}
			want := map[string]estate.Lifecycle{"pay@1.0.0": estate.Deprecated}
			// The watcher subscribes on its own goroutine: change until it
			// has heard one, each change from the version last read.
			for {
				o, err = a.SetOverlay(ctx, o.Version, want)
				if err != nil {
					t.Fatal(err)
				}
				select {
				case v := <-seen:
					if v > o.Version || v == 0 {
						t.Fatalf("told of version %d after setting %d", v, o.Version)
					}
				case <-time.After(50 * time.Millisecond):
					continue
				}
				break
			}
			got, err := b.Overlay(ctx)
			if err != nil || got.Version == 0 || got.Lifecycles["pay@1.0.0"] != estate.Deprecated {
				t.Fatalf("the overlay read back: %+v, %v", got, err)
			}
			if _, err := a.SetOverlay(ctx, got.Version-1, nil); !errors.Is(err, fleet.ErrConflict) {
				t.Fatalf("SetOverlay from a stale version: %v, want ErrConflict", err)
			}
		})
	}
}

func TestRedisGone(t *testing.T) {
	srv := redistest.Start(t)
	r, err := fleet.NewRedis(srv.URL(), fleet.RedisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	if err := r.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if err := r.Ping(ctx); err == nil {
		t.Fatal("Ping with Redis stopped: no error")
	}
	if _, err := r.Overlay(ctx); err == nil {
		t.Fatal("Overlay with Redis stopped: no error")
	}
	if _, err := r.LoadSession(ctx, "x", time.Minute); err == nil {
		t.Fatal("LoadSession with Redis stopped: no error, as if the session did not exist")
	}
	srv.Restart()
	if err := r.Ping(ctx); err != nil {
		t.Fatalf("Ping once Redis is back: %v", err)
	}
}

// TestRedisMemoryPerSession writes 10,000 session records of the size a
// Go SDK client's session has (its principal, the revision, the
// capabilities it declares) and logs what Redis holds per session: the
// figure behind the sizing of a fleet in docs/fleet.md.
func TestRedisMemoryPerSession(t *testing.T) {
	srv := redistest.Start(t)
	r, err := fleet.NewRedis(srv.URL(), fleet.RedisOptions{Prefix: "mcp:bankpayments:"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer c.Close()
	ctx := context.Background()
	used := func() int64 {
		info, err := c.Info(ctx, "memory").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		t.Fatal("INFO memory has no used_memory")
		return 0
	}
	record := []byte(`{"principal":{"AgentID":"payments-investigator","Tenant":"wholesale","Scopes":["payments.read","crm.write"],` +
		`"MaxClassification":"confidential"},"state":{"revision":"2025-11-25","initialized":true,` +
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{}}}}`)
	const sessions = 10000
	before := used()
	for i := range sessions {
		if err := r.SaveSession(ctx, fmt.Sprintf("%032x", i), record, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(used()-before) / sessions
	if per < float64(len(record)) {
		t.Fatalf("%.0f bytes per session, less than its %d-byte record", per, len(record))
	}
	t.Logf("Redis holds %.0f bytes per session (a %d-byte record): %.1f MiB for %d sessions", per, len(record), per*sessions/(1<<20), sessions)
}
