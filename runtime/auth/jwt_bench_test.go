package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime/auth"
)

// BenchmarkAuthenticate is what a request's bearer token costs, for each
// family of signatures: verified on every request (cache=off), and as a
// client presenting the same token on every request pays for it once its
// verification is remembered (cache=on).
func BenchmarkAuthenticate(b *testing.B) {
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	edPub, edKey, _ := ed25519.GenerateKey(rand.Reader)
	for _, alg := range []struct {
		name         string
		method       jwt.SigningMethod
		sign, verify any
	}{
		{"RS256", jwt.SigningMethodRS256, rsaKey, &rsaKey.PublicKey},
		{"ES256", jwt.SigningMethodES256, ecKey, &ecKey.PublicKey},
		{"EdDSA", jwt.SigningMethodEdDSA, edKey, edPub},
	} {
		for _, cache := range []string{"off", "on"} {
			b.Run("alg="+alg.name+"/cache="+cache, func(b *testing.B) {
				size := 0
				if cache == "off" {
					size = -1
				}
				a, err := auth.NewJWT(context.Background(), auth.JWTConfig{Issuer: issuer, Audience: audience, PublicKey: alg.verify, CacheSize: size})
				if err != nil {
					b.Fatal(err)
				}
				r := request(sign(b, alg.method, alg.sign, validClaims(), ""))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Authenticate(r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
