package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/internal/mono"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Handler runs one call of one tool version. A returned error becomes a
// result with isError: true and the error's text (a tool failure the model
// should see, not a protocol error); a panic is recovered, logged, and
// becomes an isError result too. A nil result with a nil error is an empty
// successful result. The call is answered when ctx ends even if the handler
// has not returned (a deadline, Options.CallTimeout, a cancellation, the
// transport shutting down): a failure result goes out at once and the
// handler's own result, whenever it comes, is dropped.
//
// call belongs to the server again once the handler returns, as an
// http.ResponseWriter does once ServeHTTP returns: the server may reuse it
// for a later call. Work the handler leaves running copies what it needs
// from call (Value, Spec, Meta()...) rather than keeping call, Raw or
// RawMeta, whose bytes are the message's, reused too. The maps Arguments,
// Meta and ClientCapabilities return are not reused.
type Handler func(ctx context.Context, call *Call) (*Result, error)

// Validator decodes a call's raw arguments (always a JSON object) and checks
// them against the tool's input schema in one pass. It returns the value
// handed to the handler as Call.Value and every violation, sorted by (path,
// message) as schema.SortErrors orders them; with violations the value is
// ignored and the handler is not reached. Generated code supplies a
// straight-line validator that decodes into the tool's argument type.
type Validator func(raw json.RawMessage) (value any, errs schema.Errors)

// OutputChecker checks a result's structured content, as encoded, against
// the tool version's output schema: every violation, sorted as a
// Validator's are; none when the content conforms. Generated code supplies
// the version's generated decoder of its output type.
type OutputChecker func(structured json.RawMessage) schema.Errors

// Tool is the implementation bound to one tool version.
type Tool struct {
	Handler Handler
	// Validate is the fast path generated code provides. Nil means the
	// reference validator: the arguments decoded into the JSON value model
	// (Call.Value is then a map[string]any) and checked with
	// spec.InputSchema.Validate.
	Validate Validator
	// CheckOutput is the fast path generated code provides for a version
	// that declares an output schema. Nil means the reference validator:
	// the structured content decoded into the JSON value model and checked
	// with spec.OutputSchema.Validate. It is not called for a version
	// without an output schema.
	CheckOutput OutputChecker
}

// Call is one tools/call that passed every gate and reaches a handler.
type Call struct {
	// Spec is the version the call resolved to (the newest visible one, or
	// the newest entitled one satisfying the caller's _meta.version pin).
	Spec estate.ToolSpec
	// Raw is the arguments object as received ({} when absent).
	Raw json.RawMessage
	// Value is what the tool's Validator decoded (the arguments as a
	// map[string]any with the reference validator, a *T with a generated
	// version's decode.Validator or decode.Adapt).
	Value any
	// Principal is who is calling. Never log it.
	Principal estate.Principal
	// RawMeta is the request's params._meta as received (nil when absent);
	// Meta decodes it.
	RawMeta json.RawMessage
	// Revision is the protocol revision in force for this request.
	Revision Revision
	// RequestID is the JSON-RPC id of the request.
	RequestID jsonrpc.ID

	// session carries what the call sends the client: progress, log
	// messages, sampling and elicitation requests.
	session  *Session
	progress progressState
	// input is what the stateless era's rounds of this call have
	// answered, and what this run of the handler asked (see Call.Elicit).
	input callInput

	// metaMembers are the _meta members the server reads (see params);
	// rawCaps is the text of the client's capabilities.
	metaMembers [metaKnown]json.RawMessage
	rawCaps     json.RawMessage
	// checkOutput checks the result's structured content (nil: the
	// version declares no output schema).
	checkOutput OutputChecker

	argsOnce sync.Once
	args     map[string]any
	metaOnce sync.Once
	meta     map[string]any
	capsOnce sync.Once
	caps     map[string]any
}

// Arguments returns the arguments decoded into the JSON value model of
// package schema (json.Number for numbers). It decodes Raw on first use
// unless the validator already produced that form.
func (c *Call) Arguments() map[string]any {
	c.argsOnce.Do(func() {
		if m, ok := c.Value.(map[string]any); ok {
			c.args = m
			return
		}
		if v, err := schema.DecodeJSON(c.Raw); err == nil {
			c.args, _ = v.(map[string]any)
		}
	})
	return c.args
}

