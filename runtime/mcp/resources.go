package mcp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Resource is a fixed text resource. Resources are application-controlled:
// no schema, no scopes; only a tenant allow-list decides who sees one.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Text        string
	// Tenants is an allow-list; empty means every tenant. A resource
	// outside the caller's tenant is answered exactly like one that does
	// not exist.
	Tenants []string
}

func (r *Resource) visibleTo(tenant string) bool {
	return len(r.Tenants) == 0 || slices.Contains(r.Tenants, tenant)
}

// Prompt is a user-controlled template. Its text names arguments as
// "{name}"; prompts/get fills each declared argument in one pass (a value
// containing "{other}" is not filled again).
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	Template    string
}

// PromptArgument declares one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// checkCatalogue refuses resources and prompts that cannot be served
// unambiguously: a missing or repeated URI or name, a repeated argument.
func checkCatalogue(resources []Resource, prompts []Prompt) error {
	uris := map[string]bool{}
	for _, r := range resources {
		if r.URI == "" || uris[r.URI] {
			return fmt.Errorf("mcp: resource URI %q is empty or repeated", r.URI)
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

type resourceEntry struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

type resourcesListResult struct {
	Resources []resourceEntry `json:"resources"`
	common
}

type resourceTemplatesListResult struct {
	ResourceTemplates []struct{} `json:"resourceTemplates"`
	common
}

type resourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text"`
}

type resourcesReadResult struct {
	Contents []resourceContents `json:"contents"`
	common
}

func (s *Server) resourcesList(r *request) (any, *jsonrpc.Error) {
	res := &resourcesListResult{Resources: []resourceEntry{}}
	for i := range s.resources { // sorted by URI
		rs := &s.resources[i]
		if rs.visibleTo(r.session.principal.Tenant) {
			res.Resources = append(res.Resources, resourceEntry{rs.URI, rs.Name, rs.Title, rs.Description, rs.MIMEType})
		}
	}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

func (s *Server) resourceTemplatesList(r *request) (any, *jsonrpc.Error) {
	res := &resourceTemplatesListResult{ResourceTemplates: []struct{}{}}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

func (s *Server) resourcesRead(r *request) (any, *jsonrpc.Error) {
	uri, ok := r.params.str("uri")
	if !ok {
		return nil, invalidParams("uri is required and must be a string")
	}
	i, found := slices.BinarySearchFunc(s.resources, uri, func(rs Resource, uri string) int { return strings.Compare(rs.URI, uri) })
	if !found || !s.resources[i].visibleTo(r.session.principal.Tenant) {
		// One answer for "no such resource" and "not yours".
		return nil, invalidParams("unknown resource: " + uri)
	}
	rs := &s.resources[i]
	res := &resourcesReadResult{Contents: []resourceContents{{URI: rs.URI, MIMEType: rs.MIMEType, Text: rs.Text}}}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

type promptEntry struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
}

type promptsListResult struct {
	Prompts []promptEntry `json:"prompts"`
	common
}

type promptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

type promptsGetResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []promptMessage `json:"messages"`
	common
}

func (s *Server) promptsList(r *request) (any, *jsonrpc.Error) {
	res := &promptsListResult{Prompts: make([]promptEntry, 0, len(s.prompts))}
	for _, p := range s.prompts { // sorted by name
		args := p.Arguments
		if args == nil {
			args = []PromptArgument{}
		}
		res.Prompts = append(res.Prompts, promptEntry{p.Name, p.Title, p.Description, args})
	}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

func (s *Server) promptsGet(r *request) (any, *jsonrpc.Error) {
	name, _ := r.params.str("name")
	i, found := slices.BinarySearchFunc(s.prompts, name, func(p Prompt, name string) int { return strings.Compare(p.Name, name) })
	if !found {
		return nil, invalidParams("unknown prompt: " + name)
	}
	p := &s.prompts[i]
	values := map[string]string{}
	if raw := r.params.member("arguments"); raw != nil {
		v, err := schema.DecodeJSON(raw)
		obj, isObject := v.(map[string]any)
		if err != nil || !isObject {
			return nil, invalidParams("arguments must be an object of strings")
		}
		for k, e := range obj {
			str, isString := e.(string)
			if !isString {
				return nil, invalidParams("argument " + k + " must be a string")
			}
			values[k] = str
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
	text := strings.NewReplacer(pairs...).Replace(p.Template)
	res := &promptsGetResult{
		Description: p.Description,
		Messages:    []promptMessage{{Role: "user", Content: TextContent(text)}},
	}
	s.finish(r.rev, &res.common, "")
	return res, nil
}
