package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/auth"
)

// rememberingJWT is an RS256 authenticator of cfg (issuer, audience and
// key set here) on a clock the test moves, counting the signatures it
// verifies.
func rememberingJWT(t *testing.T, cfg auth.JWTConfig) (a *auth.JWT, key *rsa.PrivateKey, clock *time.Time, verified func() int64) {
	t.Helper()
	key, _ = rsa.GenerateKey(rand.Reader, 2048)
	cfg.Issuer, cfg.Audience, cfg.PublicKey = issuer, audience, &key.PublicKey
	a, err := auth.NewJWT(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	auth.SetClock(a, func() time.Time { return now })
	n := auth.CountVerifications(a)
	return a, key, &now, n.Load
}

// claimsAt are valid claims issued at iat, expiring exp later, for agent.
func claimsAt(iat time.Time, exp time.Duration, agent string) jwt.MapClaims {
	c := validClaims()
	c["sub"], c["iat"], c["exp"] = agent, iat.Unix(), iat.Add(exp).Unix()
	return c
}

// mustAuthenticate authenticates token, which must be accepted as agent.
func mustAuthenticate(t *testing.T, a *auth.JWT, token, agent string) {
	t.Helper()
	p, err := a.Authenticate(request(token))
	if err != nil || p.AgentID != agent || p.Tenant != "wholesale" || len(p.Scopes) != 2 {
		t.Fatalf("principal %+v, %v; want %s's", p, err, agent)
	}
}

func TestJWTRemembersAVerifiedToken(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{})
	alice := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "alice"), "")
	for range 3 {
		mustAuthenticate(t, a, alice, "alice")
	}
	if n := verified(); n != 1 {
		t.Fatalf("%d verifications of one token presented three times, want 1", n)
	}
	bob := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "bob"), "")
	mustAuthenticate(t, a, bob, "bob")
	mustAuthenticate(t, a, alice, "alice")
	if n := verified(); n != 2 {
		t.Fatalf("%d verifications after another token, want 2", n)
	}
}

// A remembered token is refused once it expires, and remembered no longer
// than CacheFor while it lives.
func TestJWTRemembersATokenWhileItLivesAndForAWhile(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{CacheFor: time.Minute})
	start := *clock
	short := sign(t, jwt.SigningMethodRS256, key, claimsAt(start, 90*time.Second, "short"), "")
	long := sign(t, jwt.SigningMethodRS256, key, claimsAt(start, time.Hour, "long"), "")
	mustAuthenticate(t, a, short, "short")
	mustAuthenticate(t, a, long, "long")

	*clock = start.Add(59 * time.Second)
	mustAuthenticate(t, a, short, "short")
	mustAuthenticate(t, a, long, "long")
	if n := verified(); n != 2 {
		t.Fatalf("%d verifications within CacheFor, want 2", n)
	}

	*clock = start.Add(61 * time.Second) // past CacheFor: verified again
	mustAuthenticate(t, a, short, "short")
	mustAuthenticate(t, a, long, "long")
	if n := verified(); n != 4 {
		t.Fatalf("%d verifications past CacheFor, want 4", n)
	}

	*clock = start.Add(91 * time.Second) // past the short token's expiry
	if _, err := a.Authenticate(request(short)); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("an expired token remembered: %v", err)
	}
	mustAuthenticate(t, a, long, "long")
	if n := verified(); n != 5 {
		t.Fatalf("%d verifications, want 5: the expired token's", n)
	}
}

// A token that differs from a remembered one, if only in its signature,
// is verified, and refusals are not remembered.
func TestJWTRemembersNoRefusal(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{})
	token := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "alice"), "")
	mustAuthenticate(t, a, token, "alice")
	// Another character within the signature (its last one may differ
	// only in bits the encoding leaves out).
	i := len(token) - 10
	c := byte('A')
	if token[i] == c {
		c = 'B'
	}
	forged := token[:i] + string(c) + token[i+1:]
	for range 2 {
		if _, err := a.Authenticate(request(forged)); err == nil {
			t.Fatal("a token with another signature was accepted")
		}
	}
	if n := verified(); n != 3 {
		t.Fatalf("%d verifications, want 3: the token's and the forgery's twice", n)
	}
}

func TestJWTRemembersAtMostCacheSize(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{CacheSize: 4})
	tokens := map[string]string{}
	for _, agent := range []string{"a", "b", "c", "d", "e", "f"} {
		tokens[agent] = sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, agent), "")
	}
	// Presented in this order, each step says whether the token is
	// verified (true) or remembered. The cache keeps two generations of
	// two: c turns the generations, a moves from the older to the recent
	// one, d turns them again and b, not presented since, is forgotten.
	steps := []struct {
		agent    string
		verified bool
	}{
		{"a", true}, {"b", true}, {"c", true}, {"a", false}, {"d", true},
		{"a", false}, {"b", true}, {"e", true}, {"f", true}, {"c", true},
	}
	for i, s := range steps {
		before := verified()
		mustAuthenticate(t, a, tokens[s.agent], s.agent)
		if got := verified() > before; got != s.verified {
			t.Fatalf("step %d (%s): verified %v, want %v", i, s.agent, got, s.verified)
		}
		if n := auth.Remembered(a); n > 4 {
			t.Fatalf("step %d: %d tokens remembered, at most 4", i, n)
		}
	}
}

