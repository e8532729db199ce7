package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/eventstore"
)

// Defaults of RedisOptions.
const (
	// DefaultMaxStreamEvents keeps some hundreds of progress
	// notifications and the answer of one request's stream.
	DefaultMaxStreamEvents = 1024
	// DefaultStreamTTL is how long a stream's events outlive its last
	// event: a client resumes within seconds or minutes of a break, and
	// a stream nobody forgot (its replica died) must not stay for good.
	DefaultStreamTTL = 30 * time.Minute
	// DefaultRedisTimeout bounds one command: a Redis that does not
	// answer within it is one this replica cannot read, and it says so
	// (readiness, errors) rather than hold requests.
	DefaultRedisTimeout = time.Second
)

// RedisOptions configure a Redis store. The zero value is the defaults.
type RedisOptions struct {
	// Prefix starts every key and channel, so that several services
	// share one Redis server; "" means "mcp:".
	Prefix string
	// MaxStreamEvents bounds the events one stream keeps: past it the
	// oldest are dropped (and a replay from before them fails with
	// eventstore.ErrDropped). Zero means DefaultMaxStreamEvents.
	MaxStreamEvents int
	// StreamTTL is how long a stream is kept after its last event; zero
	// means DefaultStreamTTL.
	StreamTTL time.Duration
	// Timeout bounds each command where the URL sets no read_timeout;
	// zero means DefaultRedisTimeout.
	Timeout time.Duration
	// Logger, when set, receives what the Redis client reports (a
	// connection it could not make, at warning level) instead of its
	// plain lines on stderr, which a service's JSON log would not parse.
	// The Redis client has one logger per process: the last store opened
	// with a Logger sets it.
	Logger *slog.Logger
}

// redisLog is the Redis client's logger as structured records.
type redisLog struct{ l *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, "redis client", "message", fmt.Sprintf(format, v...))
}

// Redis is the Store of a Redis server that every replica names. Keys:
//
//	<prefix>session:<id>                 a session's record, expiring
//	<prefix>events:<session>             the names of a session's streams
//	<prefix>events:<session>:<stream>:m  a stream's first and next positions
//	<prefix>events:<session>:<stream>:l  a stream's kept events, oldest first
//	<prefix>lifecycle                    the overlay: version and lifecycles
//
// and the channel <prefix>lifecycle:changed, on which each overlay change
// publishes its version. Every change of more than one key is a Lua
// script, which Redis runs atomically.
type Redis struct {
	c         *redis.Client
	prefix    string
	maxEvents int
	streamTTL time.Duration
}

// NewRedis connects to the Redis server rawURL names, as
// redis://[user:password@]host:port[/db][?options] (rediss:// for TLS;
// the options are go-redis's, such as dial_timeout). It does not wait
// for the server: Ping says whether it is there.
func NewRedis(rawURL string, opts RedisOptions) (*Redis, error) {
	o, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("fleet: %v", err)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultRedisTimeout
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = timeout
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = timeout
	}
	if o.DialTimeout == 0 {
		o.DialTimeout = timeout
	}
	// A command fails once, fast, rather than retrying into the
	// request's time: the caller answers with an error it can retry.
	o.MaxRetries = -1
	if opts.Logger != nil {
		redis.SetLogger(redisLog{opts.Logger})
	}
	if opts.Prefix == "" {
		opts.Prefix = "mcp:"
	}
	if opts.MaxStreamEvents <= 0 {
		opts.MaxStreamEvents = DefaultMaxStreamEvents
	}
	if opts.StreamTTL <= 0 {
		opts.StreamTTL = DefaultStreamTTL
	}
	return &Redis{c: redis.NewClient(o), prefix: opts.Prefix, maxEvents: opts.MaxStreamEvents, streamTTL: opts.StreamTTL}, nil
}

