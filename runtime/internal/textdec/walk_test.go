package textdec

import (
	"strings"
	"testing"
)

// WalkObject and WalkArray hand fn each member or element where it
// begins, continue from where fn says it ends, and return the offset after
// the container: a walk into nested values (fn walking again) reads the
// text in one pass. On text Validate refuses they stop.
func TestWalkGoesWhereItsCallerRead(t *testing.T) {
	data := []byte(` {"a" : [1, {"b\u0063":2}] , "d":"x"} tail`)
	var seen []string
	var walk func(i int) int
	walk = func(i int) int {
		i = SkipSpace(data, i)
		switch data[i] {
		case '{':
			return WalkObject(data, i, func(m Member, value int) int {
				seen = append(seen, string(m.UnquotedName(nil)))
				return walk(value)
			})
		case '[':
			return WalkArray(data, i, func(n, value int) int {
				seen = append(seen, string(rune('0'+n)))
				return walk(value)
			})
		}
		end := ValueEnd(data, i)
		seen = append(seen, string(data[i:end]))
		return end
	}
	end := walk(0)
	if got := strings.Join(seen, " "); got != `a 0 1 1 bc 2 d "x"` {
		t.Errorf("walked %s", got)
	}
	if string(data[end:]) != " tail" {
		t.Errorf("the walk ended at %q", data[end:])
	}
	for _, text := range []string{``, `[`, `{`, `[}`, `{"a"`, `{"a":`, `[1,`, `{"a":1,}`} {
		calls := 0
		WalkObject([]byte(text), 0, func(m Member, value int) int { calls++; return value })
		WalkArray([]byte(text), 0, func(n, value int) int { calls++; return value })
		if calls > 2 {
			t.Errorf("%q: fn called %d times for a value it did not read", text, calls)
		}
	}
}
