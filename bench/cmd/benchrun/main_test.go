package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNamesAndExact: the rows of a result file are read once each, without
// the GOMAXPROCS suffix, and each row's pattern selects it and no other
// (a prefix, a longer name, a regexp character in the name).
func TestNamesAndExact(t *testing.T) {
	res := []byte(`goos: linux
BenchmarkDecode/lookup-valid/impl=mcpgen-2         	       1	      1000 ns/op
BenchmarkDecode/lookup-valid/impl=mcpgen-x-2       	       1	      1000 ns/op
BenchmarkDecode/lookup-valid/impl=mcpgen-2         	       1	      1000 ns/op
BenchmarkCall/impl=go-sdk-2                        	       1	      1000 ns/op
BenchmarkList/view=a.b-2                           	       1	      1000 ns/op
PASS
`)
	rows := names(res)
	want := []string{"BenchmarkDecode/lookup-valid/impl=mcpgen", "BenchmarkDecode/lookup-valid/impl=mcpgen-x", "BenchmarkCall/impl=go-sdk", "BenchmarkList/view=a.b"}
	if !slices.Equal(rows, want) {
		t.Fatalf("names = %q, want %q", rows, want)
	}
	others := append(rows, "BenchmarkList/view=aXb", "BenchmarkDecode/lookup-valid")
	for _, row := range rows {
		pattern := exact(row)
		parts := strings.Split(pattern, "/")
		for _, other := range others {
			elems := strings.Split(other, "/")
			match := len(elems) >= len(parts)
			for i := 0; match && i < len(parts); i++ {
				match = regexp.MustCompile(parts[i]).MatchString(elems[i])
			}
			if match != (other == row) {
				t.Errorf("pattern %q for %q: matches %q is %v", pattern, row, other, match)
			}
		}
	}
}
