package oplog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc… (4 bytes)"},
		{"", 0, ""},
		{"héllo", 2, "h… (6 bytes)"}, // é is two bytes: not split
		{strings.Repeat("x", 1<<20), 4, "xxxx… (1048576 bytes)"},
	} {
		got := Clip(tc.in, tc.max)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%.20q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}
