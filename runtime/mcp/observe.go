package mcp

import "time"

// EventKind says what an Event reports.
type EventKind uint8

// The events a server reports to Options.Observe.
const (
	// CallStarted: a tools/call passed every gate and its handler starts.
	// Tool and Version name the version called.
	CallStarted EventKind = iota + 1
	// CallFinished: the call CallStarted reported is answered. Duration is
	// the handler's time, Failed whether the result is an error (the
	// handler's error or panic, a deadline, an output that breaks the
	// declared schema).
	CallFinished
	// Refused: a request was refused before any handler ran; Refusal says
	// at which gate, and Tool and Version name the tool when it was known.
	Refused
	// SessionOpened and SessionClosed bracket every session, of either
	// era (a stateless request is served by a session of its own).
	SessionOpened
	SessionClosed
)

// Refusal is the gate that refused a request (Event.Refusal).
type Refusal string

// The refusals a server reports.
const (
	// RefusedEnvelope: the message is not a JSON-RPC 2.0 message.
	RefusedEnvelope Refusal = "envelope"
	// RefusedUnknownTool: the tool does not exist, is not the caller's,
	// is retired or matches no pin: one kind, as the caller sees it.
	RefusedUnknownTool Refusal = "unknown_tool"
	// RefusedDrift: the call's schema hash pin is not the version's.
	RefusedDrift Refusal = "drift"
	// RefusedSchema: the arguments break the version's input schema.
	RefusedSchema Refusal = "schema"
	// RefusedRequestState: a stateless-era call's requestState is forged,
	// expired, another call's or another caller's, or its inputResponses
	// are malformed (see Call.Elicit).
	RefusedRequestState Refusal = "request_state"
)

// Event is what the server reports to Options.Observe. It is a value with
// no pointers into the request, so an observer may keep it.
type Event struct {
	Kind EventKind
	// Tool and Version name the tool version, when known.
	Tool, Version string
	// Refusal is set for Refused.
	Refusal Refusal
	// Duration and Failed are set for CallFinished.
	Duration time.Duration
	Failed   bool
}

// Observe reports ev to the server's observer, if it has one. The server
// reports its own events; a transport that refuses a message before a
// Session sees it (one that decodes the envelope itself) reports that
// refusal here, so that every refusal is counted in one place.
func (s *Server) Observe(ev Event) {
	if s.observe != nil {
		s.observe(ev)
	}
}
