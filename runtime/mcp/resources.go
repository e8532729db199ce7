package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Resource is a resource at a fixed URI: text, a binary blob, or contents
// a function reads. Resources are application-controlled: no schema, no
// scopes; only a tenant allow-list decides who sees one.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// Text is the resource's contents, unless Blob or Read is set.
	Text string
	// Blob is the base64 encoding of binary contents; when set, the
	// resource is binary and Text is ignored.
	Blob string
	// Read, when set, reads the contents on every resources/read instead
	// (a resource whose contents change; see Server.NotifyResourceUpdated).
	Read ResourceReader
	// Tenants is an allow-list; empty means every tenant. A resource
	// outside the caller's tenant is answered exactly like one that does
	// not exist.
	Tenants []string
}

// ResourceRead is one resources/read that reached a resource or a
// resource template.
type ResourceRead struct {
	// URI is the URI read.
	URI string
	// Vars are a template's variables, percent-decoded; nil for a
	// resource at a fixed URI.
	Vars map[string]string
	// Principal is who reads. Never log it.
	Principal estate.Principal
	// Revision is the protocol revision in force for the request.
	Revision Revision
}

// ResourceReader reads a resource's contents. Returning
// ErrResourceNotFound answers the read exactly as an unknown URI is
// answered; any other error is logged and answered as an internal error.
type ResourceReader func(ctx context.Context, read *ResourceRead) ([]ResourceContents, error)

// ErrResourceNotFound is what a ResourceReader returns for a URI that
// matches its template but names nothing.
var ErrResourceNotFound = errors.New("mcp: no such resource")

// contents returns a fixed resource's contents.
func (r *Resource) contents(ctx context.Context, read *ResourceRead) ([]ResourceContents, error) {
	switch {
	case r.Read != nil:
		return r.Read(ctx, read)
	case r.Blob != "":
		return []ResourceContents{{URI: r.URI, MIMEType: r.MIMEType, Blob: r.Blob}}, nil
	}
	return []ResourceContents{{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}}, nil
}

func (r *Resource) visibleTo(tenant string) bool {
	return len(r.Tenants) == 0 || slices.Contains(r.Tenants, tenant)
}

// Prompt is a user-controlled template. Its text names arguments as
// "{name}"; prompts/get fills each declared argument in one pass (a value
// containing "{other}" is not filled again) and answers one user message.
// A prompt whose messages need more (several messages, images, embedded
// resources) sets Get instead.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	Template    string
	// Get, when set, builds the messages instead of Template. It runs only
	// once every required argument is present.
	Get PromptGetter
	// Complete suggests values for the prompt's arguments
	// (completion/complete); nil suggests none.
	Complete Completer
}

// PromptGet is one prompts/get that reached a prompt's Get.
type PromptGet struct {
	Name string
	// Arguments are the arguments given; every required one is present.
	Arguments map[string]string
	// Principal is who asks. Never log it.
	Principal estate.Principal
	Revision  Revision
}

// PromptGetter builds a prompt's messages. An error is logged and answered
// as an internal error.
type PromptGetter func(ctx context.Context, get *PromptGet) ([]PromptMessage, error)

// checkCatalogue refuses resources and prompts that cannot be served
// unambiguously: a missing or repeated URI or name, a repeated argument.
// (Templates are checked as they are compiled.)
func checkCatalogue(resources []Resource, prompts []Prompt) error {
	uris := map[string]bool{}
	for _, r := range resources {
		if r.URI == "" || uris[r.URI] {
			return fmt.Errorf("mcp: resource URI %q is empty or repeated", r.URI)
		}
		if r.Blob != "" && !isBase64(r.Blob) {
			return fmt.Errorf("mcp: resource %q: blob is not base64", r.URI)
		}
		uris[r.URI] = true
	}
	names := map[string]bool{}
	for _, p := range prompts {
		if p.Name == "" || names[p.Name] {
			return fmt.Errorf("mcp: prompt name %q is empty or repeated", p.Name)
		}
		names[p.Name] = true
		args := map[string]bool{}
		for _, a := range p.Arguments {
			if a.Name == "" || args[a.Name] {
				return fmt.Errorf("mcp: prompt %q: argument name %q is empty or repeated", p.Name, a.Name)
			}
			args[a.Name] = true
		}
	}
	return nil
}

type resourcesListResult struct {
	Resources  []protocol.Resource `json:"resources"`
	NextCursor string              `json:"nextCursor,omitempty"`
	common
}

type resourcesReadResult struct {
	Contents []ResourceContents `json:"contents"`
	common
}

