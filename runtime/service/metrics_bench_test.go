package service

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// BenchmarkObserveCall is what a service's metrics cost a tool call: the
// events the server sends for one call that succeeds.
func BenchmarkObserveCall(b *testing.B) {
	m := newMetrics(prometheus.NewRegistry())
	b.ReportAllocs()
	for b.Loop() {
		m.observe(mcp.Event{Kind: mcp.CallStarted, Tool: "payments.lookup", Version: "3.0.0"})
		m.observe(mcp.Event{Kind: mcp.CallFinished, Tool: "payments.lookup", Version: "3.0.0", Duration: 3 * time.Microsecond})
	}
}

// BenchmarkObserveRefusal is what a service's metrics cost a refused
// request (a schema violation, say).
func BenchmarkObserveRefusal(b *testing.B) {
	m := newMetrics(prometheus.NewRegistry())
	b.ReportAllocs()
	for b.Loop() {
		m.observe(mcp.Event{Kind: mcp.Refused, Refusal: mcp.RefusedSchema})
	}
}
