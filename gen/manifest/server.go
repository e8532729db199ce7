package manifest

import (
	"mime"
	"net/url"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The server file format (server.yaml, server.yml or server.json).
//
// A prompt's arguments are objects {name, description, required}, as MCP's
// PromptArgument, and only objects: one spelling keeps the editor schema
// and the loader simple, and "required" is stated rather than implied.
// As in MCP, an argument is optional unless it says required: true.
var (
	serverShape = shape{
		what:     "a server file",
		fields:   []string{"$schema", "name", "version", "resources", "prompts"},
		required: []string{"name", "version"},
	}
	resourceShape = shape{
		what:     "a resource",
		fields:   []string{"uri", "name", "mimeType", "text", "tenants"},
		required: []string{"uri", "name", "text"},
	}
	promptShape = shape{
		what:     "a prompt",
		fields:   []string{"name", "description", "arguments", "template"},
		required: []string{"name", "template"},
	}
	argumentShape = shape{
		what:     "a prompt argument",
		fields:   []string{"name", "description", "required"},
		required: []string{"name"},
	}
)

// argumentName is what an argument may be called, and placeholder is how a
// template names one: {reference}. Other braces are literal text.
var (
	argumentName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	placeholder  = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)
)

// server decodes the server file.
func (d *decoder) server(root *yaml.Node) *Server {
	o := d.object(root, serverShape)
	if o == nil {
		return nil
	}
	s := &Server{File: d.file}
	if p, ok := o.get("$schema"); ok {
		d.str(p)
	}
	if p, ok := o.get("name"); ok {
		s.Name = d.nonEmpty(p)
	}
	if p, ok := o.get("version"); ok {
		s.Version = d.nonEmpty(p)
	}
	if p, ok := o.get("resources"); ok {
		items, _ := d.list(p)
		first := map[string]*yaml.Node{}
		for _, item := range items {
			r, uri := d.resource(item)
			if r == nil {
				continue
			}
			if prev, dup := first[r.URI]; dup {
				d.errorf(uri, "resource %q is declared twice (first at line %d)", r.URI, prev.Line)
				continue
			}
			first[r.URI] = uri
			s.Resources = append(s.Resources, r)
		}
	}
	if p, ok := o.get("prompts"); ok {
		items, _ := d.list(p)
		first := map[string]*yaml.Node{}
		for _, item := range items {
			pr, name := d.prompt(item)
			if pr == nil {
				continue
			}
			if prev, dup := first[pr.Name]; dup {
				d.errorf(name, "prompt %q is declared twice (first at line %d)", pr.Name, prev.Line)
				continue
			}
			first[pr.Name] = name
			s.Prompts = append(s.Prompts, pr)
		}
	}
	return s
}

// nonEmpty decodes a string field that must say something.
func (d *decoder) nonEmpty(p pair) string {
	s, ok := d.str(p)
	if ok && strings.TrimSpace(s) == "" {
		d.errorf(p.value, "%s is empty", p.key.Value)
	}
	return s
}

// resource decodes one resource; it returns it with the node of its uri
// when both are usable.
func (d *decoder) resource(item *yaml.Node) (*Resource, *yaml.Node) {
	o := d.object(item, resourceShape)
	if o == nil {
		return nil, nil
	}
	r := &Resource{Pos: d.pos(item)}
	var uriNode *yaml.Node
	if p, ok := o.get("uri"); ok {
		if s, ok := d.str(p); ok {
			switch u, err := url.Parse(s); {
			case err != nil:
				d.errorf(p.value, "uri %q is not a URI: %v", s, err)
			case u.Scheme == "":
				d.errorf(p.value, "uri %q is not absolute (it needs a scheme, as in policy://sanctions/hold-release)", s)
			default:
				r.URI, uriNode = s, p.value
			}
		}
	}
	if p, ok := o.get("name"); ok {
		r.Name = d.nonEmpty(p)
	}
	if p, ok := o.get("mimeType"); ok {
		if s, ok := d.str(p); ok {
			if _, _, err := mime.ParseMediaType(s); err != nil {
				d.errorf(p.value, "mimeType %q is not a media type: %v", s, err)
			}
			r.MIMEType = s
		}
	}
	if p, ok := o.get("text"); ok {
		r.Text, _ = d.str(p)
	}
	if p, ok := o.get("tenants"); ok {
		r.Tenants, _ = d.strList(p, func(s string) string {
			if s == "" {
				return "tenants contain an empty tenant"
			}
			return ""
		})
	}
	if uriNode == nil {
		return nil, nil
	}
	return r, uriNode
}

// prompt decodes one prompt; it returns it with the node of its name when
// both are usable.
func (d *decoder) prompt(item *yaml.Node) (*Prompt, *yaml.Node) {
	o := d.object(item, promptShape)
	if o == nil {
		return nil, nil
	}
	pr := &Prompt{Pos: d.pos(item)}
	var nameNode *yaml.Node
	if p, ok := o.get("name"); ok {
		if pr.Name = d.nonEmpty(p); pr.Name != "" {
			nameNode = p.value
		}
	}
	if p, ok := o.get("description"); ok {
		pr.Description, _ = d.str(p)
	}
	declared := map[string]*yaml.Node{}
	argsOK := true
	if p, ok := o.get("arguments"); ok {
		items, good := d.list(p)
		argsOK = good
		for i, item := range items {
			a, name, ok := d.argument(item, i)
			if !ok {
				argsOK = false
				continue
			}
			if prev, dup := declared[a.Name]; dup {
				d.errorf(name, "argument %q is declared twice (first at line %d)", a.Name, prev.Line)
				continue
			}
			declared[a.Name] = name
			pr.Arguments = append(pr.Arguments, a)
		}
	}
	if p, ok := o.get("template"); ok {
		if s, ok := d.str(p); ok {
			pr.Template = s
			if argsOK {
				for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
					if _, ok := declared[m[1]]; !ok {
						d.errorf(p.value, "template names {%s}, which is not a declared argument", m[1])
					}
				}
			}
		}
	}
	if nameNode == nil {
		return nil, nil
	}
	return pr, nameNode
}

// argument decodes one prompt argument.
func (d *decoder) argument(item *yaml.Node, i int) (Argument, *yaml.Node, bool) {
	if item.Kind == yaml.ScalarNode && item.ShortTag() == "!!str" {
		d.errorf(item, "arguments[%d] must be a mapping {name, description, required}, not a string", i)
		return Argument{}, nil, false
	}
	before := len(d.errs)
	o := d.object(item, argumentShape)
	if o == nil {
		return Argument{}, nil, false
	}
	var a Argument
	var nameNode *yaml.Node
	if p, ok := o.get("name"); ok {
		if s, ok := d.str(p); ok {
			if !argumentName.MatchString(s) {
				d.errorf(p.value, "argument name %q is not an identifier (letters, digits and _, not starting with a digit), so no template could name it", s)
			}
			a.Name, nameNode = s, p.value
		}
	}
	if p, ok := o.get("description"); ok {
		a.Description, _ = d.str(p)
	}
	if p, ok := o.get("required"); ok {
		a.Required, _ = d.boolean(p)
	}
	return a, nameNode, len(d.errs) == before && nameNode != nil
}
