package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"
)

// FuzzOpenRequestState: whatever a client sends as requestState, opening it
// never panics, and nothing opens but a state the server sealed for the
// same call, unaltered, before its expiry. A fuzzer cannot forge an
// AES-GCM tag, so any other text that opens is a bug.
func FuzzOpenRequestState(f *testing.F) {
	key := bytes.Repeat([]byte{7}, RequestStateKeySize)
	s, err := newSealer(key, time.Minute)
	if err != nil {
		f.Fatal(err)
	}
	now := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	// Every fuzzing process seals the same seeds: the set of states the
	// server issued is the same in each.
	s.nonces = bytes.NewReader(bytes.Repeat([]byte{9}, 1024))
	want := &round{Principal: []byte{1, 2, 3}, Call: "tools/call t@1.0.0", Args: []byte{4, 5, 6}}
	sealed := map[string]bool{}
	for _, answers := range []map[string]json.RawMessage{nil, {"confirm": json.RawMessage(`{"action":"accept"}`)}} {
		r := *want
		r.Asked, r.Answers = map[string]string{"confirm": methodElicit}, answers
		text, err := s.seal(&r)
		if err != nil {
			f.Fatal(err)
		}
		raw, _ := base64.RawURLEncoding.DecodeString(text)
		sealed[string(raw)] = true
		f.Add(text)
		f.Add(text[:len(text)-1])
		f.Add(text + "A")
	}
	f.Add("")
	f.Add("AAAA")
	f.Add(base64.RawURLEncoding.EncodeToString(make([]byte, 64)))
	f.Fuzz(func(t *testing.T, text string) {
		r, err := s.open(text, want)
		if err != nil {
			if r != nil {
				t.Fatal("open returned a round with its error")
			}
			return
		}
		raw, _ := base64.RawURLEncoding.DecodeString(text)
		if !sealed[string(raw)] {
			t.Fatalf("opened a state the server never sealed: %q", text)
		}
		if r.Call != want.Call || !bytes.Equal(r.Args, want.Args) || !bytes.Equal(r.Principal, want.Principal) {
			t.Fatalf("opened another call's state: %+v", r)
		}
	})
}
