package bench

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// Synthetic estates for the tools/list rows: n tools, three versions each
// (1.0.0, 1.1.0, 2.0.0), every version with payments.lookup 2.0.0's input
// schema. Tools are split into groups by a tenant allow-list: tool i is
// for tenant group(i mod groups); groups == 0 means no allow-list (every
// tool visible to every tenant).

// estateKey names one synthetic estate.
// estateKey names a synthetic estate: its tools, the tenant groups they
// are split into (0: every tool open to every tenant), and the server's
// page size (0: mcp.DefaultPageSize).
type estateKey struct{ tools, groups, pageSize int }

// builtEstate is a server over a synthetic estate, built once per process.
type builtEstate struct {
	srv   *mcp.Server
	specs []estateTool // the anchors' view of the same tools
}

// estateTool is one tool as the anchors register it.
type estateTool = sdkTool

var (
	estatesMu sync.Mutex
	estates   = map[estateKey]*builtEstate{}
)

func tenantOf(group int) string { return fmt.Sprintf("tenant-%04d", group) }

func toolName(i int) string { return fmt.Sprintf("tool.%06d", i) }

// syntheticEstate returns the server over the estate k, building it on
// first use. Versions are published through Bind, so the publish guard runs
// as it does for a real service.
func syntheticEstate(tb testing.TB, k estateKey) *builtEstate {
	tb.Helper()
	estatesMu.Lock()
	defer estatesMu.Unlock()
	if e, ok := estates[k]; ok {
		return e
	}
	base := bankSpec(tb, "payments.lookup@2.0.0")
	doc := schemaJSON(tb, base.InputSchema)
	srv, err := mcp.NewServer(mcp.Options{Name: "estate", Version: "1.0.0", PageSize: k.pageSize})
	if err != nil {
		tb.Fatal(err)
	}
	handler := mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("ok"), nil }}
	e := &builtEstate{srv: srv}
	for i := 0; i < k.tools; i++ {
		spec := base
		spec.Name = toolName(i)
		spec.Title = "Tool " + spec.Name
		spec.Description = "Return the status of a payment as of a point in time (tool " + spec.Name + ")."
		spec.RequiredScopes = []string{"payments.read"}
		spec.Tenants = nil
		if k.groups > 0 {
			spec.Tenants = []string{tenantOf(i % k.groups)}
		}
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			spec.Version = estate.MustParseVersion(v)
			if err := srv.Bind(spec, handler); err != nil {
				tb.Fatal(err)
			}
		}
		e.specs = append(e.specs, estateTool{name: spec.Name, description: spec.Description, schema: doc})
	}
	estates[k] = e
	return e
}

// principalOf is a principal of tenant group g that holds payments.read
// and is cleared to confidential.
func principalOf(g int) estate.Principal {
	return estate.Principal{
		AgentID: fmt.Sprintf("agent-%d", g), Tenant: tenantOf(g),
		Scopes: []string{"payments.read"}, MaxClassification: estate.Confidential,
	}
}
