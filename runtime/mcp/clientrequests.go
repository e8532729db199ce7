package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// peerState is what a session keeps about its client beyond the handshake:
// the requests the server sent it and awaits answers to, the minimum log
// level it chose, and the resources it subscribed to. The zero value is
// ready to use.
type peerState struct {
	mu       sync.Mutex
	nextID   int64
	pending  map[string]chan clientAnswer // by request id text
	closed   bool
	logLevel LogLevel        // set by logging/setLevel; "" sends every level
	watching map[string]bool // URIs of resources/subscribe
}

// clientAnswer is the client's response to a server request, or why none
// will come.
type clientAnswer struct {
	msg jsonrpc.Message
	err error
}

// ErrSessionClosed is returned by a request to the client that was waiting
// when its session ended: the answer can no longer arrive.
var ErrSessionClosed = errors.New("mcp: the session closed before the client answered")

// ErrUnavailable is what Call.Sample and Call.Elicit return (wrapped in an
// *UnavailableError) when the request cannot be sent: the client did not
// declare the capability, the revision has no such request, or the
// transport cannot carry server-initiated messages.
var ErrUnavailable = errors.New("mcp: request not available on this connection")

// UnavailableError says why a request to the client could not be sent.
// errors.Is(err, ErrUnavailable) holds for it.
type UnavailableError struct {
	// Method is the request that could not be sent.
	Method string
	// Reason says why, for a tool to report.
	Reason string
}

func (e *UnavailableError) Error() string {
	return "mcp: cannot send " + e.Method + ": " + e.Reason
}

// Is makes errors.Is(err, ErrUnavailable) hold.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// request sends a request to the client and waits for its answer. It
// returns the result as received, the client's error response as a
// *jsonrpc.Error, ctx's error when ctx ends first (the client is then told
// with notifications/cancelled), or ErrSessionClosed.
func (s *Session) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if s.send == nil {
		return nil, &UnavailableError{Method: method, Reason: "this transport cannot carry requests to the client"}
	}
	answer := make(chan clientAnswer, 1)
	p := &s.peer
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrSessionClosed
	}
	p.nextID++
	id := jsonrpc.IntID(p.nextID)
	if p.pending == nil {
		p.pending = map[string]chan clientAnswer{}
	}
	p.pending[id.String()] = answer
	p.mu.Unlock()

	msg, err := jsonrpc.EncodeRequest(id, method, params)
	if err != nil {
		p.forget(id)
		return nil, fmt.Errorf("mcp: encoding %s: %w", method, err)
	}
	s.sendRelated(ctx, msg)
	select {
	case a := <-answer:
		if a.err != nil {
			return nil, a.err
		}
		if a.msg.Error != nil {
			return nil, a.msg.Error
		}
		return a.msg.Result, nil
	case <-ctx.Done():
		if p.forget(id) {
			if note, err := jsonrpc.EncodeNotification(notificationCancelled, map[string]any{
				"requestId": id, "reason": ctx.Err().Error(),
			}); err == nil {
				s.sendRelated(ctx, note)
			}
		}
		return nil, ctx.Err()
	}
}

// sendRelated sends a message that belongs to the request being served in
// ctx: a tool call's progress and log notifications, its requests to the
// client and their cancellation. It is the one way such messages leave, so
// a transport that carries them with the request's answer (Streamable
// HTTP's response stream) has one place to route them: the sender
// WithRelatedSender put in ctx, or else the session's sink.
func (s *Session) sendRelated(ctx context.Context, msg []byte) {
	if send, ok := ctx.Value(relatedSenderKey{}).(func([]byte)); ok {
		send(msg)
		return
	}
	if s.send != nil {
		s.send(msg)
	}
}

type relatedSenderKey struct{}

// WithRelatedSender returns a context under which the messages that belong
// to the request handled with it (see Session.HandleMessage) go to send
// rather than to the session's sink: the Streamable HTTP transport streams
// them ahead of that request's answer, as the revisions of the handshake
// era recommend. send has the sink's contract.
func WithRelatedSender(ctx context.Context, send func(msg []byte)) context.Context {
	return context.WithValue(ctx, relatedSenderKey{}, send)
}

// forget drops a pending request; it reports whether it was still pending.
func (p *peerState) forget(id jsonrpc.ID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.pending[id.String()]
	delete(p.pending, id.String())
	return ok
}

// answered routes a response from the client to the request waiting for
// it. A response to nothing pending (unknown, cancelled, or answered
// already) is dropped: answering it could start two peers replying to each
// other.
func (s *Session) answered(msg jsonrpc.Message) {
	p := &s.peer
	p.mu.Lock()
	ch, ok := p.pending[msg.ID.String()]
	delete(p.pending, msg.ID.String())
	p.mu.Unlock()
	if ok {
		ch <- clientAnswer{msg: msg}
	}
}

// closePeer fails every request still waiting for the client; none can be
// sent after it.
func (s *Session) closePeer() {
	p := &s.peer
	p.mu.Lock()
	pending := p.pending
	p.pending, p.closed = nil, true
	p.mu.Unlock()
	for _, ch := range pending {
		ch <- clientAnswer{err: ErrSessionClosed}
	}
}

// mayRequest decides whether the server may send method to the client of
// this call: the revision must have such requests and the client must have
// declared capability (an object) in its capabilities.
func (c *Call) mayRequest(method, capability string) (map[string]any, error) {
	if c.session == nil {
		return nil, &UnavailableError{Method: method, Reason: "the call has no session"}
	}
	if !c.Revision.ClientRequests() {
		return nil, &UnavailableError{Method: method, Reason: "protocol revision " + string(c.Revision) + " has no requests from server to client"}
	}
	caps, declared := c.ClientCapabilities()[capability].(map[string]any)
	if !declared {
		return nil, &UnavailableError{Method: method, Reason: "the client did not declare the " + capability + " capability"}
	}
	return caps, nil
}