// Meta returns the request's params._meta decoded into the JSON value model
// of package schema; nil when absent. It decodes RawMeta on first use: the
// server itself reads only the members it needs (the version and schema
// hash pins, the progress token, the log level, the stateless era's keys)
// and skips the rest, so a _meta of any size costs nothing unless a
// handler asks for it whole.
func (c *Call) Meta() map[string]any {
	c.metaOnce.Do(func() { c.meta = decodeObject(c.RawMeta) })
	return c.meta
}

// ClientCapabilities returns the capabilities the client declared (in
// initialize in the handshake era, in this request's _meta in the
// stateless one), decoded into the JSON value model on first use; nil when
// it declared none.
func (c *Call) ClientCapabilities() map[string]any {
	c.capsOnce.Do(func() { c.caps = decodeObject(c.rawCaps) })
	return c.caps
}

// decodeObject decodes a JSON object the message's strict decoding
// accepted; nil when raw is absent or not an object.
func decodeObject(raw json.RawMessage) map[string]any {
	if raw == nil {
		return nil
	}
	v, _ := schema.DecodeJSON(raw)
	m, _ := v.(map[string]any)
	return m
}

// Result is what a handler returns.
type Result struct {
	Content []Content
	// StructuredContent, when the tool declares an output schema, must
	// satisfy it: the server checks, and a result that does not is
	// replaced by an isError result (and logged).
	StructuredContent any
	// IsError marks a tool failure the model should see.
	IsError bool
	// Meta is the result's _meta.
	Meta map[string]any
}

// TextResult is a successful result with one text block.
func TextResult(text string) *Result { return &Result{Content: []Content{TextContent(text)}} }

// ErrorResult is a tool failure with one text block.
func ErrorResult(text string) *Result {
	return &Result{Content: []Content{TextContent(text)}, IsError: true}
}

type callToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	common

	// structured is the buffer a structured content that writes itself
	// was encoded into (StructuredContent, until the result is answered),
	// kept for the next call of the request that holds the result.
	structured []byte
}

// AppendJSON writes the result as its json tags describe, without
// reflection: it is encoded on every call.
func (r *callToolResult) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = c.AppendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	if len(r.StructuredContent) > 0 {
		b = append(b, `,"structuredContent":`...)
		b = append(b, r.StructuredContent...)
	}
	b = append(b, `,"isError":`...)
	b = strconv.AppendBool(b, r.IsError)
	b, err := r.common.appendMembers(b)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// binding is a bound implementation with its validator resolved.
type binding struct {
	tool     Tool
	validate Validator
	// checkOutput is the version's output checker, nil when it declares
	// no output schema.
	checkOutput OutputChecker
	// info is Server.specInfo of the bound version, kept at its first
	// call so that later calls take no lock for it.
	info atomic.Pointer[specInfo]
}

// toolTables are Server.tools and Server.called as they stood at a
// change: never modified, read by calls without a lock.
type toolTables struct {
	tools  map[versionKey]*binding
	called map[string][2]string
}

// lookupTables returns the tables a call reads: s.lookup, or, after a
// change, a copy made now.
func (s *Server) lookupTables() *toolTables {
	if t := s.lookup.Load(); t != nil {
		return t
	}
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if t := s.lookup.Load(); t != nil {
		return t
	}
	t := &toolTables{tools: maps.Clone(s.tools), called: maps.Clone(s.called)}
	s.lookup.Store(t)
	return t
}

// changedToolsLocked drops the tables calls read, after a change to
// s.tools or s.called; s.toolsMu is held.
func (s *Server) changedToolsLocked() { s.lookup.Store(nil) }

// Bind publishes spec into the registry (the publish guard applies: an
// immutable, non-monotonic or under-bumped version is refused with the
// registry's *estate.PublishError) and binds tool to it. The binding is in
// place before the version is visible, so no call finds it unbound.
func (s *Server) Bind(spec estate.ToolSpec, tool Tool) error {
	b, err := newBinding(spec, tool)
	if err != nil {
		return err
	}
	key := keyOf(spec)
	s.toolsMu.Lock()
	if err := s.bindWireLocked(spec); err != nil {
		s.toolsMu.Unlock()
		return err
	}
	_, bound := s.tools[key]
	if !bound {
		s.tools[key] = b
	}
	s.changedToolsLocked()
	s.toolsMu.Unlock()
	if err := s.registry.Publish(spec); err != nil {
		if !bound {
			s.detach(key)
		}
		return err
	}
	if bound {
		// A bound version is published, so Publish has refused it above.
		return errors.New("mcp: bind " + spec.Key() + ": already bound")
	}
	return nil
}

