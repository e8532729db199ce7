package manifest

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
	"go.yaml.in/yaml/v3"
)

// Estate is a loaded manifest directory: every tool with every version, and
// the server's own description when the directory has one.
type Estate struct {
	// Dir is the directory as the caller named it.
	Dir string
	// Server is the server file's content, or nil when there is none.
	Server *Server
	// Tools are sorted by name.
	Tools []*Tool
}

// Tool is one tool manifest: a name and its versions.
type Tool struct {
	Name string
	// File is the manifest's path, as errors print it.
	File string
	// Pos is where the name is written.
	Pos Pos
	// WireName is the name the tool is published and called by, when it
	// is not Name: the name an existing server gave it that the name rules
	// refuse (see estate.ToolSpec.WireName). It belongs to the tool, not
	// to a version: a client finds every version by the same name.
	WireName string
	// WirePos is where WireName is written.
	WirePos Pos
	// Versions are sorted ascending.
	Versions []*Version
}

// Version is one version of one tool as its manifest states it. Every
// field has been checked; Spec turns it into what the runtime publishes.
type Version struct {
	// Name is the tool's name.
	Name string
	// WireName is the tool's WireName.
	WireName string
	Version  estate.Version
	Title    string
	// Description is prompt surface: the model reads it to choose tools.
	Description        string
	SideEffect         estate.SideEffect
	RequiredScopes     []string
	DataClassification estate.Classification
	Owner              string
	// Tenants is an allow-list; empty means every tenant.
	Tenants []string
	// Lifecycle is estate.Active when the manifest does not say.
	Lifecycle estate.Lifecycle
	// SupersededBy is "name@X.Y.Z", naming a version of this estate, or "".
	SupersededBy string
	// InputSchema is the parsed input schema; InputSchema.Document() is the
	// schema as written, in runtime/schema's JSON value model.
	InputSchema *schema.Schema
	// OutputSchema is nil when the manifest declares none.
	OutputSchema *schema.Schema
	// FormatAnnotations are the formats the schemas serve without
	// asserting them: formats the contract language does not assert,
	// listed on purpose (see schema.Options).
	FormatAnnotations []string
	// File is the manifest's path, as errors print it.
	File string

	entry  *yaml.Node      // the version's mapping
	fields map[string]pair // every field as written
	tool   *Tool
	// locate answers Pos for a version not read from a manifest file
	// (NewVersion).
	locate Locator
}

// Key identifies the version: "payments.lookup@1.0.0".
func (v *Version) Key() string { return v.Name + "@" + v.Version.String() }

// Spec returns the version as the runtime publishes it. The slices are
// the caller's own copies.
func (v *Version) Spec() estate.ToolSpec {
	return estate.ToolSpec{
		Name:               v.Name,
		WireName:           v.WireName,
		Version:            v.Version,
		Title:              v.Title,
		Description:        v.Description,
		InputSchema:        v.InputSchema,
		OutputSchema:       v.OutputSchema,
		SideEffect:         v.SideEffect,
		RequiredScopes:     slices.Clone(v.RequiredScopes),
		DataClassification: v.DataClassification,
		Owner:              v.Owner,
		Tenants:            slices.Clone(v.Tenants),
		Lifecycle:          v.Lifecycle,
		SupersededBy:       v.SupersededBy,
	}
}

// Pos returns where something of this version is written, so that a later
// stage (the generator's Go-name check, the breaking-change gate) can
// report it as file:line:col.
//
// With no field it is the version's entry. With a field ("sideEffect",
// "inputSchema") it is the field's key; "name" is where the tool's name is
// written (Tool.Pos). With a
// schema path after "inputSchema" or "outputSchema" it is the key of the
// last segment (Pos("inputSchema", "properties", "reference") is where the
// property is declared); a numeric segment indexes a list. A field or
// segment that is not written gives the position of the deepest part of
// the path that is.
func (v *Version) Pos(field string, schemaPath ...string) Pos {
	if v.locate != nil {
		return v.locate(field, schemaPath...)
	}
	at := v.entry
	switch p, ok := v.fields[field]; {
	case field == "name" && v.tool != nil:
		return v.tool.Pos
	case ok:
		at = locate(p, schemaPath, "")
	}
	return Pos{v.File, at.Line, at.Column}
}

// Specs returns every version of every tool as ToolSpecs, by name and then
// version: an order in which they publish into an estate.Registry.
func (e *Estate) Specs() []estate.ToolSpec {
	var out []estate.ToolSpec
	for _, t := range e.Tools {
		for _, v := range t.Versions {
			out = append(out, v.Spec())
		}
	}
	return out
}

// Server is the server file: what the server says about itself, and the
// resources and prompts it serves.
type Server struct {
	// File is the server file's path, as errors print it.
	File string
	// Name and Version are the serverInfo the server announces.
	Name    string
	Version string
	// Resources and Prompts are in the order written.
	Resources []*Resource
	Prompts   []*Prompt
}

// Resource is a static text resource.
type Resource struct {
	URI      string
	Name     string
	MIMEType string // "" when not declared
	Text     string
	// Tenants is an allow-list; empty means every tenant.
	Tenants []string
	// Pos is where the resource's entry is written.
	Pos Pos
}

// Prompt is a prompt template. Its Template names arguments as {name};
// other braces are literal text.
type Prompt struct {
	Name        string
	Description string
	Arguments   []Argument
	Template    string
	// Pos is where the prompt's entry is written.
	Pos Pos
}

// Argument is one argument of a prompt, as MCP's PromptArgument.
type Argument struct {
	Name        string
	Description string
	// Required is false unless the manifest says true, as in MCP.
	Required bool
}