// Roles of sampling messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// SamplingRequest asks the client's model for a completion
// (sampling/createMessage). The client, and usually its user, decide
// whether to run it and may change it.
type SamplingRequest struct {
	Messages []SamplingMessage `json:"messages"`
	// SystemPrompt is a system prompt the client may use.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// MaxTokens bounds the completion; MCP requires it.
	MaxTokens int `json:"maxTokens"`
	// Temperature, when set, is passed to the model.
	Temperature *float64 `json:"temperature,omitempty"`
	// StopSequences end the completion.
	StopSequences []string `json:"stopSequences,omitempty"`
	// ModelPreferences are hints; the client chooses the model.
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
}

// SamplingMessage is one message of a sampling conversation.
type SamplingMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// ModelPreferences are a server's hints for the client's choice of model:
// names to prefer, and priorities between 0 and 1.
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model, or a family by substring.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// SamplingResult is the client's answer to a sampling request.
type SamplingResult struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
	// Model is the model that answered.
	Model string `json:"model"`
	// StopReason is why it stopped ("endTurn", "stopSequence",
	// "maxTokens", or the client's own).
	StopReason string `json:"stopReason,omitempty"`
}

// Sample asks the client's model for a completion and waits for the
// answer. It needs a client that declared the sampling capability in a
// revision with requests to the client (see Revision.ClientRequests);
// otherwise it returns an *UnavailableError without sending anything. The
// client's refusal comes back as a *jsonrpc.Error. It waits for as long as
// ctx allows: a caller that cancels the tool call cancels the request too.
func (c *Call) Sample(ctx context.Context, req SamplingRequest) (*SamplingResult, error) {
	if _, err := c.mayRequest(methodCreateMessage, "sampling"); err != nil {
		return nil, err
	}
	if len(req.Messages) == 0 || req.MaxTokens <= 0 {
		return nil, errors.New("mcp: a sampling request needs at least one message and a positive MaxTokens")
	}
	raw, err := c.session.request(ctx, methodCreateMessage, req)
	if err != nil {
		return nil, err
	}
	var res SamplingResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("mcp: the client's sampling result: %w", err)
	}
	return &res, nil
}

// ElicitAction is how the user answered an elicitation.
type ElicitAction string

// The answers to an elicitation.
const (
	// ElicitAccept: the user submitted the form; Content holds the values.
	ElicitAccept ElicitAction = "accept"
	// ElicitDecline: the user said no.
	ElicitDecline ElicitAction = "decline"
	// ElicitCancel: the user dismissed the request without choosing.
	ElicitCancel ElicitAction = "cancel"
)

// ElicitRequest asks the user, through the client, to fill in a form
// (elicitation/create in form mode).
type ElicitRequest struct {
	// Message tells the user what is asked and why.
	Message string
	// RequestedSchema describes the form: an object schema whose
	// properties are primitive (string, number, integer, boolean, or enums
	// of strings), in the JSON value model. It is sent as given: MCP's
	// form schemas use keywords (oneOf titles, enumNames) that tool input
	// schemas do not.
	RequestedSchema map[string]any
}

// ElicitResult is the user's answer.
type ElicitResult struct {
	Action ElicitAction
	// Content holds the submitted values when Action is ElicitAccept, in
	// the JSON value model of package schema (numbers are json.Number).
	// The client should have checked them against the requested schema;
	// the server does not.
	Content map[string]any
}

// Elicit asks the user for input and waits for the answer. It needs a
// client that declared the elicitation capability (with form mode, when it
// lists modes) in a revision that has elicitation; otherwise it returns an
// *UnavailableError without sending anything. It waits for as long as ctx
// allows.
func (c *Call) Elicit(ctx context.Context, req ElicitRequest) (*ElicitResult, error) {
	caps, err := c.mayRequest(methodElicit, "elicitation")
	if err != nil {
		return nil, err
	}
	if !c.Revision.Elicitation() {
		return nil, &UnavailableError{Method: methodElicit, Reason: "protocol revision " + string(c.Revision) + " has no elicitation"}
	}
	if _, form := caps["form"]; len(caps) > 0 && !form {
		return nil, &UnavailableError{Method: methodElicit, Reason: "the client does not accept form elicitation"}
	}
	if req.RequestedSchema["type"] != "object" {
		return nil, errors.New(`mcp: an elicitation's requested schema must be an object schema ("type": "object")`)
	}
	params := map[string]any{"message": req.Message, "requestedSchema": req.RequestedSchema}
	if c.Revision.ElicitationMode() {
		params["mode"] = "form"
	}
	raw, err := c.session.request(ctx, methodElicit, params)
	if err != nil {
		return nil, err
	}
	v, err := schema.DecodeJSON(raw)
	obj, isObject := v.(map[string]any)
	if err != nil || !isObject {
		return nil, errors.New("mcp: the client's elicitation result is not a JSON object")
	}
	res := &ElicitResult{}
	switch a, _ := obj["action"].(string); ElicitAction(a) {
	case ElicitAccept, ElicitDecline, ElicitCancel:
		res.Action = ElicitAction(a)
	default:
		return nil, fmt.Errorf("mcp: the client's elicitation result has action %q (want accept, decline or cancel)", a)
	}
	if content, present := obj["content"]; present && res.Action == ElicitAccept {
		m, isObject := content.(map[string]any)
		if !isObject {
			return nil, errors.New("mcp: the client's elicitation content is not an object")
		}
		res.Content = m
	}
	return res, nil
}