// BindPublished binds tool to a version already in the registry: one that
// another server sharing the registry published, or that the estate loaded
// from its record.
func (s *Server) BindPublished(name string, version estate.Version, tool Tool) error {
	spec, ok := s.registry.Get(name, version)
	if !ok {
		return fmt.Errorf("mcp: bind %s@%s: not in the registry", name, version)
	}
	b, err := newBinding(spec, tool)
	if err != nil {
		return err
	}
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	if _, bound := s.tools[keyOf(spec)]; bound {
		return errors.New("mcp: bind " + spec.Key() + ": already bound")
	}
	if err := s.bindWireLocked(spec); err != nil {
		return err
	}
	s.tools[keyOf(spec)] = b
	s.changedToolsLocked()
	return nil
}

// bindWireLocked records spec's wire name, refusing one that another tool
// publishes under or is named: a call by that name could reach either.
// s.toolsMu must be held.
func (s *Server) bindWireLocked(spec estate.ToolSpec) error {
	if spec.WireName == "" {
		for wire, name := range s.wire {
			if wire == spec.Name && name != spec.Name {
				return fmt.Errorf("mcp: bind %s: tool %s is published under the name %q", spec.Key(), name, wire)
			}
		}
		s.called[spec.Name] = [2]string{spec.Name, spec.Name}
		return nil
	}
	if name, ok := s.wire[spec.WireName]; ok && name != spec.Name {
		return fmt.Errorf("mcp: bind %s: the wire name %q is tool %s's", spec.Key(), spec.WireName, name)
	}
	if spec.WireName != spec.Name && len(s.registry.Versions(spec.WireName)) > 0 {
		return fmt.Errorf("mcp: bind %s: the wire name %q is another tool's name", spec.Key(), spec.WireName)
	}
	s.wire[spec.WireName] = spec.Name
	s.called[spec.WireName] = [2]string{spec.WireName, spec.Name}
	return nil
}

// callName reads a call's params.name (raw, its JSON text): the name as
// sent and the tool it names (the tool published under that name, or the
// name itself); ok is false when raw is not a string. A bound tool's name
// written without escapes, every call's, is found by its bytes and
// answered with the strings kept for it: no string is made per call.
func (s *Server) callName(raw json.RawMessage) (sent, tool string, ok bool) {
	if len(raw) >= 2 && raw[0] == '"' {
		if names, found := s.calledAs(raw[1 : len(raw)-1]); found {
			return names[0], names[1], true
		}
	}
	if sent, ok = jsonrpc.Unquote(raw); !ok {
		return "", "", false
	}
	if names, found := s.calledAs([]byte(sent)); found { // written with an escape
		return sent, names[1], true
	}
	return sent, sent, true
}

// calledAs is the entry of s.called for name.
func (s *Server) calledAs(name []byte) ([2]string, bool) {
	names, found := s.lookupTables().called[string(name)]
	return names, found
}

func newBinding(spec estate.ToolSpec, tool Tool) (*binding, error) {
	if tool.Handler == nil {
		return nil, errors.New("mcp: bind " + spec.Key() + ": no handler")
	}
	if spec.InputSchema == nil {
		return nil, errors.New("mcp: bind " + spec.Key() + ": no input schema")
	}
	b := &binding{tool: tool, validate: tool.Validate}
	if b.validate == nil {
		b.validate = referenceValidator(spec.InputSchema)
	}
	if spec.OutputSchema != nil {
		if b.checkOutput = tool.CheckOutput; b.checkOutput == nil {
			b.checkOutput = referenceOutputChecker(spec.OutputSchema)
		}
	}
	return b, nil
}

