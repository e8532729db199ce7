package service

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// RefusedHandlerError is the refusal kind of a call whose handler ran and
// answered with an error (a failed result, a deadline, a panic), counted
// beside the gates' refusals (mcp.Refusal) in mcp_refusals_total.
const RefusedHandlerError mcp.Refusal = "handler_error"

// metrics are the service's Prometheus collectors, fed by mcp.Options.Observe.
//
// Labels are bounded by the estate: tool and version only ever name a
// version that resolved. An unknown tool's name is the caller's text, so
// refusals carry their kind alone.
type metrics struct {
	calls    *prometheus.CounterVec
	refusals *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	sessions prometheus.Gauge
	inFlight prometheus.Gauge
	// versions holds, by versionKey, the *versionMetrics of every tool
	// version called so far, and kinds the refusals' counters, one a
	// kind: WithLabelValues hashes its labels and takes the vector's lock
	// at every call, two thirds of what a call's metrics cost
	// (BenchmarkObserveCall). The estate bounds versions, as it bounds
	// the labels; kinds is made whole at the start and only read.
	versions sync.Map
	kinds    map[mcp.Refusal]prometheus.Counter
}

// versionKey names a tool version among the metrics' children.
type versionKey struct{ tool, version string }

// versionMetrics are one tool version's children of the vectors. Both
// outcomes' series exist from the version's first call, the other at 0,
// as every refusal kind's does from the start.
type versionMetrics struct {
	ok, failed prometheus.Counter
	latency    prometheus.Observer
}

// version is the children of tool's version, made at its first call.
func (m *metrics) version(tool, version string) *versionMetrics {
	k := versionKey{tool, version}
	if v, ok := m.versions.Load(k); ok {
		return v.(*versionMetrics)
	}
	v, _ := m.versions.LoadOrStore(k, &versionMetrics{
		ok:      m.calls.WithLabelValues(tool, version, "ok"),
		failed:  m.calls.WithLabelValues(tool, version, "error"),
		latency: m.latency.WithLabelValues(tool, version),
	})
	return v.(*versionMetrics)
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_tool_calls_total",
			Help: "Tool calls answered, by tool, version and outcome (ok or error).",
		}, []string{"tool", "version", "outcome"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcp_refusals_total",
			Help: "Requests refused, by kind: envelope, unknown_tool, drift, schema, request_state, handler_error.",
		}, []string{"kind"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mcp_tool_call_duration_seconds",
			Help:    "Time from a tool call's handler start to its answer, by tool and version.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 9), // 1 ms to 65 s: past the default call timeout
		}, []string{"tool", "version"}),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcp_sessions",
			Help: "Sessions open (a stateless request holds one while it is served).",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcp_tool_calls_in_flight",
			Help: "Tool calls whose handler is running.",
		}),
	}
	reg.MustRegister(m.calls, m.refusals, m.latency, m.sessions, m.inFlight)
	// Every kind is exported from the start, at 0, so that a rate over
	// it is defined before the first refusal.
	m.kinds = map[mcp.Refusal]prometheus.Counter{}
	for _, k := range []mcp.Refusal{mcp.RefusedEnvelope, mcp.RefusedUnknownTool, mcp.RefusedDrift, mcp.RefusedSchema, mcp.RefusedRequestState, RefusedHandlerError} {
		m.kinds[k] = m.refusals.WithLabelValues(string(k))
	}
	return m
}

// refused counts a refusal of kind k.
func (m *metrics) refused(k mcp.Refusal) {
	if c, ok := m.kinds[k]; ok {
		c.Inc()
		return
	}
	m.refusals.WithLabelValues(string(k)).Inc() // a kind newer than this list
}

// observe is the server's mcp.Options.Observe.
func (m *metrics) observe(ev mcp.Event) {
	switch ev.Kind {
	case mcp.CallStarted:
		m.inFlight.Inc()
	case mcp.CallFinished:
		m.inFlight.Dec()
		v := m.version(ev.Tool, ev.Version)
		if ev.Failed {
			v.failed.Inc()
			m.refused(RefusedHandlerError)
		} else {
			v.ok.Inc()
		}
		v.latency.Observe(ev.Duration.Seconds())
	case mcp.Refused:
		m.refused(ev.Refusal)
	case mcp.SessionOpened:
		m.sessions.Inc()
	case mcp.SessionClosed:
		m.sessions.Dec()
	}
}

// newRegistry is a registry with the Go runtime's and the process's
// collectors, the usual companions of a service's own metrics.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// metricsHandler serves g in the Prometheus exposition format.
func metricsHandler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{})
}
