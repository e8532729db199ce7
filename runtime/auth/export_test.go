package auth

import (
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// SetClock makes now the clock of j's parser and of its cache.
func SetClock(j *JWT, now func() time.Time) { j.now = now }

// CountVerifications counts the signatures j verifies from now on: each
// asks j's keys for the key once.
func CountVerifications(j *JWT) *atomic.Int64 {
	var n atomic.Int64
	keys := j.keys
	j.keys = func(t *jwt.Token) (any, error) {
		n.Add(1)
		return keys(t)
	}
	return &n
}

// Remembered is how many tokens j's cache holds, in both generations.
func Remembered(j *JWT) int {
	c := j.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.recent) + len(c.older)
}

// HoldVerifications holds every signature j verifies from now on until
// release is called, counting those begun; with panics, each then panics
// instead of verifying.
func HoldVerifications(j *JWT, panics bool) (begun *atomic.Int64, release func()) {
	var n atomic.Int64
	held := make(chan struct{})
	keys := j.keys
	j.keys = func(t *jwt.Token) (any, error) {
		n.Add(1)
		<-held
		if panics {
			panic("a key set that panics")
		}
		return keys(t)
	}
	return &n, func() { close(held) }
}