// versionKey identifies a published version in the server's maps: the
// name and version text of estate.ToolSpec.Key, kept apart so that a lookup
// on every call does not build the joined string.
type versionKey struct{ name, version string }

func keyOf(spec estate.ToolSpec) versionKey {
	return versionKey{spec.Name, spec.Version.String()}
}

func (s *Server) detach(key versionKey) {
	s.toolsMu.Lock()
	delete(s.tools, key)
	s.changedToolsLocked()
	s.toolsMu.Unlock()
}

func (s *Server) binding(key versionKey) (*binding, bool) {
	b, ok := s.lookupTables().tools[key]
	return b, ok
}

// referenceValidator decodes the arguments into the JSON value model and
// runs the reference validator.
func referenceValidator(in *schema.Schema) Validator {
	return func(raw json.RawMessage) (any, schema.Errors) {
		v, err := schema.DecodeJSON(raw)
		if err != nil {
			// The envelope was decoded strictly already; this cannot
			// happen for arguments that reached a validator.
			return nil, schema.Errors{{Path: "$", Message: "arguments are not valid JSON"}}
		}
		return v, in.Validate(v)
	}
}

// referenceOutputChecker decodes the structured content into the JSON
// value model and runs the reference validator.
func referenceOutputChecker(out *schema.Schema) OutputChecker {
	return func(structured json.RawMessage) schema.Errors {
		v, err := schema.DecodeJSON(structured)
		if err != nil {
			return schema.Errors{{Path: "$", Message: err.Error()}}
		}
		return out.Validate(v)
	}
}

// specInfo is what the server derives once per published version: its
// tools/list entry in each shape a revision asks for, encoded, and its
// input schema hash. A published version never changes (only its
// lifecycle does, which neither reflects). Its successor can change only by
// a deprecation, after which the version is no longer listed, so a listed
// entry's supersededBy is never stale.
type specInfo struct {
	hash string

	mu      sync.Mutex
	entries [toolShapes]json.RawMessage // by shape, each made on first use
}

// toolShape is which members of the feature table a tools/list entry
// carries on a revision: one bit per feature of a tool.
type toolShape uint8

const (
	shapeTitle toolShape = 1 << iota
	shapeAnnotations
	shapeOutputSchema
	toolShapes = 1 << iota
)

// shapeOf is the shape of a tools/list entry on rev.
func shapeOf(rev Revision) toolShape {
	var sh toolShape
	if rev.Has(FeatureTitle) {
		sh |= shapeTitle
	}
	if rev.Has(FeatureToolAnnotations) {
		sh |= shapeAnnotations
	}
	if rev.Has(FeatureOutputSchema) {
		sh |= shapeOutputSchema
	}
	return sh
}

type toolEntry struct {
	Name         string           `json:"name"`
	Title        *string          `json:"title,omitempty"`
	Description  string           `json:"description"`
	InputSchema  map[string]any   `json:"inputSchema"`
	OutputSchema map[string]any   `json:"outputSchema,omitempty"`
	Annotations  *toolAnnotations `json:"annotations,omitempty"`
	Meta         toolMeta         `json:"_meta"`
}

type toolAnnotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint"`
	DestructiveHint bool `json:"destructiveHint"`
	IdempotentHint  bool `json:"idempotentHint"`
}

type toolMeta struct {
	Version    string `json:"version"`
	SideEffect string `json:"sideEffect"`
	SchemaHash string `json:"schemaHash"`
	// SupersededBy announces the successor of an active version before
	// it is deprecated, so a client can move its pin ahead of time.
	SupersededBy string `json:"supersededBy,omitempty"`
}

// specInfo returns the derived information of spec, computing it on first
// use.
func (s *Server) specInfo(spec estate.ToolSpec) *specInfo {
	key := keyOf(spec)
	s.infosMu.RLock()
	info, ok := s.infos[key]
	s.infosMu.RUnlock()
	if ok {
		return info
	}
	hash := spec.InputSchema.Hash()
	s.infosMu.Lock()
	defer s.infosMu.Unlock()
	if info, ok := s.infos[key]; ok {
		return info // derived meanwhile by another caller: one value for all
	}
	info = &specInfo{hash: hash}
	s.infos[key] = info
	return info
}

