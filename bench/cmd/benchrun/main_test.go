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

// TestParseCounts reads the summary cachegrind writes with the branch
// simulator on, and refuses one without the counts.
func TestParseCounts(t *testing.T) {
	summary := []byte(`==30959== 
==30959== I   refs:      103,855,586
==30959== 
==30959== Branches:       16,006,150  (15,751,041 cond + 255,109 ind)
==30959== Mispredicts:       843,532  (   790,723 cond +  52,809 ind)
==30959== Mispred rate:          5.3% (       5.0%     +    20.7%   )
`)
	c, err := parseCounts(summary)
	if err != nil || c.instructions != 103855586 || c.mispredicts != 843532 {
		t.Fatalf("parseCounts = %+v, %v", c, err)
	}
	if _, err := parseCounts([]byte("==1== I   refs:      1,000\n")); err == nil {
		t.Error("a summary without Mispredicts was read")
	}
}

// TestGodebug keeps a GODEBUG the caller set and adds the counted run's.
func TestGodebug(t *testing.T) {
	if got := godebug(""); got != "asyncpreemptoff=1,cpu.avx512f=off,cpu.rdtscp=off" {
		t.Errorf("godebug(\"\") = %q", got)
	}
	if got := godebug("gctrace=1"); got != "gctrace=1,asyncpreemptoff=1,cpu.avx512f=off,cpu.rdtscp=off" {
		t.Errorf("godebug(gctrace=1) = %q", got)
	}
}