func TestJWTRemembersNothingWhenAskedNot(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{CacheSize: -1})
	token := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "alice"), "")
	for range 3 {
		mustAuthenticate(t, a, token, "alice")
	}
	if n := verified(); n != 3 {
		t.Fatalf("%d verifications, want 3", n)
	}
}

// A token longer than a few kilobytes is verified every time: the cache's
// memory is bounded by its size times the longest token it keeps.
func TestJWTRemembersNoLongToken(t *testing.T) {
	a, key, clock, verified := rememberingJWT(t, auth.JWTConfig{})
	c := claimsAt(*clock, time.Hour, "alice")
	c["note"] = strings.Repeat("x", 5000)
	token := sign(t, jwt.SigningMethodRS256, key, c, "")
	for range 2 {
		mustAuthenticate(t, a, token, "alice")
	}
	if n := verified(); n != 2 {
		t.Fatalf("%d verifications of a %d-byte token, want 2", n, len(token))
	}
	if n := auth.Remembered(a); n != 0 {
		t.Fatalf("%d tokens remembered, want none", n)
	}
}

// Requests of many callers at once, some tokens repeated, each get their
// own principal (run with -race).
func TestJWTRemembersUnderConcurrentRequests(t *testing.T) {
	a, key, clock, _ := rememberingJWT(t, auth.JWTConfig{CacheSize: 8})
	var tokens []string
	for i := range 12 {
		tokens = append(tokens, sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, fmt.Sprint("agent-", i)), ""))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 60 {
				k := (g*7 + i*5) % len(tokens)
				p, err := a.Authenticate(request(tokens[k]))
				if err != nil || p.AgentID != fmt.Sprint("agent-", k) {
					t.Errorf("token %d: principal %+v, %v", k, p, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := auth.Remembered(a); n > 8 {
		t.Fatalf("%d tokens remembered, at most 8", n)
	}
}

// atOnce makes n requests, each present on a goroutine of its own, while
// a's verifications are held (each panicking instead, with panics): once
// the first verification began, it gives the others 50 ms to begin their
// own or wait for it, releases the verifications and waits, 10 s at most,
// for every request. It returns how many verifications had begun when
// they were released, and the count of those begun since the call.
func atOnce(t *testing.T, a *auth.JWT, panics bool, n int, present func()) (beforeRelease int64, begun *atomic.Int64) {
	t.Helper()
	begun, release := auth.HoldVerifications(a, panics)
	var wg sync.WaitGroup
	for range n {
		wg.Go(present)
	}
	for begun.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	beforeRelease = begun.Load()
	release()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("requests presented at once still wait 10 s after their verification was released")
	}
	return beforeRelease, begun
}

// Requests presenting a token no one has verified, at once, wait for the
// one verification the first of them makes, and each gets its principal:
// while it is held, no other begins (each would, without the wait, in the
// 50 ms atOnce gives them).
func TestJWTVerifiesATokenOnceForRequestsAtOnce(t *testing.T) {
	a, key, clock, _ := rememberingJWT(t, auth.JWTConfig{})
	token := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "alice"), "")
	held, begun := atOnce(t, a, false, 16, func() { mustAuthenticate(t, a, token, "alice") })
	if held != 1 || begun.Load() != 1 {
		t.Fatalf("%d verifications begun for one token presented by 16 requests at once (%d in all), want 1", held, begun.Load())
	}
}

// A refused token's verification is shared too, but not remembered: the
// requests that waited for it are refused with it, and the next request
// verifies it again.
func TestJWTSharesARefusalWithoutRememberingIt(t *testing.T) {
	a, key, clock, _ := rememberingJWT(t, auth.JWTConfig{})
	expired := sign(t, jwt.SigningMethodRS256, key, claimsAt(clock.Add(-2*time.Hour), time.Hour, "alice"), "")
	_, begun := atOnce(t, a, false, 8, func() {
		if _, err := a.Authenticate(request(expired)); err == nil {
			t.Error("an expired token was accepted")
		}
	})
	if n := begun.Load(); n != 1 {
		t.Fatalf("%d verifications begun for 8 requests at once, want 1", n)
	}
	if _, err := a.Authenticate(request(expired)); err == nil {
		t.Fatal("an expired token was accepted")
	}
	if n := begun.Load(); n != 2 {
		t.Fatalf("%d verifications after a later request, want 2: a refusal is not remembered", n)
	}
}

// A verification that panics lets the requests waiting for it go, refused,
// rather than leave them waiting for ever; the panic is its own request's.
func TestJWTVerificationThatPanicsLetsWaitersGo(t *testing.T) {
	a, key, clock, _ := rememberingJWT(t, auth.JWTConfig{})
	token := sign(t, jwt.SigningMethodRS256, key, claimsAt(*clock, time.Hour, "alice"), "")
	var panicked, refused atomic.Int64
	atOnce(t, a, true, 8, func() {
		defer func() {
			if recover() != nil {
				panicked.Add(1)
			}
		}()
		if _, err := a.Authenticate(request(token)); err != nil {
			refused.Add(1)
		}
	})
	if panicked.Load() != 1 || refused.Load() != 7 {
		t.Fatalf("%d requests panicked and %d were refused, want 1 and 7", panicked.Load(), refused.Load())
	}
}
