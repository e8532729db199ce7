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
// verification is remembered still at now.
func (c *tokenCache) get(d tokenDigest, now time.Time) (estate.Principal, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
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

// put remembers p for the token of digest d, verified at now and expiring
// at exp.
func (c *tokenCache) put(d tokenDigest, p estate.Principal, now, exp time.Time) {
	until := now.Add(c.keep)
	if exp.Before(until) {
		until = exp
	}
	if !now.Before(until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(d, cachedPrincipal{p: p, until: until})
}

// add puts e in the recent generation, turning generations first when it
// is full. c.mu is held.
func (c *tokenCache) add(d tokenDigest, e cachedPrincipal) {
	if _, present := c.recent[d]; !present && len(c.recent) >= c.half {
		c.older, c.recent = c.recent, make(map[tokenDigest]cachedPrincipal, c.half)
	}
	c.recent[d] = e
}