// toolEntry returns spec's tools/list entry in shape, encoding it on first
// use. The entry carries MCP-standard members only, those of the shape:
// the estate's platform metadata (scopes, classification, owner, tenants)
// never leaves the server, and the input schema is its public form (no
// x-secret marker).
func (s *Server) toolEntry(spec estate.ToolSpec, shape toolShape) json.RawMessage {
	info := s.specInfo(spec)
	info.mu.Lock()
	defer info.mu.Unlock()
	if e := info.entries[shape]; e != nil {
		return e
	}
	e := toolEntry{
		Name:        spec.Published(),
		Description: spec.Description,
		InputSchema: spec.InputSchema.Public(),
		Meta:        toolMeta{Version: spec.Version.String(), SideEffect: string(spec.SideEffect), SchemaHash: info.hash, SupersededBy: spec.SupersededBy},
	}
	if shape&shapeTitle != 0 {
		e.Title = &spec.Title
	}
	if shape&shapeAnnotations != 0 {
		hints := spec.SideEffect.Hints()
		e.Annotations = &toolAnnotations{ReadOnlyHint: hints.ReadOnly, DestructiveHint: hints.Destructive, IdempotentHint: hints.Idempotent}
	}
	if shape&shapeOutputSchema != 0 && spec.OutputSchema != nil {
		e.OutputSchema = spec.OutputSchema.Public()
	}
	entry, err := jsonrpc.Marshal(e)
	if err != nil {
		// A parsed schema holds JSON values only.
		panic("mcp: encoding the tools/list entry of " + spec.Key() + ": " + err.Error())
	}
	info.entries[shape] = entry
	return entry
}

// listMemo is the key of a view's encoded tools/list in one shape.
type listMemo struct {
	srv   *Server
	shape toolShape
}

func (s *Server) toolsList(r *request) (any, *jsonrpc.Error) {
	pg, rpcErr := s.pageOf(r, listTools)
	if rpcErr != nil {
		return nil, rpcErr
	}
	view, err := s.registry.DiscoverView(r.session.principal)
	if err != nil {
		s.log.LogAttrs(r.ctx, slog.LevelError, "tool discovery failed", slog.String("error", err.Error()))
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "tool discovery failed")
	}
	// The list is encoded once per view and kept on it: every principal
	// with that view, until the estate changes, is answered with the same
	// bytes. It is read-only from here on.
	shape := shapeOf(r.rev)
	list := view.Memo(listMemo{s, shape}, func(specs []estate.ToolSpec) any { return s.encodeToolList(specs, shape) }).(*toolList)
	start, end, more := pg.bounds(len(view.Tools), func(i int) string { return view.Tools[i].Name })
	var c common
	s.finish(r.rev, &c, cacheScopePrivate)
	rest := []byte{']'}
	if more {
		rest = appendMember(rest, "nextCursor", pg.next(listTools, more, view.Tools[end-1].Name))
	}
	rest, err = c.appendMembers(rest)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error")
	}
	// The page's entries are shared, not copied: the answer adds the
	// opening, its own members and the closing brace around them.
	return sharedResult{lead: toolsListOpen, open: list.entries(start, end), rest: append(rest, '}')}, nil
}

// toolsListOpen opens a tools/list result, up to its first entry.
var toolsListOpen = []byte(`{"tools":[`)

// toolList is a view's tools/list entries encoded once, one after the
// other with commas between them, and where each ends: a page of any
// range of them is a slice of the one encoding.
type toolList struct {
	body []byte
	ends []int
}

// entries is the encoding of the entries [start, end), commas between.
func (l *toolList) entries(start, end int) []byte {
	if start >= end {
		return nil
	}
	from := 0
	if start > 0 {
		from = l.ends[start-1] + 1 // past the comma
	}
	return l.body[from:l.ends[end-1]]
}

// encodeToolList encodes the tools/list entries of specs in shape (see
// toolList).
func (s *Server) encodeToolList(specs []estate.ToolSpec, shape toolShape) *toolList {
	entries := make([]json.RawMessage, len(specs))
	n := 0
	for i := range specs {
		entries[i] = s.toolEntry(specs[i], shape)
		n += len(entries[i]) + 1
	}
	l := &toolList{body: make([]byte, 0, n), ends: make([]int, len(entries))}
	for i, entry := range entries {
		if i > 0 {
			l.body = append(l.body, ',')
		}
		l.body = append(l.body, entry...)
		l.ends[i] = len(l.body)
	}
	return l
}

