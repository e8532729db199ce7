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