func (r *Redis) sessionKey(id string) string { return r.prefix + "session:" + id }
func (r *Redis) overlayKey() string          { return r.prefix + "lifecycle" }
func (r *Redis) overlayChannel() string      { return r.prefix + "lifecycle:changed" }
func (r *Redis) sessionEventsKey(session string) string {
	return r.prefix + "events:" + session
}
func (r *Redis) streamKeys(session, stream string) (meta, events string) {
	k := r.sessionEventsKey(session) + ":" + stream
	return k + ":m", k + ":l"
}

// SaveSession implements Store.
func (r *Redis) SaveSession(ctx context.Context, id string, record []byte, ttl time.Duration) error {
	return r.c.Set(ctx, r.sessionKey(id), record, ttl).Err()
}

// LoadSession implements Store.
func (r *Redis) LoadSession(ctx context.Context, id string, ttl time.Duration) ([]byte, error) {
	b, err := r.c.GetEx(ctx, r.sessionKey(id), ttl).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return b, err
}

// DeleteSession implements Store.
func (r *Redis) DeleteSession(ctx context.Context, id string) error {
	return r.c.Del(ctx, r.sessionKey(id)).Err()
}

// Events implements Store.
func (r *Redis) Events() eventstore.Store { return redisEvents{r} }

// Overlay implements Store.
func (r *Redis) Overlay(ctx context.Context) (Overlay, error) {
	vals, err := r.c.HMGet(ctx, r.overlayKey(), "version", "lifecycles").Result()
	if err != nil {
		return Overlay{}, err
	}
	return parseOverlay(vals[0], vals[1])
}

func parseOverlay(version, lifecycles any) (Overlay, error) {
	o := Overlay{Lifecycles: map[string]estate.Lifecycle{}}
	v, _ := version.(string)
	l, _ := lifecycles.(string)
	if v == "" {
		return o, nil
	}
	var err error
	if o.Version, err = strconv.ParseUint(v, 10, 64); err != nil {
		return Overlay{}, fmt.Errorf("fleet: the lifecycle overlay's version %q: %v", v, err)
	}
	if err := json.Unmarshal([]byte(l), &o.Lifecycles); err != nil {
		return Overlay{}, fmt.Errorf("fleet: the lifecycle overlay: %v", err)
	}
	return o, nil
}

// setOverlay replaces the overlay if its version is ARGV[1], and
// publishes the new version; -1 when the version is another.
var setOverlay = redis.NewScript(`
local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'version', v + 1, 'lifecycles', ARGV[2])
redis.call('PUBLISH', ARGV[3], v + 1)
return v + 1
`)

// SetOverlay implements Store.
func (r *Redis) SetOverlay(ctx context.Context, read uint64, lifecycles map[string]estate.Lifecycle) (Overlay, error) {
	if lifecycles == nil {
		lifecycles = map[string]estate.Lifecycle{}
	}
	data, err := json.Marshal(lifecycles)
	if err != nil {
		return Overlay{}, err
	}
	v, err := setOverlay.Run(ctx, r.c, []string{r.overlayKey()}, read, data, r.overlayChannel()).Int64()
	switch {
	case err != nil:
		return Overlay{}, err
	case v < 0:
		return Overlay{}, ErrConflict
	}
	return Overlay{Version: uint64(v), Lifecycles: lifecycles}, nil
}

// Watch implements Store. go-redis re-subscribes after a broken
// connection; what was published meanwhile is lost, which the periodic
// read catches.
func (r *Redis) Watch(ctx context.Context, changed func(version uint64)) {
	ps := r.c.Subscribe(ctx, r.overlayChannel())
	defer ps.Close()
	ch := ps.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-ch:
			if !ok {
				return
			}
			if v, err := strconv.ParseUint(m.Payload, 10, 64); err == nil {
				changed(v)
			}
		}
	}
}

// Ping implements Store.
func (r *Redis) Ping(ctx context.Context) error { return r.c.Ping(ctx).Err() }

// Close implements Store.
func (r *Redis) Close() error { return r.c.Close() }

// redisEvents is the eventstore.Store of a Redis store.
type redisEvents struct{ r *Redis }

