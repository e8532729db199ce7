package mcp

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// ResourceTemplate is a family of resources whose URIs follow a template,
// such as "test://template/{id}/data": resources/templates/list lists it,
// and resources/read of any URI it matches reads one member.
//
// Templates are the simple string expansion of RFC 6570: literal text and
// "{name}" variables, nothing else (no operators, no lists). A variable
// matches one or more characters that expansion could have produced
// (unreserved characters and percent-escapes), so it never spans a "/" and
// never carries a quote or a brace. At least one literal character must
// separate two variables.
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// Text is every member's text, unless Read is set: "{name}" is
	// replaced by the variable as the URI spells it (percent-escapes
	// kept), in one pass.
	Text string
	// Read, when set, reads a member instead; ResourceRead.Vars holds the
	// variables, percent-decoded.
	Read ResourceReader
	// Complete suggests values for the template's variables
	// (completion/complete); nil suggests none.
	Complete Completer
	// Tenants is an allow-list, as for Resource: a template outside the
	// caller's tenant neither lists nor matches.
	Tenants []string
}

// resourceTemplate is a template compiled once, at NewServer.
type resourceTemplate struct {
	ResourceTemplate
	pattern *regexp.Regexp // the whole URI; one group per variable
	vars    []string       // in order of appearance
}

type templateMatch struct {
	raw  map[string]string // as the URI spells them
	vars map[string]string // percent-decoded
}

var (
	templateExpr = regexp.MustCompile(`\{([^{}]*)\}`)
	templateVar  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// expansion is what a simple-expansion variable can have become.
const expansion = `((?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)`

// compileTemplates checks and compiles the templates, sorted by URI
// template: a template that is malformed, repeated, or without variables
// is refused, and so is a Text naming a variable the template lacks.
func compileTemplates(in []ResourceTemplate) ([]*resourceTemplate, error) {
	out := make([]*resourceTemplate, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		if seen[t.URITemplate] {
			return nil, fmt.Errorf("mcp: resource template %q is repeated", t.URITemplate)
		}
		seen[t.URITemplate] = true
		c, err := compileTemplate(t)
		if err != nil {
			return nil, fmt.Errorf("mcp: resource template %q: %w", t.URITemplate, err)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *resourceTemplate) int { return strings.Compare(a.URITemplate, b.URITemplate) })
	return out, nil
}

func compileTemplate(t ResourceTemplate) (*resourceTemplate, error) {
	c := &resourceTemplate{ResourceTemplate: t}
	var pattern strings.Builder
	pattern.WriteString("^")
	last := 0
	for _, loc := range templateExpr.FindAllStringSubmatchIndex(t.URITemplate, -1) {
		literal := t.URITemplate[last:loc[0]]
		if strings.ContainsAny(literal, "{}") {
			return nil, fmt.Errorf("unbalanced brace in %q", literal)
		}
		if literal == "" && last > 0 {
			return nil, fmt.Errorf("variables must be separated by literal text")
		}
		name := t.URITemplate[loc[2]:loc[3]]
		if !templateVar.MatchString(name) {
			return nil, fmt.Errorf("{%s} is not a simple variable (a name of letters, digits and _; operators and lists are not supported)", name)
		}
		if slices.Contains(c.vars, name) {
			return nil, fmt.Errorf("variable {%s} appears twice", name)
		}
		c.vars = append(c.vars, name)
		pattern.WriteString(regexp.QuoteMeta(literal))
		pattern.WriteString(expansion)
		last = loc[1]
	}
	rest := t.URITemplate[last:]
	if strings.ContainsAny(rest, "{}") {
		return nil, fmt.Errorf("unbalanced brace in %q", rest)
	}
	if len(c.vars) == 0 {
		return nil, fmt.Errorf("a template needs a variable (a fixed URI is a Resource)")
	}
	pattern.WriteString(regexp.QuoteMeta(rest))
	pattern.WriteString("$")
	c.pattern = regexp.MustCompile(pattern.String())
	if t.Read == nil {
		for _, m := range templateExpr.FindAllStringSubmatch(t.Text, -1) {
			if templateVar.MatchString(m[1]) && !slices.Contains(c.vars, m[1]) {
				return nil, fmt.Errorf("text names {%s}, which is not a variable of the template", m[1])
			}
		}
	}
	return c, nil
}

func (t *resourceTemplate) visibleTo(tenant string) bool {
	return len(t.Tenants) == 0 || slices.Contains(t.Tenants, tenant)
}

// match reports whether uri is a member of the template, with its
// variables.
func (t *resourceTemplate) match(uri string) (*templateMatch, bool) {
	groups := t.pattern.FindStringSubmatch(uri)
	if groups == nil {
		return nil, false
	}
	m := &templateMatch{raw: map[string]string{}, vars: map[string]string{}}
	for i, name := range t.vars {
		decoded, err := url.PathUnescape(groups[i+1])
		if err != nil {
			return nil, false
		}
		m.raw[name], m.vars[name] = groups[i+1], decoded
	}
	return m, true
}

// contents reads one member of the template.
func (t *resourceTemplate) contents(ctx context.Context, read *ResourceRead, m *templateMatch) ([]ResourceContents, error) {
	if t.Read != nil {
		return t.Read(ctx, read)
	}
	pairs := make([]string, 0, 2*len(t.vars))
	for _, name := range t.vars {
		pairs = append(pairs, "{"+name+"}", m.raw[name])
	}
	text := strings.NewReplacer(pairs...).Replace(t.Text)
	return []ResourceContents{{URI: read.URI, MIMEType: t.MIMEType, Text: text}}, nil
}

type resourceTemplateEntry struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

type resourceTemplatesListResult struct {
	ResourceTemplates []resourceTemplateEntry `json:"resourceTemplates"`
	NextCursor        string                  `json:"nextCursor,omitempty"`
	common
}

func (s *Server) resourceTemplatesList(r *request) (any, *jsonrpc.Error) {
	pg, rpcErr := s.pageOf(r, listResourceTemplates)
	if rpcErr != nil {
		return nil, rpcErr
	}
	var visible []*resourceTemplate
	for _, t := range s.cat().templates { // sorted by URI template
		if t.visibleTo(r.session.principal.Tenant) {
			visible = append(visible, t)
		}
	}
	start, end, more := pg.bounds(len(visible), func(i int) string { return visible[i].URITemplate })
	res := &resourceTemplatesListResult{ResourceTemplates: make([]resourceTemplateEntry, 0, end-start)}
	for _, t := range visible[start:end] {
		res.ResourceTemplates = append(res.ResourceTemplates, resourceTemplateEntry{t.URITemplate, t.Name, titleOn(r.rev, t.Title), t.Description, t.MIMEType})
	}
	if more {
		res.NextCursor = pg.next(listResourceTemplates, more, visible[end-1].URITemplate)
	}
	s.finish(r.rev, &res.common, cacheScopePrivate)
	return res, nil
}

// template returns the template with this URI template that tenant may
// see.
func (s *Server) template(tenant, uriTemplate string) (*resourceTemplate, bool) {
	for _, t := range s.cat().templates {
		if t.URITemplate == uriTemplate && t.visibleTo(tenant) {
			return t, true
		}
	}
	return nil, false
}
