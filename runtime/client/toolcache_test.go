package client_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/client"
)

// TestToolCacheFollowsCursors: a list of three pages is fetched page after
// page, the cursor of each answer asked for next, and kept as one list.
func TestToolCacheFollowsCursors(t *testing.T) {
	pages := map[string]struct {
		names []string
		next  string
	}{"": {[]string{"a", "b"}, "p2"}, "p2": {[]string{"c"}, "p3"}, "p3": {[]string{"d"}, ""}}
	var asked []string
	page := func(_ context.Context, cursor string) ([]client.Tool, string, error) {
		asked = append(asked, cursor)
		p, ok := pages[cursor]
		if !ok {
			return nil, "", fmt.Errorf("unknown cursor %q", cursor)
		}
		var tools []client.Tool
		for _, n := range p.names {
			tools = append(tools, client.Tool{Name: n})
		}
		return tools, p.next, nil
	}
	var tc client.ToolCache
	for range 2 {
		tools, err := tc.List(context.Background(), false, page)
		if err != nil || len(tools) != 4 || tools[3].Name != "d" {
			t.Fatalf("list: %+v %v", tools, err)
		}
	}
	if fmt.Sprint(asked) != "[ p2 p3]" || tc.ListCalls() != 1 {
		t.Fatalf("cursors asked %q in %d lists, want the three pages once", asked, tc.ListCalls())
	}
}

// TestToolCacheDropsAListFetchedAcrossAChange: a list_changed that arrives
// while the pages are being fetched leaves the cache empty, so the next
// list asks the server again instead of serving the old estate.
func TestToolCacheDropsAListFetchedAcrossAChange(t *testing.T) {
	var tc client.ToolCache
	fetches := 0
	page := func(context.Context, string) ([]client.Tool, string, error) {
		fetches++
		if fetches == 1 {
			tc.Invalidate() // the server's notification, read while the answer is on its way
		}
		return []client.Tool{{Name: "a"}}, "", nil
	}
	ctx := context.Background()
	if _, err := tc.List(ctx, false, page); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.List(ctx, false, page); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.List(ctx, false, page); err != nil {
		t.Fatal(err)
	}
	if fetches != 2 || tc.Invalidations() != 1 {
		t.Fatalf("%d fetches, %d invalidations; want 2 (the list fetched across the change was not kept), 1", fetches, tc.Invalidations())
	}
}
