package auth

import (
	"crypto/sha256"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

const (
	// DefaultCacheSize is JWTConfig.CacheSize when zero: as many callers
	// as a large service sees within a few minutes, each a few hundred
	// bytes (see tokenCache).
	DefaultCacheSize = 4096
	// DefaultCacheFor is JWTConfig.CacheFor when zero. A verification is
	// remembered at most this long, so a key the issuer withdraws from
	// its key set stops being honoured at most this long after the
	// server's next fetch of the set.
	DefaultCacheFor = 5 * time.Minute
	// maxCachedToken is the longest token whose verification is
	// remembered: an access token is a kilobyte or two, and the principal
	// remembered for it is a part of its text, so the cache's memory is at
	// most its size times this.
	maxCachedToken = 4 << 10
)

// tokenCache remembers the principals of tokens verified lately, so that
// a client presenting its token on every request, as MCP clients do,
// pays for the token's signature once, not on each request (one
// verification is 40 to 70 µs; a remembered one a hash and a map look-up).
//
// A token is known by its SHA-256 digest, never by its text: a look-up
// compares digests, so neither a collision nor the time a comparison takes
// tells a caller anything about a token it does not hold. Only tokens
// that verified are remembered, each until the earlier of its expiry and
// the remembering's bound (JWTConfig.CacheFor); refusals are not, so a
// caller cannot fill the cache with tokens of its own making.
//
// Requests that present a token no one has verified yet while one of
// them verifies it wait for that verification rather than make their
// own: a client that opens with many requests at once, or whose
// requests are in flight when the token's remembering ends, costs one
// verification, not one per request.
//
// The cache is two generations of at most half its size each: tokens go
// into the recent one, and when it is full it becomes the older one,
// whose tokens are forgotten. A token found in the older one moves to the
// recent one. What is forgotten is thus what was not presented since the
// last turn, at the cost of one map per generation and no list to keep
// in order.
type tokenCache struct {
	half int           // the most tokens one generation holds
	keep time.Duration // how long a verification is remembered at most

	mu     sync.Mutex
	recent map[tokenDigest]cachedPrincipal
	older  map[tokenDigest]cachedPrincipal
	// verifying holds the verifications under way, by token, for the
	// requests that present the same token meanwhile.
	verifying map[tokenDigest]*verification
}

// verification is one token's verification under way: done is closed
// once p, exp and err are its outcome.
type verification struct {
	done chan struct{}
	p    estate.Principal
	exp  time.Time
	err  error
}

type tokenDigest [sha256.Size]byte

type cachedPrincipal struct {
	p     estate.Principal
	until time.Time // when the token is verified again
}

// newTokenCache returns a cache of at most size tokens (an odd size
// rounded up), each remembered at most keep, or nil when size is
// negative: no cache.
func newTokenCache(size int, keep time.Duration) *tokenCache {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultCacheSize
	}
	if keep <= 0 {
		keep = DefaultCacheFor
	}
	half := (size + 1) / 2
	return &tokenCache{half: half, keep: keep, recent: make(map[tokenDigest]cachedPrincipal)}
}

// digest is the key of raw, a token, or false when raw is too long to be
// remembered (see maxCachedToken).
func digest(raw string) (tokenDigest, bool) {
	if len(raw) > maxCachedToken {
		return tokenDigest{}, false
	}
	// The digest only reads the token's bytes.
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(raw), len(raw))), true
}

// get returns the principal remembered for the token of digest d, if its
// verification is remembered still at now. c.mu is held.
func (c *tokenCache) get(d tokenDigest, now time.Time) (estate.Principal, bool) {
	e, ok := c.recent[d]
	if !ok {
		if e, ok = c.older[d]; !ok {
			return estate.Principal{}, false
		}
		delete(c.older, d)
		c.add(d, e)
	}
	if !now.Before(e.until) {
		delete(c.recent, d)
		return estate.Principal{}, false
	}
	return e.p, true
}

// lookUp returns the principal remembered for the token of digest d at
// now (v nil); or, when none is, the verification of the token under way,
// which the caller waits for (mine false), or one the caller is to make
// and end (mine true).
func (c *tokenCache) lookUp(d tokenDigest, now time.Time) (p estate.Principal, v *verification, mine bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.get(d, now); ok {
		return p, nil, false
	}
	if v = c.verifying[d]; v != nil {
		return p, v, false
	}
	if c.verifying == nil {
		c.verifying = make(map[tokenDigest]*verification)
	}
	v = &verification{done: make(chan struct{})}
	c.verifying[d] = v
	return p, v, true
}

// end ends v, the verification of the token of digest d made at now,
// with its outcome: a principal that verified is remembered, and those
// waiting for v are let go.
func (c *tokenCache) end(d tokenDigest, v *verification, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.verifying, d)
	close(v.done)
	if v.err != nil {
		return
	}
	until := now.Add(c.keep)
	if v.exp.Before(until) {
		until = v.exp
	}
	if now.Before(until) {
		c.add(d, cachedPrincipal{p: v.p, until: until})
	}
}

// add puts e in the recent generation, turning generations first when it
// is full. c.mu is held.
func (c *tokenCache) add(d tokenDigest, e cachedPrincipal) {
	if _, present := c.recent[d]; !present && len(c.recent) >= c.half {
		c.older, c.recent = c.recent, make(map[tokenDigest]cachedPrincipal, c.half)
	}
	c.recent[d] = e
}
