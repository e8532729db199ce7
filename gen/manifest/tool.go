package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
	"go.yaml.in/yaml/v3"
)

// The tool manifest format. "$schema" is accepted (and ignored) so that a
// JSON manifest can name its JSON Schema for editors, as a YAML one does in
// a "# yaml-language-server: $schema=..." comment.
var (
	toolShape = shape{
		what:     "a tool manifest",
		fields:   []string{"$schema", "name", "wireName", "versions"},
		required: []string{"name", "versions"},
	}
	versionShape = shape{
		what: "a version",
		fields: []string{
			"version", "title", "description", "sideEffect", "requiredScopes",
			"dataClassification", "owner", "tenants", "lifecycle", "supersededBy",
			"formatAnnotations", "inputSchema", "outputSchema",
		},
		required: []string{"version", "description", "sideEffect", "dataClassification", "owner", "inputSchema"},
	}
)

// tool decodes a tool manifest. It returns nil when the file does not
// describe a tool at all.
func (d *decoder) tool(root *yaml.Node) *Tool {
	o := d.object(root, toolShape)
	if o == nil {
		return nil
	}
	t := &Tool{File: d.file, Pos: d.pos(root)}
	nameOK := false
	if p, ok := o.get("$schema"); ok {
		d.str(p)
	}
	if p, ok := o.get("name"); ok {
		t.Pos = d.pos(p.value)
		if t.Name, nameOK = d.str(p); nameOK {
			if msg := estateProblem(func(s *estate.ToolSpec) { s.Name = t.Name }); msg != "" {
				d.errorf(p.value, "%s", msg)
				nameOK = false
			}
		}
	}
	if p, ok := o.get("wireName"); ok {
		if w, ok := d.str(p); ok {
			switch msg := estateProblem(func(s *estate.ToolSpec) { s.WireName = w }); {
			case msg != "":
				d.errorf(p.value, "%s", msg)
			case w == "":
				d.errorf(p.value, "wireName is empty (leave it out to publish the tool as its name)")
			case w == t.Name:
				d.errorf(p.value, "wireName is the tool's name (leave it out)")
			default:
				t.WireName, t.WirePos = w, d.pos(p.value)
			}
		}
	}
	p, ok := o.get("versions")
	if !ok {
		return t
	}
	items, ok := d.list(p)
	if !ok {
		return t
	}
	if len(items) == 0 {
		d.errorf(p.value, "versions is empty: a tool has at least one version")
	}
	first := map[string]*Version{}
	for _, item := range items {
		v := d.version(item, t, nameOK)
		if v == nil || v.Version.IsZero() {
			continue
		}
		if prev, dup := first[v.Version.String()]; dup {
			d.errorf(v.fields["version"].value, "version %s is declared twice (first at line %d)", v.Version, prev.fields["version"].value.Line)
			continue
		}
		first[v.Version.String()] = v
		t.Versions = append(t.Versions, v)
	}
	return t
}

// version decodes one entry of versions. Each field is checked where it is
// written; the rules about a field's value are the estate's (the parse
// functions and ToolSpec.Validate), the manifest only says where.
func (d *decoder) version(item *yaml.Node, t *Tool, nameOK bool) *Version {
	before := len(d.errs)
	o := d.object(item, versionShape)
	if o == nil {
		return nil
	}
	v := &Version{Name: t.Name, WireName: t.WireName, File: d.file, Lifecycle: estate.Active, entry: item, fields: o.fields, tool: t}

	if p, ok := o.get("version"); ok {
		switch p.value.ShortTag() {
		case "!!int", "!!float":
			// version: 1.0 is a number to YAML; say what is wrong with it
			// as a version, which is what the author meant it to be.
			_, err := estate.ParseVersion(p.value.Value)
			d.report(p.value, err)
		default:
			if s, ok := d.str(p); ok {
				ver, err := estate.ParseVersion(s)
				d.report(p.value, err)
				v.Version = ver
			}
		}
	}
	if p, ok := o.get("title"); ok {
		v.Title, _ = d.str(p)
	}
	if p, ok := o.get("description"); ok {
		if s, ok := d.str(p); ok {
			if strings.TrimSpace(s) == "" {
				d.errorf(p.value, "description is empty (the model reads it to choose the tool)")
			}
			v.Description = s
		}
	}
	if p, ok := o.get("sideEffect"); ok {
		if s, ok := d.str(p); ok {
			se, err := estate.ParseSideEffect(s)
			d.report(p.value, err)
			v.SideEffect = se
		}
	}
	if p, ok := o.get("requiredScopes"); ok {
		v.RequiredScopes, _ = d.strList(p, func(s string) string {
			return estateProblem(func(spec *estate.ToolSpec) { spec.RequiredScopes = []string{s} })
		})
	}
	if p, ok := o.get("dataClassification"); ok {
		if s, ok := d.str(p); ok {
			c, err := estate.ParseClassification(s)
			d.report(p.value, err)
			v.DataClassification = c
		}
	}
	if p, ok := o.get("owner"); ok {
		if s, ok := d.str(p); ok {
			d.problem(p.value, func(spec *estate.ToolSpec) { spec.Owner = s })
			v.Owner = s
		}
	}
	if p, ok := o.get("tenants"); ok {
		v.Tenants, _ = d.strList(p, func(s string) string {
			return estateProblem(func(spec *estate.ToolSpec) { spec.Tenants = []string{s} })
		})
	}
	if p, ok := o.get("lifecycle"); ok {
		if s, ok := d.str(p); ok {
			l, err := estate.ParseLifecycle(s)
			d.report(p.value, err)
			v.Lifecycle = l
		}
	}
	if p, ok := o.get("supersededBy"); ok {
		if s, ok := d.str(p); ok && s != "" {
			name, ver := t.Name, v.Version
			if !nameOK || ver.IsZero() {
				// Check the form alone: without a valid key of its own the
				// version cannot be compared with its successor, so it is
				// taken as the oldest version of the successor's tool.
				name, _, _ = strings.Cut(s, "@")
				ver = oldestVersion
			}
			if msg := estateProblem(func(spec *estate.ToolSpec) {
				spec.Name, spec.Version, spec.SupersededBy = name, ver, s
			}); msg != "" {
				d.errorf(p.value, "%s", msg)
			} else {
				v.SupersededBy = s
			}
		}
	}
	if p, ok := o.get("formatAnnotations"); ok {
		v.FormatAnnotations, _ = d.strList(p, func(name string) string {
			if slices.Contains(schema.AssertedFormats(), name) {
				return fmt.Sprintf("format %q is asserted by the contract language; only a format it does not assert can be served as an annotation", name)
			}
			return ""
		})
	}
	if p, ok := o.get("inputSchema"); ok {
		if v.InputSchema = d.schema(p, v.FormatAnnotations); v.InputSchema != nil {
			d.problem(locate(p, []string{"type"}, ""), func(spec *estate.ToolSpec) { spec.InputSchema = v.InputSchema })
		}
	}
	if p, ok := o.get("outputSchema"); ok {
		if v.OutputSchema = d.schema(p, v.FormatAnnotations); v.OutputSchema != nil {
			d.problem(locate(p, []string{"type"}, ""), func(spec *estate.ToolSpec) { spec.OutputSchema = v.OutputSchema })
		}
	}

	// Whatever else the estate would refuse, it refuses here, at the entry.
	if len(d.errs) == before && nameOK {
		if err := v.Spec().Validate(); err != nil {
			d.errorf(item, "%v", err)
		}
	}
	return v
}

