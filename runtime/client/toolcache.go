package client

import (
	"context"
	"sync"
)

// ToolCache holds one server's tools/list answer, every page of it, until
// the server says the list changed (notifications/tools/list_changed, on
// either protocol era). Any client that speaks to one server can keep one:
// the runtime's Client does, and so does the adapter over the official Go
// SDK's session, so the two drop and refill the cache by the same rule.
// The zero value is an empty cache.
type ToolCache struct {
	mu            sync.Mutex
	tools         []Tool
	cached        bool
	generation    uint64 // counts invalidations, so a list fetched across one is not kept
	listCalls     int
	invalidations int
}

// ToolPage fetches one page of tools/list: the tools of the page that
// cursor names ("" for the first) and the cursor of the next ("" after the
// last).
type ToolPage func(ctx context.Context, cursor string) (tools []Tool, next string, err error)

// List returns the cached tools or, when the cache is empty or force is
// set, fetches every page, following nextCursor until the server gives
// none. A list_changed that arrives while the pages are fetched means they
// may describe the old estate: they are returned, but not kept.
func (tc *ToolCache) List(ctx context.Context, force bool, page ToolPage) ([]Tool, error) {
	tc.mu.Lock()
	if tc.cached && !force {
		tools := tc.tools
		tc.mu.Unlock()
		return tools, nil
	}
	generation := tc.generation
	tc.mu.Unlock()

	var all []Tool
	cursor := ""
	for {
		tools, next, err := page(ctx, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, tools...)
		if next == "" {
			break
		}
		cursor = next
	}
	tc.mu.Lock()
	tc.listCalls++
	if tc.generation == generation {
		tc.tools, tc.cached = all, true
	}
	tc.mu.Unlock()
	return all, nil
}

// Invalidate drops the cache: the server's tools changed.
func (tc *ToolCache) Invalidate() {
	tc.mu.Lock()
	tc.tools, tc.cached = nil, false
	tc.generation++
	tc.invalidations++
	tc.mu.Unlock()
}

// ListCalls counts the complete tools/list fetches made so far (every page
// of one list counts once): a test can see that the cache served a list,
// and that list_changed forced a new one.
func (tc *ToolCache) ListCalls() int {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.listCalls
}

// Invalidations counts the list_changed notifications that dropped the
// cache.
func (tc *ToolCache) Invalidations() int {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.invalidations
}
