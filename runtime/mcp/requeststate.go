package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// DefaultRequestStateTTL is Options.RequestStateTTL when zero: long enough
// for a person to read a question and answer it, short enough that a
// requestState found later in a log is of no use.
const DefaultRequestStateTTL = 10 * time.Minute

// RequestStateKeySize is the size of Options.RequestStateKey: an AES-256
// key.
const RequestStateKeySize = 32

// sealer seals the requestState of an input_required result and opens the
// one a client echoes, with AES-256-GCM under the server's key. What it
// seals is a round: who called what with which arguments, until when, what
// the server asked and what the client has answered so far. A client holds
// it but can neither read nor change it, and a replica holding the same
// key can continue a call another one started.
type sealer struct {
	aead cipher.AEAD
	ttl  time.Duration
	now  func() time.Time
	// nonces supplies each seal's nonce: crypto/rand, or a fixed stream
	// in a test that must seal the same bytes twice.
	nonces io.Reader
}

func newSealer(key []byte, ttl time.Duration) (*sealer, error) {
	if key == nil {
		key = make([]byte, RequestStateKeySize)
		rand.Read(key) // never fails (crypto/rand)
	}
	if len(key) != RequestStateKeySize {
		return nil, fmt.Errorf("mcp: Options.RequestStateKey is %d bytes, want %d", len(key), RequestStateKeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		ttl = DefaultRequestStateTTL
	}
	return &sealer{aead: aead, ttl: ttl, now: time.Now, nonces: rand.Reader}, nil
}

// stateLabel is the additional data of every seal: a requestState of this
// format, and nothing else sealed under the same key, opens.
var stateLabel = []byte("mcpgen requestState v1")

// round is what a requestState carries from one round of a call to the
// next. The binding members say which call it belongs to; Asked and
// Answers are the conversation so far.
type round struct {
	// Principal is the digest of the caller (principalDigest).
	Principal []byte `json:"p"`
	// Call names the request: its method and tool version.
	Call string `json:"c"`
	// Args is the digest of the call's arguments (argsDigest).
	Args []byte `json:"a"`
	// Expires is when the state stops opening, in Unix milliseconds.
	Expires int64 `json:"e"`
	// Asked names the requests of the last round, each with its method:
	// the inputResponses the next round may answer.
	Asked map[string]string `json:"q,omitempty"`
	// Answers are the client's results of the earlier rounds, by name.
	Answers map[string]json.RawMessage `json:"r,omitempty"`
}

// seal encrypts r, stamped with the expiry, into a requestState.
func (s *sealer) seal(r *round) (string, error) {
	r.Expires = s.now().Add(s.ttl).UnixMilli()
	plain, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := io.ReadFull(s.nonces, nonce); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, stateLabel)), nil
}

// The reasons a requestState is refused: each is answered with -32602 and
// its own message, so a client knows whether to start the call over.
var (
	errStateForged   = errors.New("requestState was not issued by this service or has been altered")
	errStateExpired  = errors.New("requestState has expired: call again without it")
	errStateCaller   = errors.New("requestState was issued to another caller")
	errStateCall     = errors.New("requestState was issued for another tool or version")
	errStateArgument = errors.New("requestState was issued for other arguments")
)

// open decrypts a requestState and checks that it has not expired and
// belongs to the call bound by want (its Principal, Call and Args).
func (s *sealer) open(text string, want *round) (*round, error) {
	sealed, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(sealed) < s.aead.NonceSize() {
		return nil, errStateForged
	}
	nonce, box := sealed[:s.aead.NonceSize()], sealed[s.aead.NonceSize():]
	plain, err := s.aead.Open(nil, nonce, box, stateLabel)
	if err != nil {
		return nil, errStateForged
	}
	var r round
	if err := json.Unmarshal(plain, &r); err != nil {
		// Sealed by this key, so written by this format: not reached
		// unless the key is shared with something else.
		return nil, errStateForged
	}
	switch {
	case s.now().UnixMilli() >= r.Expires:
		return nil, errStateExpired
	case !slices.Equal(r.Principal, want.Principal):
		return nil, errStateCaller
	case r.Call != want.Call:
		return nil, errStateCall
	case !slices.Equal(r.Args, want.Args):
		return nil, errStateArgument
	}
	return &r, nil
}

// principalDigest identifies a caller: every member of the principal,
// each length-prefixed so that no two principals write the same bytes.
func principalDigest(p estate.Principal) []byte {
	h := sha256.New()
	field := func(s string) {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(s))))
		h.Write([]byte(s))
	}
	field(p.AgentID)
	field(p.Tenant)
	scopes := slices.Sorted(slices.Values(p.Scopes))
	h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(scopes))))
	for _, s := range scopes {
		field(s)
	}
	field(string(p.MaxClassification))
	return h.Sum(nil)
}

// argsDigest identifies a call's arguments by their canonical JSON (RFC
// 8785), so that a client re-encoding the same arguments, members in
// another order, continues its call.
func argsDigest(args json.RawMessage) []byte {
	canonical, err := schema.Canonicalize(args)
	if err != nil {
		// The arguments passed validation: they decode.
		canonical = args
	}
	sum := sha256.Sum256(canonical)
	return sum[:]
}

// roundOf is the round r's call must match: who calls which tool version
// with which arguments.
func roundOf(r *request, call *Call) *round {
	return &round{
		Principal: principalDigest(r.session.principal),
		Call:      methodToolsCall + " " + call.Spec.Key(),
		Args:      argsDigest(call.Raw),
	}
}

// openRound reads a stateless-era tools/call's requestState and
// inputResponses into call's answers: the answers of the earlier rounds,
// and this round's answers to what the last round asked. Without a
// requestState there is nothing to continue and inputResponses are
// ignored, as MCP asks of input the server does not recognise; so are the
// answers to requests the last round did not make.
func (s *Server) openRound(r *request, call *Call) *jsonrpc.Error {
	rawState := r.params.member("requestState")
	if rawState == nil {
		return nil
	}
	text, isString := jsonrpc.Unquote(rawState)
	if !isString {
		return invalidParams("requestState must be a string")
	}
	want := roundOf(r, call)
	st, err := s.sealer.open(text, want)
	if err != nil {
		return invalidParams(err.Error())
	}
	answers := st.Answers
	if answers == nil {
		answers = map[string]json.RawMessage{}
	}
	if raw := r.params.member("inputResponses"); raw != nil {
		if kindOf(raw) != '{' {
			return invalidParams("inputResponses must be an object")
		}
		var bad *jsonrpc.Error
		jsonrpc.EachMember(raw, func(name []byte, value json.RawMessage) {
			method, asked := st.Asked[string(name)]
			if !asked || bad != nil {
				return
			}
			if err := checkAnswer(method, value); err != nil {
				bad = invalidParams("inputResponses." + echo(string(name)) + ": " + err.Error())
				return
			}
			answers[string(name)] = slices.Clone(value) // kept past the message
		})
		if bad != nil {
			return bad
		}
	}
	call.input.answers = answers
	call.input.binding = want
	return nil
}