// appendEvent appends ARGV[2] at position ARGV[1] (see
// eventstore.Store.Append), keeps the newest ARGV[3] events, and keeps the
// stream for ARGV[4] milliseconds; ARGV[5] is the stream's name, listed in
// its session's set KEYS[3].
var appendEvent = redis.NewScript(`
local pos = tonumber(ARGV[1])
local nxt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if nxt == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'first', pos)
elseif pos ~= nxt then
  return redis.error_reply('OUTOFORDER')
end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[1], 'next', pos + 1)
local n = redis.call('LLEN', KEYS[2])
local max = tonumber(ARGV[3])
if n > max then
  redis.call('LTRIM', KEYS[2], n - max, -1)
  redis.call('HINCRBY', KEYS[1], 'first', n - max)
end
redis.call('SADD', KEYS[3], ARGV[5])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
return 1
`)

func (e redisEvents) Append(ctx context.Context, session, stream string, pos uint64, data []byte) error {
	if pos == 0 {
		return eventstore.ErrOutOfOrder
	}
	meta, events := e.r.streamKeys(session, stream)
	err := appendEvent.Run(ctx, e.r.c, []string{meta, events, e.r.sessionEventsKey(session)},
		pos, data, e.r.maxEvents, e.r.streamTTL.Milliseconds(), stream).Err()
	if err != nil && strings.Contains(err.Error(), "OUTOFORDER") {
		return eventstore.ErrOutOfOrder
	}
	return err
}

// eventsAfter returns the stream's first and next positions, then its
// events after position ARGV[1] when it holds them all; nothing when
// there is no such stream.
var eventsAfter = redis.NewScript(`
local first = redis.call('HGET', KEYS[1], 'first')
if not first then return {} end
local nxt = redis.call('HGET', KEYS[1], 'next')
local out = {first, nxt}
local pos = tonumber(ARGV[1])
first = tonumber(first)
if pos + 1 >= first and pos < tonumber(nxt) then
  for _, d in ipairs(redis.call('LRANGE', KEYS[2], pos + 1 - first, -1)) do
    out[#out + 1] = d
  end
end
return out
`)

func (e redisEvents) After(ctx context.Context, session, stream string, pos uint64) ([]eventstore.Event, error) {
	meta, events := e.r.streamKeys(session, stream)
	vals, err := eventsAfter.Run(ctx, e.r.c, []string{meta, events}, pos).StringSlice()
	if err != nil {
		return nil, err
	}
	if len(vals) < 2 {
		return nil, eventstore.ErrUnknown
	}
	first, err1 := strconv.ParseUint(vals[0], 10, 64)
	next, err2 := strconv.ParseUint(vals[1], 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return nil, fmt.Errorf("fleet: stream %s: positions %q, %q", stream, vals[0], vals[1])
	case pos >= next:
		return nil, eventstore.ErrUnknown
	case pos+1 < first:
		return nil, eventstore.ErrDropped
	}
	out := make([]eventstore.Event, len(vals)-2)
	for i, d := range vals[2:] {
		out[i] = eventstore.Event{Pos: pos + 1 + uint64(i), Data: []byte(d)}
	}
	return out, nil
}

func (e redisEvents) ForgetStream(ctx context.Context, session, stream string) error {
	meta, events := e.r.streamKeys(session, stream)
	_, err := e.r.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, meta, events)
		p.SRem(ctx, e.r.sessionEventsKey(session), stream)
		return nil
	})
	return err
}

// forgetSession deletes every stream listed in KEYS[1], whose names are
// under the prefix ARGV[1], and the list.
var forgetSession = redis.NewScript(`
for _, s in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. s .. ':m', ARGV[1] .. s .. ':l')
end
redis.call('DEL', KEYS[1])
return 1
`)

func (e redisEvents) ForgetSession(ctx context.Context, session string) error {
	key := e.r.sessionEventsKey(session)
	return forgetSession.Run(ctx, e.r.c, []string{key}, key+":").Err()
}
