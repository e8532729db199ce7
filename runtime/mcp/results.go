package mcp

import (
	"maps"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// common holds the members every result may carry, decided by the revision
// in force (see finish). Result types embed it, so the members are
// promoted into the result object.
type common struct {
	ResultType string `json:"resultType,omitempty"`
	// TTLMs is a pointer so that a TTL of 0 ("immediately stale") is sent.
	TTLMs      *int64         `json:"ttlMs,omitempty"`
	CacheScope string         `json:"cacheScope,omitempty"`
	Meta       map[string]any `json:"_meta,omitempty"`
	// metaJSON is Meta encoded, when Meta is a _meta shared by many
	// results (see infoMeta), encoded once for all of them.
	metaJSON []byte
}

// appendMembers appends the members of c that are set, each after a comma,
// in the order and form encoding/json gives them.
func (c *common) appendMembers(b []byte) ([]byte, error) {
	if c.ResultType != "" {
		b = appendMember(b, "resultType", c.ResultType)
	}
	if c.TTLMs != nil {
		b = append(b, `,"ttlMs":`...)
		b = strconv.AppendInt(b, *c.TTLMs, 10)
	}
	if c.CacheScope != "" {
		b = appendMember(b, "cacheScope", c.CacheScope)
	}
	if c.metaJSON != nil {
		b = append(b, `,"_meta":`...)
		b = append(b, c.metaJSON...)
	} else if len(c.Meta) > 0 {
		meta, err := jsonrpc.Marshal(c.Meta)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"_meta":`...)
		b = append(b, meta...)
	}
	return b, nil
}

// cacheScopePrivate: our lists depend on who asks, so a shared cache must
// not serve one caller's list to another.
const (
	cacheScopePrivate = "private"
	cacheScopePublic  = "public"
)

// DefaultListTTL is the ttlMs hint of list results when Options.ListTTL is
// zero. A client that subscribed to list changes learns of a change at
// once; the TTL bounds how stale a client that did not can be.
const DefaultListTTL = time.Minute

// finish fills the members r's revision requires. cacheScope is "" for a
// result that is not cacheable, otherwise the scope to declare. Any _meta
// already set (a handler's) is kept; the server's key is added to a copy.
func (s *Server) finish(rev Revision, c *common, cacheScope string) {
	if rev.ResultType() {
		c.ResultType = "complete"
	}
	if cacheScope != "" && rev.CacheHints() {
		ttl := s.listTTLMs
		c.TTLMs = &ttl
		c.CacheScope = cacheScope
	}
	if rev.ServerInfoInResults() {
		if len(c.Meta) == 0 {
			shared := s.infoMeta(rev)
			c.Meta, c.metaJSON = shared.meta, shared.json
			return
		}
		meta := make(map[string]any, len(c.Meta)+1)
		maps.Copy(meta, c.Meta)
		meta[MetaServerInfo] = s.infoOn(rev)
		c.Meta, c.metaJSON = meta, nil
	}
}

// infoMeta is the _meta of a result that carries only serverInfo, as rev
// writes it, and its encoding: made once per revision and shared by every
// such result (a result's _meta is only encoded once finish has set it,
// never changed), so that a result of the stateless era, which always
// carries it, does not encode the same map again.
func (s *Server) infoMeta(rev Revision) *sharedMeta {
	if m, ok := s.infoMetas.Load(rev); ok {
		return m.(*sharedMeta)
	}
	meta := map[string]any{MetaServerInfo: s.infoOn(rev)}
	encoded, err := jsonrpc.Marshal(meta)
	if err != nil {
		encoded = nil // left to appendMembers, which reports it
	}
	m, _ := s.infoMetas.LoadOrStore(rev, &sharedMeta{meta: meta, json: encoded})
	return m.(*sharedMeta)
}

// sharedMeta is a _meta many results share, and its encoding.
type sharedMeta struct {
	meta map[string]any
	json []byte
}

// infoOn is serverInfo as rev writes it.
func (s *Server) infoOn(rev Revision) implementation {
	info := s.info
	info.Title = titleOn(rev, info.Title)
	return info
}

// implementation is serverInfo (and clientInfo).
type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// capabilities is what the server declares: tools, resources and prompts,
// each with list-change notifications (Server.AddResource, AddPrompt...),
// resources with subscriptions where the revision has resources/subscribe;
// log messages; and argument completion where the revision has the
// capability.
type capabilities struct {
	Tools       listChangedCap `json:"tools"`
	Resources   resourcesCap   `json:"resources"`
	Prompts     listChangedCap `json:"prompts"`
	Logging     struct{}       `json:"logging"`
	Completions *struct{}      `json:"completions,omitempty"`
}

type listChangedCap struct {
	ListChanged bool `json:"listChanged"`
}

type resourcesCap struct {
	Subscribe   bool `json:"subscribe"`
	ListChanged bool `json:"listChanged"`
}

// capabilitiesFor is what the server declares to a client of rev.
func capabilitiesFor(rev Revision) capabilities {
	caps := capabilities{
		Tools:     listChangedCap{ListChanged: true},
		Resources: resourcesCap{Subscribe: rev.ResourceSubscriptions(), ListChanged: true},
		Prompts:   listChangedCap{ListChanged: true},
	}
	if rev.Has(FeatureCompletions) {
		caps.Completions = &struct{}{}
	}
	return caps
}

type initializeResult struct {
	ProtocolVersion Revision       `json:"protocolVersion"`
	Capabilities    capabilities   `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
	common
}

type discoverResult struct {
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      capabilities `json:"capabilities"`
	Instructions      string       `json:"instructions,omitempty"`
	common
}

type emptyResult struct {
	common
}

// listenResult ends a subscriptions/listen stream that the server closes
// gracefully (on shutdown); its _meta names the subscription.
type listenResult struct {
	common
}

// subscriptionFilter is subscriptions/listen's "notifications" member and
// the acknowledgement's: which notification types a stream carries.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// follows reports whether the stream carries changes of the list kind.
func (f subscriptionFilter) follows(kind listKind) bool {
	switch kind {
	case listTools:
		return f.ToolsListChanged
	case listResources:
		return f.ResourcesListChanged
	case listPrompts:
		return f.PromptsListChanged
	}
	return false
}

type subscriptionAck struct {
	Meta          map[string]any     `json:"_meta"`
	Notifications subscriptionFilter `json:"notifications"`
}
