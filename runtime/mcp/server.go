// Package mcp is the MCP server runtime: dispatch through the five gates of
// seed 000 §1, the handshake and stateless protocol eras (see Revision),
// authorization-aware tools/list and tools/call over an estate.Registry,
// resources and resource templates with subscriptions, prompts, argument
// completion, change notifications, and the stdio transport (ServeStream).
// Other transports drive a Session message by message.
//
// A tool handler talks to the client through its *Call: Progress and Log
// send notifications about the call, Sample and Elicit send requests to the
// client and wait for the answer, where the client declared the capability
// and the revision allows it.
//
// A server is usable from hand-written Go; generated code only saves typing:
//
//	srv, _ := mcp.NewServer(mcp.Options{Name: "payments", Version: "1.0.0"})
//	err := srv.Bind(spec, mcp.Tool{Handler: lookup})
//	err = srv.ServeStream(ctx, os.Stdin, os.Stdout, principal)
//
// # Dispatch
//
// Every message passes the gates in this order:
//
//  1. Envelope (jsonrpc.Decode): a malformed message is answered with an
//     error under its id, or null when the id cannot be read.
//  2. A method under "notifications/" is handled and never answered.
//  3. A request without id is not answered: there is nothing to answer to.
//  4. Handshake era: before notifications/initialized, any request but
//     initialize is -32600. (A stateless-era request carries its own
//     revision and needs no handshake.)
//  5. Dispatch: an unknown method, or one the revision in force does not
//     have, is -32601.
//
// tools/call then checks params, discoverability (an unentitled tool and a
// nonexistent one get the same -32601), the schema hash pin (drift.Error),
// the input schema (every error, sorted; the handler is never reached), and
// finally runs the handler. No input panics the server: a panic anywhere in
// dispatch is recovered, logged and answered with -32603.
package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-faster/jx"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Options configure a Server. The zero value is a working server with an
// empty estate.
type Options struct {
	// Name and Version are the serverInfo; they default to "mcpgen" and
	// "0.0.0".
	Name, Version string
	// Title is serverInfo's display name, optional.
	Title string
	// Instructions are sent in initialize and server/discover results.
	Instructions string
	// Registry is the estate served; nil means a new, empty one.
	Registry *estate.Registry
	// Resources and Prompts are served as given; URIs and names must be
	// unique.
	Resources []Resource
	Prompts   []Prompt
	// ResourceTemplates are served as given; URI templates must be unique
	// and well formed (see ResourceTemplate).
	ResourceTemplates []ResourceTemplate
	// Logger receives the call log and errors; nil discards them.
	Logger *slog.Logger
	// ListTTL is the ttlMs hint on list results in the stateless era; zero
	// means DefaultListTTL and a negative value means 0 (always stale).
	ListTTL time.Duration
	// MaxMessageBytes bounds one line of ServeStream; zero means 16 MiB.
	MaxMessageBytes int
	// CallTimeout is the deadline of every tool handler; zero means none
	// beyond the request's own context. A call whose handler overruns it is
	// answered with a failure at once (see Handler).
	CallTimeout time.Duration
}

// Server serves one estate to any number of sessions. It is safe for
// concurrent use.
type Server struct {
	registry        *estate.Registry
	log             *slog.Logger
	info            implementation
	instructions    string
	listTTLMs       int64
	maxMessageBytes int
	callTimeout     time.Duration
	resources       []Resource          // sorted by URI
	prompts         []Prompt            // sorted by name
	templates       []*resourceTemplate // sorted by URI template

	toolsMu sync.RWMutex
	tools   map[versionKey]*binding

	// infos holds what is derived once per published version (a map under
	// a lock rather than a sync.Map, whose any keys would allocate a boxed
	// versionKey on every lookup).
	infosMu sync.RWMutex
	infos   map[versionKey]*specInfo

	mu           sync.Mutex
	sessions     map[*Session]struct{}
	closed       bool
	stopWatching func()
}

