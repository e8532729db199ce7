package textdec

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// strictError is what a strict decoder says about data: nil, or its
// error text.
func strictError(data []byte) string {
	d := Get(data)
	defer d.Put()
	if _, err := d.ReadValue(); err != nil {
		return err.Error()
	}
	return ""
}

// checkAgainstStrict holds DuplicateName to a strict decoder on data, which
// must be well formed apart from repeated names.
func checkAgainstStrict(t *testing.T, data []byte) {
	t.Helper()
	d := GetAllowingDuplicates(data)
	_, err := d.ReadValue()
	d.Put()
	if err != nil {
		t.Fatalf("%.80s: %v", data, err)
	}
	want := strictError(data)
	got := ""
	if err := DuplicateName(data); err != nil {
		got = err.Error()
		if !errors.Is(err, jsontext.ErrDuplicateName) {
			t.Errorf("%.80s: %v is not ErrDuplicateName", data, err)
		}
	}
	if got != want {
		t.Errorf("%.200s:\n got %q\nwant %q", data, got, want)
	}
}

// TestDuplicateNameIsTheStrictDecodersError: on valid JSON, DuplicateName
// reports exactly the repeat a strict decoder stops at, with its text.
func TestDuplicateNameIsTheStrictDecodersError(t *testing.T) {
	many := func(n int, last string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i) + ",")
		}
		b.WriteString(last + "}")
		return b.String()
	}
	for _, text := range []string{
		`{}`, `[]`, `"a"`, `1`, `{"a":1,"b":2}`,
		`{"a":1,"a":2}`,
		`{"a":1,"b":{"c":1,"c":2}}`,
		`{"a":1,"a":{"b":1,"b":2}}`,
		`{"a":{"b":1,"b":2},"a":1}`,
		`[{"x":1},{"y":[1,{"z":1,"q":2,"z":3}]}]`,
		`{"a\u0062":1,"ab":2}`,
		`{"a\"b":1,"a\"b":2}`,
		`{"\\":1,"\\":2}`,
		`{"a/b~c":{"d":1,"d":2}}`,
		`{"s":"{\"a\":1,\"a\":2}","t":[","]}`,
		`{"x":[1,2,3,{"k":1,"k":1}]}`,
		many(100, `"k0":0`),
		many(100, `"end":{"k5":1,"k5":2}`),
		many(100, `"k99x":0`),
		`{"o":` + many(50, `"k49":1`) + `,"o":1}`,
		`{"a":1,"b":` + many(20, `"n":1`) + `,"a":2}`,
		` { "a" : 1 , "b" : [ { "c" : 1 } , { "c" : 2 } ] } `,
	} {
		checkAgainstStrict(t, []byte(text))
	}
}

// FuzzDuplicateName holds DuplicateName to the strict decoder on any input
// a decoder that allows repeated names reads.
func FuzzDuplicateName(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2},"a":1}`, `[{"\u0061":1,"a":1}]`, `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k3":9}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := GetAllowingDuplicates(data)
		_, err := d.ReadValue()
		if err == nil {
			_, err = d.ReadToken()
			if err == nil {
				err = errors.New("trailing data")
			} else if err.Error() == "EOF" {
				err = nil
			}
		}
		d.Put()
		if err != nil {
			return
		}
		checkAgainstStrict(t, data)
	})
}