func (s *Server) resourcesList(r *request) (any, *jsonrpc.Error) {
	pg, rpcErr := s.pageOf(r, listResources)
	if rpcErr != nil {
		return nil, rpcErr
	}
	var visible []*Resource
	cat := s.cat()
	for i := range cat.resources { // sorted by URI
		if rs := &cat.resources[i]; rs.visibleTo(r.session.principal.Tenant) {
			visible = append(visible, rs)
		}
	}
	start, end, more := pg.bounds(len(visible), func(i int) string { return visible[i].URI })
	res := &resourcesListResult{Resources: make([]protocol.Resource, 0, end-start)}
	for _, rs := range visible[start:end] {
		res.Resources = append(res.Resources, protocol.Resource{URI: rs.URI, Name: rs.Name, Title: titleOn(r.rev, rs.Title), Description: rs.Description, MIMEType: rs.MIMEType})
	}
	if more {
		res.NextCursor = pg.next(listResources, more, visible[end-1].URI)
	}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

// unknownResource is the one answer for a URI the caller cannot read,
// whether nothing is there or it is not theirs.
func unknownResource(uri string) *jsonrpc.Error {
	return invalidParams("unknown resource: " + echo(uri))
}

// findResource returns what serves uri for tenant: a fixed resource, or
// else the first template (by URI template) that matches it, with the
// match. Resources and templates outside the tenant are passed over, as
// if they did not exist.
func (s *Server) findResource(tenant, uri string) (*Resource, *resourceTemplate, *templateMatch) {
	cat := s.cat()
	i, found := slices.BinarySearchFunc(cat.resources, uri, func(rs Resource, uri string) int { return strings.Compare(rs.URI, uri) })
	if found && cat.resources[i].visibleTo(tenant) {
		return &cat.resources[i], nil, nil
	}
	for _, t := range cat.templates {
		if !t.visibleTo(tenant) {
			continue
		}
		if m, ok := t.match(uri); ok {
			return nil, t, m
		}
	}
	return nil, nil, nil
}

func (s *Server) resourcesRead(r *request) (any, *jsonrpc.Error) {
	uri, ok := r.params.str("uri")
	if !ok {
		return nil, invalidParams("uri is required and must be a string")
	}
	read := &ResourceRead{URI: uri, Principal: r.session.principal, Revision: r.rev}
	var contents []ResourceContents
	var err error
	switch rs, t, m := s.findResource(r.session.principal.Tenant, uri); {
	case rs != nil:
		contents, err = rs.contents(r.ctx, read)
	case t != nil:
		read.Vars = m.vars
		contents, err = t.contents(r.ctx, read, m)
	default:
		return nil, unknownResource(uri)
	}
	if errors.Is(err, ErrResourceNotFound) {
		return nil, unknownResource(uri)
	}
	if err != nil {
		s.log.LogAttrs(r.ctx, slog.LevelError, "resource read failed", slog.String("uri", uri), slog.String("error", err.Error()))
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "resource read failed")
	}
	if contents == nil {
		contents = []ResourceContents{}
	}
	res := &resourcesReadResult{Contents: contents}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

type promptsListResult struct {
	Prompts    []protocol.Prompt `json:"prompts"`
	NextCursor string            `json:"nextCursor,omitempty"`
	common
}

type promptsGetResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	common
}

func (s *Server) promptsList(r *request) (any, *jsonrpc.Error) {
	pg, rpcErr := s.pageOf(r, listPrompts)
	if rpcErr != nil {
		return nil, rpcErr
	}
	prompts := s.cat().prompts // sorted by name
	start, end, more := pg.bounds(len(prompts), func(i int) string { return prompts[i].Name })
	res := &promptsListResult{Prompts: make([]protocol.Prompt, 0, end-start)}
	for _, p := range prompts[start:end] {
		args := p.Arguments
		if args == nil {
			args = []PromptArgument{}
		}
		res.Prompts = append(res.Prompts, protocol.Prompt{Name: p.Name, Title: titleOn(r.rev, p.Title), Description: p.Description, Arguments: args})
	}
	if more {
		res.NextCursor = pg.next(listPrompts, more, prompts[end-1].Name)
	}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

func (s *Server) promptsGet(r *request) (any, *jsonrpc.Error) {
	name, ok := r.params.str("name")
	if !ok {
		return nil, invalidParams("name is required and must be a string")
	}
	p, found := s.cat().prompt(name)
	if !found {
		return nil, invalidParams("unknown prompt: " + echo(name))
	}
	// Only the arguments the prompt declares are kept; every value must be
	// a string all the same.
	values := map[string]string{}
	if raw := r.params.member("arguments"); raw != nil {
		if kindOf(raw) != '{' {
			return nil, invalidParams("arguments must be an object of strings")
		}
		var notString *string
		jsonrpc.EachMember(raw, func(name []byte, value json.RawMessage) {
			str, isString := jsonrpc.Unquote(value)
			switch {
			case !isString:
				if notString == nil {
					n := string(name)
					notString = &n
				}
			case slices.ContainsFunc(p.Arguments, func(a PromptArgument) bool { return a.Name == string(name) }):
				values[string(name)] = str
			}
		})
		if notString != nil {
			return nil, invalidParams("argument " + echo(*notString) + " must be a string")
		}
	}
	var missing []string
	var pairs []string
	for _, a := range p.Arguments {
		v, given := values[a.Name]
		if !given && a.Required {
			missing = append(missing, a.Name)
		}
		pairs = append(pairs, "{"+a.Name+"}", v)
	}
	if len(missing) > 0 {
		return nil, invalidParams("missing arguments: " + strings.Join(missing, ", "))
	}
	res := &promptsGetResult{Description: p.Description}
	if p.Get != nil {
		msgs, err := p.Get(r.ctx, &PromptGet{Name: p.Name, Arguments: values, Principal: r.session.principal, Revision: r.rev})
		if err != nil {
			s.log.LogAttrs(r.ctx, slog.LevelError, "prompt failed", slog.String("prompt", p.Name), slog.String("error", err.Error()))
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "prompt failed")
		}
		res.Messages = msgs
		if res.Messages == nil {
			res.Messages = []PromptMessage{}
		}
	} else {
		text := strings.NewReplacer(pairs...).Replace(p.Template)
		res.Messages = []PromptMessage{{Role: RoleUser, Content: TextContent(text)}}
	}
	if !r.rev.Has(FeatureAudioContent) {
		for i := range res.Messages {
			res.Messages[i].Content = withoutAudio([]Content{res.Messages[i].Content})[0]
		}
	}
	s.finish(r.rev, &res.common, "")
	return res, nil
}