// NewServer builds a server. It fails only on resources or prompts that
// cannot be served unambiguously.
func NewServer(opts Options) (*Server, error) {
	if err := checkCatalogue(opts.Resources, opts.Prompts); err != nil {
		return nil, err
	}
	templates, err := compileTemplates(opts.ResourceTemplates)
	if err != nil {
		return nil, err
	}
	s := &Server{
		registry:        opts.Registry,
		log:             opts.Logger,
		info:            implementation{Name: opts.Name, Title: opts.Title, Version: opts.Version},
		instructions:    opts.Instructions,
		maxMessageBytes: opts.MaxMessageBytes,
		callTimeout:     opts.CallTimeout,
		resources:       slices.Clone(opts.Resources),
		prompts:         slices.Clone(opts.Prompts),
		templates:       templates,
		tools:           map[versionKey]*binding{},
		infos:           map[versionKey]*specInfo{},
		sessions:        map[*Session]struct{}{},
	}
	if s.registry == nil {
		s.registry = estate.NewRegistry()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.info.Name == "" {
		s.info.Name = "mcpgen"
	}
	if s.info.Version == "" {
		s.info.Version = "0.0.0"
	}
	switch {
	case opts.ListTTL == 0:
		s.listTTLMs = DefaultListTTL.Milliseconds()
	case opts.ListTTL > 0:
		s.listTTLMs = opts.ListTTL.Milliseconds()
	}
	if s.maxMessageBytes <= 0 {
		s.maxMessageBytes = 16 << 20
	}
	slices.SortFunc(s.resources, func(a, b Resource) int { return strings.Compare(a.URI, b.URI) })
	slices.SortFunc(s.prompts, func(a, b Prompt) int { return strings.Compare(a.Name, b.Name) })
	s.stopWatching = s.registry.OnChange(s.estateChanged)
	return s, nil
}

// Registry returns the estate the server serves.
func (s *Server) Registry() *estate.Registry { return s.registry }

// Close stops watching the estate and ends every open subscriptions/listen
// stream gracefully (its request is answered). Sessions keep serving
// requests; closing them is their transport's business.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	sessions := s.liveSessionsLocked()
	s.mu.Unlock()
	s.stopWatching()
	for _, sess := range sessions {
		sess.endSubscriptions(true)
	}
	return nil
}

// NewSession starts a session for one connection of principal p. send
// receives every server-initiated message (notifications, and requests to
// the client such as sampling), one encoded JSON-RPC message per call,
// possibly from several goroutines at once (ordering within one
// subscription, and within one tool call, is kept); nil drops them, and
// then no request to the client can be made. The client's responses come
// back through Handle. Close the session when the connection ends.
func (s *Server) NewSession(p estate.Principal, send func(msg []byte)) *Session {
	sess := &Session{
		srv:       s,
		principal: p,
		send:      send,
		inflight:  map[string]*inflight{},
		listens:   map[string]*subscription{},
	}
	s.mu.Lock()
	s.sessions[sess] = struct{}{}
	s.mu.Unlock()
	return sess
}

func (s *Server) removeSession(sess *Session) {
	s.mu.Lock()
	delete(s.sessions, sess)
	s.mu.Unlock()
}

func (s *Server) liveSessionsLocked() []*Session {
	out := make([]*Session, 0, len(s.sessions))
	for sess := range s.sessions {
		out = append(out, sess)
	}
	return out
}

// estateChanged runs on every registry change, in the goroutine that made
// it. Each session is notified from a goroutine of its own: a client slow to
// read must hold up neither the publish nor the other clients.
func (s *Server) estateChanged() {
	s.mu.Lock()
	sessions := s.liveSessionsLocked()
	s.mu.Unlock()
	for _, sess := range sessions {
		go sess.toolsChanged()
	}
}

