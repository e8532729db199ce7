// Package mcp is the MCP server runtime: dispatch through the five gates
// (docs/concepts.md#the-gates), the handshake and stateless protocol eras (see Revision),
// authorization-aware tools/list and tools/call over an estate.Registry,
// resources and resource templates with subscriptions, prompts, argument
// completion, change notifications, and the stdio transport (ServeStream).
// Other transports drive a Session message by message.
//
// A tool handler talks to the client through its *Call: Progress and Log
// send notifications about the call; Elicit, ElicitURL, Sample and Roots
// ask the client, where it declared the capability. In the handshake era
// they send a request and wait for the answer; in the stateless era the
// call is answered input_required with the question and a sealed
// requestState, and the handler runs again when the client calls back
// with its answer (docs/concepts.md#asking-the-client).
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/oplog"
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
	// Resources and Prompts are served as given, until Server.AddResource,
	// RemoveResource, AddPrompt or RemovePrompt change them; URIs and
	// names must be unique.
	Resources []Resource
	Prompts   []Prompt
	// ResourceTemplates are served as given; URI templates must be unique
	// and well formed (see ResourceTemplate).
	ResourceTemplates []ResourceTemplate
	// Logger receives the call log and errors; nil discards them. Every
	// record is clipped first (oplog.Capped): a string a peer sent never
	// makes a log line longer than oplog.DefaultMaxRecord.
	Logger *slog.Logger
	// ListTTL is the ttlMs hint on list results in the stateless era; zero
	// means DefaultListTTL and a negative value means 0 (always stale).
	ListTTL time.Duration
	// PageSize is the most entries one page of tools/list,
	// resources/list, resources/templates/list or prompts/list holds (a
	// longer list is answered a page at a time, with nextCursor); zero
	// means DefaultPageSize and a negative value one page whatever the
	// length.
	PageSize int
	// MaxMessageBytes bounds one line of ServeStream; zero means 16 MiB.
	MaxMessageBytes int
	// MaxInFlight bounds the requests one ServeStream session has in
	// flight: at the bound it stops reading until an answer is written
	// (see ServeStream). Zero means DefaultMaxInFlight. Transports that
	// drive sessions themselves bound their own (mcphttp.Options).
	MaxInFlight int
	// CallTimeout is the deadline of every tool handler; zero means none
	// beyond the request's own context. A call whose handler overruns it is
	// answered with a failure at once (see Handler).
	CallTimeout time.Duration
	// RequestStateKey is the AES-256 key (RequestStateKeySize bytes) that
	// seals the requestState of a stateless-era call waiting for the
	// client's input (see Call.Elicit). Nil means a random key of this
	// process: replicas behind one load balancer must share a key, so that
	// any of them can continue a call another one started, and a restart
	// ends the calls waiting for input.
	RequestStateKey []byte
	// RequestStateTTL is how long such a requestState opens; zero means
	// DefaultRequestStateTTL.
	RequestStateTTL time.Duration
	// Observe, when set, is told of every tool call, refusal and session
	// (see Event), synchronously on the goroutine serving the request: it
	// must be quick and safe for concurrent use. Metrics hang here.
	Observe func(Event)
}

// DefaultMaxInFlight is Options.MaxInFlight when zero: plenty for one
// client, whose requests are answered in microseconds unless a handler
// waits on something, and few enough that a client that stops reading
// holds the server to a few megabytes.
const DefaultMaxInFlight = 64

