package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
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

// ErrUnavailable is what Call.Sample, Call.Elicit, Call.ElicitURL and
// Call.Roots return (wrapped in an *UnavailableError) when the client
// cannot be asked: it did not declare the capability, the revision has no
// such request, or the transport cannot carry server-initiated messages.
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

// mayRequest decides whether the server may ask the client of this call
// for method: the revision must have a way to ask (requests on the session
// in the handshake era, input_required results in the stateless one) and
// the client must have declared capability (an object) in its
// capabilities, which it returns.
func (c *Call) mayRequest(method, capability string) (map[string]any, error) {
	if c.session == nil {
		return nil, &UnavailableError{Method: method, Reason: "the call has no session"}
	}
	if !c.Revision.ClientRequests() && !c.Revision.InputRequiredResults() {
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
	// Name is the request's key in a stateless-era inputRequests; empty
	// means "sampling-1" for the first request without a name, and so on.
	Name     string            `json:"-"`
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

// Sample asks the client's model for a completion. It needs a client that
// declared the sampling capability; otherwise it returns an
// *UnavailableError without asking. In the handshake era it sends the
// request and waits for as long as ctx allows (a caller that cancels the
// tool call cancels the request too); the client's refusal comes back as a
// *jsonrpc.Error. In the stateless era it returns the client's answer when
// this round carries it, and ErrInputRequired otherwise (see
// ErrInputRequired).
func (c *Call) Sample(ctx context.Context, req SamplingRequest) (*SamplingResult, error) {
	if _, err := c.mayRequest(methodCreateMessage, "sampling"); err != nil {
		return nil, err
	}
	if len(req.Messages) == 0 || req.MaxTokens <= 0 {
		return nil, errors.New("mcp: a sampling request needs at least one message and a positive MaxTokens")
	}
	return ask(ctx, c, req.Name, "sampling", methodCreateMessage, req, decodeSamplingResult)
}

// decodeSamplingResult reads the client's sampling result.
func decodeSamplingResult(raw json.RawMessage) (*SamplingResult, error) {
	var res SamplingResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the client's sampling result: %w", err)
	}
	if res.Role == "" {
		return nil, errors.New("the client's sampling result has no role")
	}
	return &res, nil
}

// ElicitAction is how the user answered an elicitation.
type ElicitAction string

// The answers to an elicitation.
const (
	// ElicitAccept: the user submitted the form (Content holds the
	// values), or agreed to open the URL.
	ElicitAccept ElicitAction = "accept"
	// ElicitDecline: the user said no.
	ElicitDecline ElicitAction = "decline"
	// ElicitCancel: the user dismissed the request without choosing.
	ElicitCancel ElicitAction = "cancel"
)

// ElicitRequest asks the user, through the client, to fill in a form
// (elicitation/create in form mode).
type ElicitRequest struct {
	// Name is the request's key in a stateless-era inputRequests; empty
	// means "elicitation-1" for the first elicitation without a name, and
	// so on.
	Name string
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
	// Content holds the submitted values of a form when Action is
	// ElicitAccept, in the JSON value model of package schema (numbers are
	// json.Number). The client should have checked them against the
	// requested schema; the server does not.
	Content map[string]any
}

// Elicit asks the user for input through a form. It needs a client that
// declared the elicitation capability (with form mode, when it lists
// modes) in a revision that has elicitation; otherwise it returns an
// *UnavailableError without asking. In the handshake era it sends the
// request and waits for as long as ctx allows; in the stateless era it
// returns the answer when this round carries it, and ErrInputRequired
// otherwise (see ErrInputRequired).
func (c *Call) Elicit(ctx context.Context, req ElicitRequest) (*ElicitResult, error) {
	if err := c.mayElicit("form"); err != nil {
		return nil, err
	}
	if req.RequestedSchema["type"] != "object" {
		return nil, errors.New(`mcp: an elicitation's requested schema must be an object schema ("type": "object")`)
	}
	params := map[string]any{"message": req.Message, "requestedSchema": req.RequestedSchema}
	if c.Revision.ElicitationMode() {
		params["mode"] = "form"
	}
	return c.elicit(ctx, req.Name, params)
}

// ElicitURLRequest asks the user, through the client, to open a URL
// (elicitation/create in URL mode, 2025-11-25 on): for what must not pass
// through the client, such as credentials or a payment's approval on the
// bank's own pages. The interaction happens out of band; the server learns
// of its end itself.
type ElicitURLRequest struct {
	// Name is the request's key in a stateless-era inputRequests; empty
	// means the default (see ElicitRequest.Name).
	Name string
	// Message tells the user why the URL should be opened.
	Message string
	// URL is the page to open: an absolute URL.
	URL string
	// ElicitationID identifies the interaction, for the completion
	// notification (Call.NotifyElicitationComplete) and the server's own
	// bookkeeping. It is required.
	ElicitationID string
}

// ElicitURL asks the user to open a URL. It needs a revision with URL
// mode (2025-11-25 on) and a client that declared it in its elicitation
// capability; otherwise it returns an *UnavailableError without asking.
// ElicitAccept means the user agreed to open the page, not that the
// interaction there is over. It waits or returns ErrInputRequired as
// Elicit does.
func (c *Call) ElicitURL(ctx context.Context, req ElicitURLRequest) (*ElicitResult, error) {
	if err := c.mayElicit("url"); err != nil {
		return nil, err
	}
	if u, err := url.Parse(req.URL); err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("mcp: an elicitation URL must be absolute, got %q", req.URL)
	}
	if req.ElicitationID == "" {
		return nil, errors.New("mcp: a URL elicitation needs an ElicitationID")
	}
	return c.elicit(ctx, req.Name, map[string]any{
		"mode": "url", "message": req.Message, "url": req.URL, "elicitationId": req.ElicitationID,
	})
}