// request is one request on its way through dispatch.
type request struct {
	ctx        context.Context
	session    *Session
	flight     *inflight
	id         jsonrpc.ID
	method     string
	rev        Revision
	params     params
	clientCaps map[string]any

	// call and toolResult are a tools/call's, kept here so that a call
	// allocates its inflight only.
	call       Call
	toolResult callToolResult
}

// params is a request's params object split into members, with _meta
// decoded.
type params struct {
	members []paramMember
	inline  [4]paramMember // members' storage for the usual few
	meta    map[string]any
	// metaState says whether _meta is absent, an object, or something
	// else (which no rule accepts).
	metaState int
	// protocolKey says _meta carries a protocol key of the stateless era,
	// and version is the protocol version it names ("" when absent or not
	// a string): what era reads.
	protocolKey bool
	version     string
}

const (
	metaAbsent = iota
	metaObject
	metaMalformed
)

// paramMember is one member of params: its name and its JSON text.
type paramMember struct {
	name  string
	value json.RawMessage
}

func parseParams(raw json.RawMessage) *params {
	p := &params{}
	p.parse(raw, true)
	return p
}

// parse splits raw into p's members and reads _meta's members, in one
// walk: the protocol keys era reads always, and every member's value
// decoded into p.meta when decodeMeta is set (a transport that only routes
// the request leaves that to dispatch).
func (p *params) parse(raw json.RawMessage, decodeMeta bool) {
	if raw == nil {
		return
	}
	// The envelope was decoded strictly (one well-formed object, no
	// duplicate names at any depth), so this only splits raw into its
	// members, each value's text a slice of raw. It runs on every request:
	// jsonrpc.ForEachMember, which checks everything again, made a
	// tools/call over a pipe 4% slower.
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(raw)
	p.members = p.inline[:0]
	_ = d.ObjBytes(func(d *jx.Decoder, name []byte) error {
		v, err := d.Raw()
		p.members = append(p.members, paramMember{name: jsonrpc.Intern(name), value: json.RawMessage(v)})
		return err
	})
	m := p.member("_meta")
	if m == nil {
		return
	}
	p.metaState = metaMalformed
	if kindOf(m) != '{' {
		return
	}
	var meta map[string]any
	if decodeMeta {
		meta = map[string]any{}
	}
	d.ResetBytes(m)
	err := d.ObjBytes(func(d *jx.Decoder, name []byte) error {
		v, err := d.Raw()
		if err != nil {
			return err
		}
		switch string(name) {
		case MetaProtocolVersion:
			p.protocolKey = true
			p.version, _ = jsonrpc.Unquote(v)
		case MetaClientCapabilities:
			p.protocolKey = true
		}
		if !decodeMeta {
			return nil
		}
		value, err := schema.DecodeJSON(v)
		meta[string(name)] = value
		return err
	})
	if err != nil {
		p.protocolKey, p.version = false, ""
		return
	}
	p.meta, p.metaState = meta, metaObject
}

// era decides a request's era (see Revision): the methods of the
// stateless era, or a _meta carrying its protocol keys. version is the
// protocol version _meta names ("" when absent or not a string).
func (p *params) era(method string) (stateless bool, version string) {
	return method == methodDiscover || method == methodListen || p.protocolKey, p.version
}

// member returns a member's JSON text, nil when absent.
func (p *params) member(name string) json.RawMessage {
	for _, m := range p.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// str returns a string member's value; ok is false when it is absent or
// not a string.
func (p *params) str(name string) (string, bool) { return jsonrpc.Unquote(p.member(name)) }

// kindOf is the JSON kind of raw ('{', '[', '"', '0', 't', 'f', 'n'), 0
// when raw is empty.
func kindOf(raw json.RawMessage) jsontext.Kind {
	if len(raw) == 0 {
		return 0
	}
	return jsontext.Value(raw).Kind()
}

func invalidParams(message string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, message)
}