// Server serves one estate to any number of sessions. It is safe for
// concurrent use.
type Server struct {
	registry        *estate.Registry
	log             *slog.Logger
	info            implementation
	infoMetas       sync.Map // Revision → the _meta of a result with serverInfo alone (see infoMeta)
	instructions    string
	listTTLMs       int64
	pageSize        int // 0: every list is one page
	maxMessageBytes int
	maxInFlight     int
	callTimeout     time.Duration
	handlers        handlerWatch // over the calls ServeIncoming runs in place
	observe         func(Event)
	sealer          *sealer

	// catalogue is the resources, templates and prompts served;
	// catalogueMu orders the changes to it (see Server.change).
	catalogue   atomic.Pointer[catalogue]
	catalogueMu sync.Mutex

	// toolsMu orders the changes to tools, wire and called; calls read
	// tools and called through lookup, without it.
	toolsMu sync.Mutex
	tools   map[versionKey]*binding
	// wire maps each wire name a bound version publishes to its tool's
	// name (estate.ToolSpec.WireName): what binding checks a new name
	// against (bindWireLocked).
	wire map[string]string
	// called maps the name a call uses for each tool ever bound (its wire
	// name, or its name: a call names the tool by the name it was listed
	// under) to that name and the tool's, so that a call's name is looked
	// up without making a string of it (see callName).
	called map[string][2]string
	// lookup is a copy of tools and called that calls read without a
	// lock: a read lock writes its count of readers, and two cores
	// reading one lock pass its cache line back and forth on every call.
	// A change sets it to nil and the next call that looks a tool up
	// copies the tables again (see lookupTables), so that binding n
	// versions in a row copies them once, not n times.
	lookup atomic.Pointer[toolTables]

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
// cannot be served unambiguously, and on a RequestStateKey of the wrong
// size.
func NewServer(opts Options) (*Server, error) {
	templates, err := compileTemplates(opts.ResourceTemplates)
	if err != nil {
		return nil, err
	}
	cat, err := newCatalogue(opts.Resources, templates, opts.Prompts)
	if err != nil {
		return nil, err
	}
	sealer, err := newSealer(opts.RequestStateKey, opts.RequestStateTTL)
	if err != nil {
		return nil, err
	}
	s := &Server{
		registry:        opts.Registry,
		log:             oplog.Logger(opts.Logger),
		info:            implementation{Name: opts.Name, Title: opts.Title, Version: opts.Version},
		instructions:    opts.Instructions,
		maxMessageBytes: opts.MaxMessageBytes,
		maxInFlight:     opts.MaxInFlight,
		callTimeout:     opts.CallTimeout,
		observe:         opts.Observe,
		sealer:          sealer,
		tools:           map[versionKey]*binding{},
		wire:            map[string]string{},
		called:          map[string][2]string{},
		infos:           map[versionKey]*specInfo{},
		sessions:        map[*Session]struct{}{},
	}
	if s.registry == nil {
		s.registry = estate.NewRegistry()
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
	switch {
	case opts.PageSize == 0:
		s.pageSize = DefaultPageSize
	case opts.PageSize > 0:
		s.pageSize = opts.PageSize
	}
	if s.maxMessageBytes <= 0 {
		s.maxMessageBytes = 16 << 20
	}
	if s.maxInFlight <= 0 {
		s.maxInFlight = DefaultMaxInFlight
	}
	s.catalogue.Store(cat)
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
// back through Handle. Close the session when the connection ends. The
// session keeps p normalised (estate.Principal.Normalized): its calls
// check it as it is, and their Call.Principal has its scopes sorted.
func (s *Server) NewSession(p estate.Principal, send func(msg []byte)) *Session {
	sess := &Session{srv: s, principal: p.Normalized(), send: send}
	sess.flights.shards = make([]flightShard, flightShards)
	s.opened(sess)
	s.registerLocked(sess) // nobody else has sess yet: its lock need not be held
	return sess
}

// NewRequestSession starts a session for one request of the stateless
// era, which its transport closes once the request is answered (as
// mcphttp does for every stateless request). It is NewSession's session
// but for one thing: it is made known to the server, which list changes,
// resource updates and Close reach it through, only when it opens what
// they are for (a subscriptions/listen stream, a resource subscription).
// The request of a stateless call, most of them, thus takes no
// server-wide lock.
//
// Its one request needs no spreading of requests in flight over locks:
// it keeps one shard (see flights), in the session's own allocation.
func (s *Server) NewRequestSession(p estate.Principal, send func(msg []byte)) *Session {
	rs := &requestSession{Session: Session{srv: s, principal: p.Normalized(), send: send}}
	rs.flights.shards = rs.shard[:]
	s.opened(&rs.Session)
	return &rs.Session
}

// requestSession is a NewRequestSession's session with its one shard of
// requests in flight: 304 bytes, where a session with the eight shards
// inline took 728 for every stateless request.
type requestSession struct {
	Session
	shard [1]flightShard
}

// opened readies a new session's handshake and reports it opened.
func (s *Server) opened(sess *Session) {
	sess.handshake.Store(noHandshake)
	s.Observe(Event{Kind: SessionOpened})
}

// registerLocked makes sess known to the server (see NewRequestSession);
// sess.mu is held, and sess is not closed, so that Close, which reads
// registered under sess.mu, removes what was added. The server's lock is
// taken inside the session's, never the other way round (the server
// reads its sessions under its lock and calls them after letting it go).
func (s *Server) registerLocked(sess *Session) {
	if sess.registered {
		return
	}
	sess.registered = true
	s.mu.Lock()
	s.sessions[sess] = struct{}{}
	s.mu.Unlock()
}

func (s *Server) removeSession(sess *Session, registered bool) {
	if registered {
		s.mu.Lock()
		delete(s.sessions, sess)
		s.mu.Unlock()
	}
	s.Observe(Event{Kind: SessionClosed})
}

func (s *Server) liveSessionsLocked() []*Session {
	out := make([]*Session, 0, len(s.sessions))
	for sess := range s.sessions {
		out = append(out, sess)
	}
	return out
}

// estateChanged runs on every registry change, in the goroutine that made
// it: the tool list changed.
func (s *Server) estateChanged() { s.listChanged(listTools) }

// listChanged tells every session that the list kind changed. Each session
// is notified from a goroutine of its own: a client slow to read must hold
// up neither the change nor the other clients.
func (s *Server) listChanged(kind listKind) {
	s.mu.Lock()
	sessions := s.liveSessionsLocked()
	s.mu.Unlock()
	for _, sess := range sessions {
		go sess.listChanged(kind)
	}
}

// request is one request on its way through dispatch.
type request struct {
	requestState
	params params
	// logText is the buffer the call log's redacted arguments are written
	// into (see loggedArguments), kept from one request to the next.
	logText []byte
}

// requestState is a request but its params: what dispatch sets anew for
// each request, around params a transport may have read already (see
// Incoming), which are then not copied out and back.
type requestState struct {
	ctx     context.Context
	session *Session
	flight  *inflight
	id      jsonrpc.ID
	method  string
	rev     Revision
	// clientCaps is the text of the capabilities the client declared (in
	// initialize, or in this request's _meta), nil when none.
	clientCaps json.RawMessage

	// call and toolResult are a tools/call's, kept here so that a call
	// allocates its inflight only.
	call       Call
	toolResult callToolResult
}

// params is a request's params object: the members the server reads, each
// as its JSON text, and the members of _meta it reads. Nothing else of
// either is kept, copied or decoded: a member whose name the server never
// asks for is skipped, whatever its size (see eachMember).
type params struct {
	members
	// meta is _meta's text, nil when absent; metaState says whether it is
	// absent, an object, or something else (which no rule accepts).
	meta      json.RawMessage
	metaState int
	// metaMembers holds the text of the _meta members the server reads
	// (indexed by metaProtocolVersion...), nil where absent.
	metaMembers [metaKnown]json.RawMessage
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

// The members of _meta the server reads, as indexes of
// params.metaMembers.
const (
	metaProtocolVersion = iota
	metaClientCapabilities
	metaLogLevel
	metaVersionPin
	metaSchemaHash
	metaProgressToken
	metaKnown
)

// metaIndex is the index in params.metaMembers of the _meta member name,
// -1 for a member the server does not read.
func metaIndex(name []byte) int {
	switch string(name) {
	case MetaProtocolVersion:
		return metaProtocolVersion
	case MetaClientCapabilities:
		return metaClientCapabilities
	case MetaLogLevel:
		return metaLogLevel
	case MetaVersion:
		return metaVersionPin
	case MetaSchemaHash:
		return metaSchemaHash
	case MetaProgressToken:
		return metaProgressToken
	}
	return -1
}

// paramMember is one member of an object: its name and its JSON text.
type paramMember struct {
	name  string
	value json.RawMessage
}

// members are the members of one JSON object the server reads: those whose
// names are registered with jsonrpc.RegisterNames, each value's text a
// slice of the object's. The first few are kept in place, the rest (rarely
// any) in more: a reading holds no pointer into itself, so that it is
// copied as a value (see HandleIncoming) and stays where it is declared.
type members struct {
	first [4]paramMember
	n     int // how many of first are set
	more  []paramMember
}

// split reads the object raw's registered members into m.
func (m *members) split(raw json.RawMessage) {
	m.n, m.more = 0, nil
	jsonrpc.EachMember(raw, m.add)
}

// add reads one member, when its name is registered, into m; a zero m
// and add for each member of an object is split.
func (m *members) add(name []byte, value json.RawMessage) {
	known, ok := jsonrpc.Lookup(name)
	switch {
	case !ok:
	case m.n < len(m.first):
		m.first[m.n] = paramMember{name: known, value: value}
		m.n++
	default:
		m.more = append(m.more, paramMember{name: known, value: value})
	}
}

// member returns a member's JSON text, nil when absent.
func (m *members) member(name string) json.RawMessage {
	for _, e := range m.first[:m.n] {
		if e.name == name {
			return e.value
		}
	}
	for _, e := range m.more {
		if e.name == name {
			return e.value
		}
	}
	return nil
}

func parseParams(raw json.RawMessage) *params {
	p := &params{}
	p.parse(raw)
	return p
}

// parse reads raw's members and, in one walk, the members of _meta the
// server reads: the protocol keys era reads, the version and schema hash
// pins, the log level and the progress token. The rest of _meta is skipped
// unread; Call.Meta decodes it for a handler that asks.
func (p *params) parse(raw json.RawMessage) {
	if raw == nil {
		return
	}
	p.split(raw)
	p.readMeta()
}

// readMeta reads, once p's members are, the members of _meta the server
// reads (see parse).
func (p *params) readMeta() {
	m := p.member("_meta")
	if m == nil {
		return
	}
	p.meta, p.metaState = m, metaMalformed
	if kindOf(m) != '{' {
		return
	}
	jsonrpc.EachMember(m, func(name []byte, value json.RawMessage) {
		if i := metaIndex(name); i >= 0 {
			p.metaMembers[i] = value
		}
	})
	p.metaState = metaObject
	p.protocolKey = p.metaMembers[metaProtocolVersion] != nil || p.metaMembers[metaClientCapabilities] != nil
	p.version, _ = jsonrpc.UnquoteInterned(p.metaMembers[metaProtocolVersion])
}

// era decides a request's era (see Revision): the methods of the
// stateless era, or a _meta carrying its protocol keys. version is the
// protocol version _meta names ("" when absent or not a string).
func (p *params) era(method string) (stateless bool, version string) {
	return method == methodDiscover || method == methodListen || p.protocolKey, p.version
}

// str returns a string member's value; ok is false when it is absent or
// not a string.
func (m *members) str(name string) (string, bool) { return jsonrpc.Unquote(m.member(name)) }

// kindOf is the JSON kind of raw ('{', '[', '"', '0', 't', 'f', 'n'), 0
// when raw is empty.
func kindOf(raw json.RawMessage) byte { return textdec.Kind(raw) }

// echo is what an answer repeats of a string the peer sent: clipped, so
// that a name of a megabyte is not answered with another megabyte.
func echo(s string) string { return oplog.Clip(s, oplog.MaxEcho) }

func invalidParams(message string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, message)
}
