package gentest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/runtime/encode"
)

// CheckAppends returns an error unless v's AppendJSON writes what
// encoding/json writes of it without HTML escaping, byte for byte but for
// what encode.Appender allows (U+2028, U+2029 and U+FFFD written as the
// characters where encoding/json escapes them, the same JSON value). It
// returns what AppendJSON wrote, after a prefix it must leave as it was.
func CheckAppends(v encode.Appender) ([]byte, error) {
	const prefix = "kept:"
	got, err := v.AppendJSON([]byte(prefix))
	if err != nil {
		return nil, fmt.Errorf("AppendJSON: %w", err)
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		return nil, fmt.Errorf("AppendJSON changed what b held: %q", got)
	}
	got = got[len(prefix):]
	want, err := encode.Reflect(v)
	if err != nil {
		return nil, fmt.Errorf("encoding/json: %w", err)
	}
	if !bytes.Equal(got, want) && !escapedApart(got, want) {
		return nil, fmt.Errorf("AppendJSON wrote\n%s\nencoding/json\n%s", got, want)
	}
	return got, nil
}

// escapedApart reports whether got and want differ only as
// encode.Appender allows: want escapes U+2028, U+2029 or U+FFFD, and the
// two are the same JSON value.
func escapedApart(got, want []byte) bool {
	if !bytes.Contains(want, []byte(`\u2028`)) && !bytes.Contains(want, []byte(`\u2029`)) && !bytes.Contains(want, []byte(`\ufffd`)) {
		return false
	}
	var g, w any
	return json.Unmarshal(got, &g) == nil && json.Unmarshal(want, &w) == nil && reflect.DeepEqual(g, w)
}