// schema decodes a schema field: the value becomes a JSON document and
// schema.ParseWith checks it (formats lists the formats served as
// annotations); each *schema.SchemaError is reported at the node its path
// names, as "inputSchema/properties/x/pattern: message". A contract no
// object can meet is refused too (see unsatisfiable).
func (d *decoder) schema(p pair, formats []string) *schema.Schema {
	doc, ok := d.value(p.value)
	if !ok {
		return nil
	}
	if _, isMap := doc.(map[string]any); !isMap {
		d.errorf(p.value, "%s must be a mapping (a JSON Schema object), not %s", p.key.Value, describe(p.value))
		return nil
	}
	s, err := schema.ParseWith(doc, schema.Options{AnnotationFormats: formats})
	if err == nil {
		err = unsatisfiable(s)
	}
	if err == nil {
		return s
	}
	var errs schema.SchemaErrors
	if !errors.As(err, &errs) {
		d.errorf(p.value, "%s: %v", p.key.Value, err)
		return nil
	}
	for _, e := range errs {
		where := p.key.Value
		if len(e.Path) > 0 {
			where += e.Path.String()
		}
		d.errorf(locate(p, e.Path, e.Message), "%s: %s", where, e.Message)
	}
	return nil
}

// unsatisfiable refuses an object schema that requires a property it also
// forbids: one that is not declared, matches no patternProperties, and
// additionalProperties is false. No value meets such a contract; it is
// almost always a name misspelled in required or in properties.
func unsatisfiable(s *schema.Schema) error {
	var errs schema.SchemaErrors
	for _, ptr := range s.Pointers() {
		x := s.Lookup(ptr)
		if !x.Closed() {
			continue
		}
		for _, name := range x.Required() {
			applying := schema.PropertySchemas([]*schema.Schema{x}, name)
			if x.Property(name) == nil && len(applying) == 1 && applying[0] == x.AdditionalProperties() {
				errs = append(errs, &schema.SchemaError{Path: append(x.Location(), "required"),
					Message: fmt.Sprintf("required property %q is not declared in properties, and additionalProperties is false: no value can have it", name)})
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// report reports err, if any, at n.
func (d *decoder) report(n *yaml.Node, err error) {
	if err != nil {
		d.errorf(n, "%v", err)
	}
}

// problem reports at n what the estate says about the fields set sets.
func (d *decoder) problem(n *yaml.Node, set func(*estate.ToolSpec)) {
	if msg := estateProblem(set); msg != "" {
		d.errorf(n, "%s", msg)
	}
}

var (
	probeVersion = estate.MustParseVersion("1.0.0")
	// oldestVersion is older than any version a successor can name.
	oldestVersion = estate.MustParseVersion("0.0.0")
	probeSchema   = schema.MustParseJSON(`{"type":"object"}`)
)

// estateProblem returns what estate.ToolSpec.Validate says about the
// fields set sets, on a spec whose other fields are valid, or "". The
// estate owns the rules for a tool name, a scope, a tenant, an owner, a
// successor and the type of a tool's schemas; asking it keeps them in one
// place while the manifest reports each at the line that breaks it.
func estateProblem(set func(*estate.ToolSpec)) string {
	spec := estate.ToolSpec{
		Name: "probe", Version: probeVersion, SideEffect: estate.Read,
		DataClassification: estate.Public, Owner: "probe", InputSchema: probeSchema,
	}
	set(&spec)
	err := spec.Validate()
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, subject := range []string{spec.Key(), "tool spec " + strconv.Quote(spec.Key())} {
		if rest, ok := strings.CutPrefix(msg, subject+": "); ok {
			return rest
		}
	}
	return msg
}