// unknownTool is the one answer for a tool the caller cannot reach, whether
// it does not exist, is not entitled, is retired, or matches no pin: the
// same code and message shape, so the estate cannot be probed by diffing
// errors.
func unknownTool(name string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "unknown tool: "+echo(name))
}

// msgSchemaViolation is the message of a schema violation in every revision:
// the -32602 error before 2025-11-25, the isError result's text after.
const msgSchemaViolation = "arguments failed schema validation"

func (s *Server) toolsCall(r *request) (any, *jsonrpc.Error) {
	// Params.
	name, tool, ok := s.callName(r.params.member("name"))
	if !ok {
		return nil, invalidParams("name is required and must be a string")
	}
	args := r.params.member("arguments")
	if args == nil {
		args = json.RawMessage(`{}`)
	} else if kindOf(args) != '{' {
		return nil, invalidParams("arguments must be an object")
	}
	var pin *estate.Constraint
	if raw := r.params.metaMembers[metaVersionPin]; raw != nil {
		text, isString := jsonrpc.Unquote(raw)
		if !isString {
			return nil, invalidParams("_meta.version must be a string (a version constraint)")
		}
		c, err := estate.ParseConstraint(text)
		if err != nil {
			return nil, invalidParams("_meta.version: " + echo(err.Error()))
		}
		pin = &c
	}
	rawHash := r.params.metaMembers[metaSchemaHash]
	hashPinned := rawHash != nil
	expectedHash, isString := jsonrpc.Unquote(rawHash)
	if hashPinned && !isString {
		return nil, invalidParams("_meta.schemaHash must be a string")
	}

	// Discoverability.
	spec, found, err := s.registry.ResolveFor(r.session.principal, tool, pin)
	if err != nil {
		// Logged for the operator; answered like any unreachable tool so
		// that an error cannot tell an existing name from a missing one.
		s.log.LogAttrs(r.ctx, slog.LevelError, "tool resolution failed", slog.String("tool", name), slog.String("error", err.Error()))
		found = false
	}
	// A tool with a wire name is called by it alone, as it is listed.
	found = found && spec.Published() == name
	if !found {
		s.Observe(Event{Kind: Refused, Refusal: RefusedUnknownTool, Tool: name})
		return nil, unknownTool(name)
	}
	bound, ok := s.binding(keyOf(spec))
	if !ok {
		s.log.LogAttrs(r.ctx, slog.LevelError, "no handler bound", slog.String("tool", spec.Key()))
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "no handler is bound for "+spec.Key())
	}

	// Schema hash pin.
	info := bound.info.Load()
	if info == nil {
		info = s.specInfo(spec)
		bound.info.Store(info)
	}
	if hashPinned && expectedHash != info.hash {
		s.Observe(Event{Kind: Refused, Refusal: RefusedDrift, Tool: spec.Name, Version: spec.Version.String()})
		return nil, (&drift.Error{
			ToolName: spec.Name, Version: spec.Version.String(),
			ExpectedSchemaHash: expectedHash, ObservedHash: info.hash,
		}).RPCError()
	}

	// Schema.
	value, violations := bound.validate(args)
	if len(violations) > 0 {
		s.Observe(Event{Kind: Refused, Refusal: RefusedSchema, Tool: spec.Name, Version: spec.Version.String()})
		if !r.rev.SchemaViolationIsToolError() {
			return nil, &jsonrpc.Error{
				Code: jsonrpc.CodeInvalidParams, Message: msgSchemaViolation,
				Data: map[string]any{"errors": violations.Strings()},
			}
		}
		res := &callToolResult{
			Content: []Content{TextContent(msgSchemaViolation + ":\n" + strings.Join(violations.Strings(), "\n"))},
			IsError: true,
		}
		res.Meta = successorMeta(spec, map[string]any{"errors": violations.Strings()})
		s.finish(r.rev, &res.common, "")
		return res, nil
	}

	// Handler.
	// The call and its result live in the request: one allocation fewer
	// each on every call.
	call := &r.call
	*call = Call{
		Spec: spec, Raw: args, Value: value, Principal: r.session.principal,
		RawMeta: r.params.meta, Revision: r.rev, RequestID: r.id,
		metaMembers: r.params.metaMembers, rawCaps: r.clientCaps, session: r.session,
		checkOutput: bound.checkOutput,
	}
	if r.rev.InputRequiredResults() {
		if err := s.openRound(r, call); err != nil {
			s.Observe(Event{Kind: Refused, Refusal: RefusedRequestState, Tool: spec.Name, Version: spec.Version.String()})
			return nil, err
		}
	}
	s.logCall(r, info.hash)
	if s.observe == nil {
		return s.answerCall(r, s.invoke(r, bound.tool.Handler))
	}
	version := spec.Version.String()
	s.observe(Event{Kind: CallStarted, Tool: spec.Name, Version: version})
	start := mono.Now() // one clock read, not time.Now's two
	res, rpcErr := s.answerCall(r, s.invoke(r, bound.tool.Handler))
	failed := rpcErr != nil
	if res, ok := res.(*callToolResult); ok {
		failed = res.IsError
	}
	s.observe(Event{Kind: CallFinished, Tool: spec.Name, Version: version, Duration: mono.Now() - start, Failed: failed})
	return res, rpcErr
}