// mayElicit decides whether the client of this call may be asked for an
// elicitation in mode ("form" or "url"). A client that declares the
// capability without listing modes accepts forms only.
func (c *Call) mayElicit(mode string) error {
	caps, err := c.mayRequest(methodElicit, "elicitation")
	if err != nil {
		return err
	}
	if !c.Revision.Elicitation() {
		return &UnavailableError{Method: methodElicit, Reason: "protocol revision " + string(c.Revision) + " has no elicitation"}
	}
	if mode == "url" && !c.Revision.ElicitationMode() {
		return &UnavailableError{Method: methodElicit, Reason: "protocol revision " + string(c.Revision) + " has no URL elicitation"}
	}
	_, declared := caps[mode]
	if declared || (mode == "form" && len(caps) == 0) {
		return nil
	}
	return &UnavailableError{Method: methodElicit, Reason: "the client does not accept " + mode + " elicitation"}
}

func (c *Call) elicit(ctx context.Context, name string, params map[string]any) (*ElicitResult, error) {
	return ask(ctx, c, name, "elicitation", methodElicit, params, decodeElicitResult)
}

// decodeElicitResult reads the client's elicitation result.
func decodeElicitResult(raw json.RawMessage) (*ElicitResult, error) {
	v, err := schema.DecodeJSON(raw)
	obj, isObject := v.(map[string]any)
	if err != nil || !isObject {
		return nil, errors.New("the client's elicitation result is not a JSON object")
	}
	res := &ElicitResult{}
	switch a, _ := obj["action"].(string); ElicitAction(a) {
	case ElicitAccept, ElicitDecline, ElicitCancel:
		res.Action = ElicitAction(a)
	default:
		return nil, fmt.Errorf("the client's elicitation result has action %q (want accept, decline or cancel)", echo(a))
	}
	if content, present := obj["content"]; present && res.Action == ElicitAccept {
		m, isObject := content.(map[string]any)
		if !isObject {
			return nil, errors.New("the client's elicitation content is not an object")
		}
		res.Content = m
	}
	return res, nil
}

// NotifyElicitationComplete tells the client that the out-of-band
// interaction of the URL elicitation id has ended
// (notifications/elicitation/complete), so that it can move on without
// its user saying so. It exists in the handshake era from 2025-11-25, to a
// client that declared URL elicitation, while the handler runs; in the
// stateless era the client learns of the end by calling again, and this
// returns an *UnavailableError.
func (c *Call) NotifyElicitationComplete(ctx context.Context, id string) error {
	if err := c.mayElicit("url"); err != nil {
		return err
	}
	if !c.Revision.ClientRequests() {
		return &UnavailableError{Method: notificationElicitationComplete, Reason: "protocol revision " + string(c.Revision) + " has no notifications outside a request's answer"}
	}
	msg, err := jsonrpc.EncodeNotification(notificationElicitationComplete, map[string]any{"elicitationId": id})
	if err != nil {
		return err
	}
	c.session.sendRelated(ctx, msg)
	return nil
}

// Root is a directory or file the client lets the server work in
// (roots/list).
type Root struct {
	// URI is a file:// URI.
	URI string `json:"uri"`
	// Name is a display name, optional.
	Name string `json:"name,omitempty"`
}

// Roots asks the client for its roots. It needs a client that declared
// the roots capability; otherwise it returns an *UnavailableError without
// asking. It waits or returns ErrInputRequired as Elicit does; in the
// stateless era its inputRequests key is "roots-1" for the first, and so
// on.
func (c *Call) Roots(ctx context.Context) ([]Root, error) {
	if _, err := c.mayRequest(methodListRoots, "roots"); err != nil {
		return nil, err
	}
	return ask(ctx, c, "", "roots", methodListRoots, struct{}{}, decodeRoots)
}

// decodeRoots reads the client's roots/list result.
func decodeRoots(raw json.RawMessage) ([]Root, error) {
	var res struct {
		Roots *[]Root `json:"roots"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the client's roots: %w", err)
	}
	if res.Roots == nil {
		return nil, errors.New("the client's roots result has no roots")
	}
	return *res.Roots, nil
}
