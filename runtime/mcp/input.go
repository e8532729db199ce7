package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// ErrInputRequired is what Call.Elicit, Call.ElicitURL, Call.Sample and
// Call.Roots return in the stateless era when the client has not answered
// yet: the handler returns it (as it would any error), the call is
// answered with an input_required result carrying the question, and when
// the client calls again with its answer the handler runs again from the
// top, where the same question now returns the answer. See
// docs/concepts.md#asking-the-client.
var ErrInputRequired = errors.New("mcp: the call needs the client's input; it continues when the client calls again with it")

// callInput is a stateless-era call's side of a multi round-trip request
// (SEP-2322): the answers the client has given, by name, and the questions
// this run of the handler asked that no answer meets. The zero value is a
// first round: nothing answered, nothing asked.
type callInput struct {
	mu      sync.Mutex
	answers map[string]json.RawMessage
	// binding is the call's round without questions or answers, when
	// openRound computed it (see roundOf).
	binding *round
	asked   map[string]inputRequest
	// counts numbers the questions asked without a name, per kind.
	counts map[string]int
}

// inputRequest is one member of an input_required result's inputRequests:
// the request the client would have received in the handshake era.
type inputRequest struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// ask returns the answer named name, or records the question and returns
// ErrInputRequired. A question without a name is named after its kind and
// its rank among the questions of that kind ("elicitation-1"): the same
// in every run of a handler that asks the same questions in the same
// order.
func (in *callInput) ask(name, kind, method string, params any) (json.RawMessage, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if name == "" {
		if in.counts == nil {
			in.counts = map[string]int{}
		}
		in.counts[kind]++
		name = kind + "-" + strconv.Itoa(in.counts[kind])
	}
	if answer, ok := in.answers[name]; ok {
		return answer, nil
	}
	if in.asked == nil {
		in.asked = map[string]inputRequest{}
	}
	in.asked[name] = inputRequest{Method: method, Params: params}
	return nil, ErrInputRequired
}

// pending reports whether the handler asked a question left unanswered.
func (in *callInput) pending() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.asked) > 0
}

// ask puts a question to the client of call and reads its answer with
// decode: in the handshake era as a request on the session, awaited; in
// the stateless era through the call's rounds (callInput.ask). name is its
// key in inputRequests ("" for the default); kind names the default.
func ask[T any](ctx context.Context, call *Call, name, kind, method string, params any, decode func(json.RawMessage) (T, error)) (T, error) {
	var raw json.RawMessage
	var err error
	if call.Revision.ClientRequests() {
		raw, err = call.session.request(ctx, method, params)
	} else {
		raw, err = call.input.ask(name, kind, method, params)
	}
	var answer T
	if err != nil {
		return answer, err
	}
	if answer, err = decode(raw); err != nil {
		return answer, errors.New("mcp: " + err.Error())
	}
	return answer, nil
}

// resultInputRequired is the resultType of a call that waits for the
// client's input.
const resultInputRequired = "input_required"

type inputRequiredResult struct {
	InputRequests map[string]inputRequest `json:"inputRequests"`
	RequestState  string                  `json:"requestState"`
	common
}

// inputRequired answers a call whose handler asked what the client has not
// answered: the questions, and the requestState sealing the call's binding,
// the names asked and every answer given so far.
func (s *Server) inputRequired(r *request, call *Call) (any, *jsonrpc.Error) {
	in := &call.input
	in.mu.Lock()
	defer in.mu.Unlock()
	next := in.binding
	if next == nil {
		next = roundOf(r, call)
	}
	next.Asked = make(map[string]string, len(in.asked))
	for name, q := range in.asked {
		next.Asked[name] = q.Method
	}
	next.Answers = in.answers
	state, err := s.sealer.seal(next)
	if err != nil {
		s.log.LogAttrs(r.ctx, slog.LevelError, "sealing a requestState failed", slog.String("tool", call.Spec.Key()), slog.String("error", err.Error()))
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error")
	}
	res := &inputRequiredResult{InputRequests: in.asked, RequestState: state}
	s.finish(r.rev, &res.common, "")
	res.ResultType = resultInputRequired
	return res, nil
}

// checkAnswer checks that an inputResponses member is a result of the
// request method: what the handler will decode when it asks again.
func checkAnswer(method string, raw json.RawMessage) error {
	var err error
	switch method {
	case methodElicit:
		_, err = decodeElicitResult(raw)
	case methodCreateMessage:
		_, err = decodeSamplingResult(raw)
	case methodListRoots:
		_, err = decodeRoots(raw)
	}
	return err
}