// answerCall is the answer to a call whose handler returned out: its
// result, or, when the handler asked the client what it has not answered
// yet (the stateless era), the input_required result carrying the
// questions. A call whose context ended is answered with out, its failure.
func (s *Server) answerCall(r *request, out *Result) (any, *jsonrpc.Error) {
	if r.call.input.pending() && r.ctx.Err() == nil {
		return s.inputRequired(r, &r.call)
	}
	return s.callResult(r.ctx, r.rev, &r.call, out, &r.toolResult), nil
}

// callResult is the tools/call result carrying what the handler returned,
// built in res.
func (s *Server) callResult(ctx context.Context, rev Revision, call *Call, out *Result, res *callToolResult) *callToolResult {
	*res = callToolResult{Content: out.Content, IsError: out.IsError, structured: res.structured}
	if res.Content == nil {
		res.Content = []Content{}
	}
	if !rev.Has(FeatureAudioContent) {
		res.Content = withoutAudio(res.Content)
	}
	if out.StructuredContent != nil && rev.Has(FeatureStructuredContent) {
		sc, failure := s.checkOutput(ctx, call, out, &res.structured)
		if failure != nil {
			res = &callToolResult{Content: failure.Content, IsError: true}
		} else {
			res.StructuredContent = sc
		}
	}
	res.Meta = successorMeta(call.Spec, out.Meta)
	s.finish(rev, &res.common, "")
	return res
}

// successorMeta returns a call result's _meta for a call that reached
// spec: meta (the handler's, never modified) with, when spec is deprecated
// or a preview, its lifecycle, and when spec names its successor,
// supersededBy. A deprecated or preview version is reachable only by a pin
// and never listed, so the result is the one place its caller learns that
// it is on a version that is going away, or not yet the default; the
// server's keys win over a handler's of the same name, since they state
// the estate.
func successorMeta(spec estate.ToolSpec, meta map[string]any) map[string]any {
	pinnedOnly := spec.Lifecycle == estate.Deprecated || spec.Lifecycle == estate.Preview
	if !pinnedOnly && spec.SupersededBy == "" {
		return meta
	}
	out := make(map[string]any, len(meta)+2)
	maps.Copy(out, meta)
	if pinnedOnly {
		out[MetaLifecycle] = string(spec.Lifecycle)
	}
	if spec.SupersededBy != "" {
		out[MetaSupersededBy] = spec.SupersededBy
	}
	return out
}

// invoke runs r's handler so that the call is answered when its context
// ends, even if the handler has not returned (see Handler); a call whose
// context has ended already is answered so at once, and its handler still
// runs, to a result that goes nowhere.
//
// A request a stream or ServeIncoming serves runs its handler on this
// goroutine: the request's watch (its lane's, or the handlerWatch's) answers
// early, by way of its sink. HandleMessage's goroutine must return the
// answer itself, so it runs the handler on another goroutine and waits for
// whichever comes first.
func (s *Server) invoke(r *request, h Handler) *Result {
	f := r.flight
	if f.sink == nil {
		done := make(chan *Result, 1) // buffered: a late handler never blocks
		go func() { done <- s.runHandler(r.ctx, h, &r.call) }()
		select {
		case res := <-done:
			return res
		case <-r.ctx.Done():
			f.detached = true // the handler may still be running
			return s.abandoned(r)
		}
	}
	f.handling.Store(r)
	defer f.handling.Store(nil)
	if f.answerTo != nil {
		// No lane watches a request ServeIncoming serves: the server's
		// handlerWatch does, while its handler runs.
		s.handlers.begin(f)
		defer s.handlers.end(f)
	}
	if r.ctx.Err() != nil {
		f.abandon(r)
	}
	return s.runHandler(r.ctx, h, &r.call)
}

// abandoned is the failure result of a call whose context ended before
// its handler returned.
func (s *Server) abandoned(r *request) *Result {
	if errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
		s.log.LogAttrs(r.ctx, slog.LevelWarn, "tool handler overran its deadline", slog.String("tool", r.call.Spec.Key()))
		return ErrorResult("tool failed: deadline exceeded")
	}
	return ErrorResult("tool failed: cancelled")
}

// abandonedCall is the answer to a call whose context ended while its
// handler runs: built apart from the request's own result, which the
// handler's goroutine may still be writing.
func (s *Server) abandonedCall(r *request) reply {
	res := s.callResult(r.ctx, r.rev, &r.call, s.abandoned(r), new(callToolResult))
	return s.encodeAnswer(r.ctx, r.flight.msg, nil, res, nil)
}

// encodeStructured encodes v, a result's structured content, as
// jsonrpc.Marshal does; a value that writes itself (encode.Appender, as a
// generated output type does) writes into *buf, which keeps the grown
// buffer for the request's next call unless it outgrew maxKeptBuffer.
// The encoding is *buf's until that next call: it must be answered first.
func encodeStructured(v any, buf *[]byte) (json.RawMessage, error) {
	a, ok := encode.AsAppender(v)
	if !ok {
		return jsonrpc.Marshal(v)
	}
	b := (*buf)[:0]
	if b == nil {
		// One allocation for most outputs, where growing from nothing
		// would take five or six.
		b = make([]byte, 0, 512)
	}
	b, err := a.AppendJSON(b)
	if err != nil {
		return nil, err
	}
	*buf = reusable(b)
	return b, nil
}

// runHandler runs the handler, turning an error or a panic into an isError
// result. A panic's message stays in the log: it may describe internals.
func (s *Server) runHandler(ctx context.Context, h Handler, call *Call) (res *Result) {
	defer func() {
		if v := recover(); v != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "tool handler panicked",
				slog.String("tool", call.Spec.Key()), slog.String("panic", fmt.Sprint(v)),
				slog.String("stack", string(debug.Stack())))
			res = ErrorResult("tool failed: internal error")
		}
	}()
	out, err := h(ctx, call)
	if err != nil {
		return ErrorResult(err.Error())
	}
	if out == nil {
		return &Result{}
	}
	return out
}

// checkOutput encodes the structured content of out, call's result, and,
// when the tool declares an output schema and the result is not an error,
// checks it (call.checkOutput). A result that breaks the declared contract
// is a server bug: it is logged and replaced by a failure result. A
// content that writes itself (a generated output type) is written into
// *buf (see encodeStructured).
func (s *Server) checkOutput(ctx context.Context, call *Call, out *Result, buf *[]byte) (json.RawMessage, *Result) {
	enc, err := encodeStructured(out.StructuredContent, buf)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelError, "tool result does not encode", slog.String("tool", call.Spec.Key()), slog.String("error", err.Error()))
		return nil, ErrorResult("tool failed: internal error")
	}
	if call.checkOutput == nil || out.IsError {
		return enc, nil
	}
	if violations := call.checkOutput(enc); len(violations) > 0 {
		s.log.LogAttrs(ctx, slog.LevelError, "tool result violates its output schema",
			slog.String("tool", call.Spec.Key()), slog.Any("errors", violations.Strings()))
		return nil, ErrorResult("tool failed: its result does not match the declared output schema")
	}
	return enc, nil
}
