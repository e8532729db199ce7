package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

// EstateView is what `mcpgen estate` prints, kept in the CLI because it is
// output formatting, not generation: the estate as the platform sees it (the
// last section of the worked session, docs/concepts.md#the-estate):
// every tool version with its lifecycle, side effect, retry policy, scopes,
// classification and owner, and, for each principal given, which version
// of which tool it sees — so a release review can see who gains or loses
// what.
type EstateView struct {
	Versions []VersionRow   `json:"versions"`
	Views    []PrincipalRow `json:"principals,omitempty"`
}

// VersionRow is one tool version.
type VersionRow struct {
	Tool               string   `json:"tool"`
	Lifecycle          string   `json:"lifecycle"`
	SideEffect         string   `json:"sideEffect"`
	Retryable          bool     `json:"retryable"`
	RequiredScopes     []string `json:"requiredScopes"`
	DataClassification string   `json:"dataClassification"`
	Owner              string   `json:"owner"`
	Tenants            []string `json:"tenants"`
}

// PrincipalRow is what one principal sees: tool@version, sorted by tool.
type PrincipalRow struct {
	Principal PrincipalFile `json:"principal"`
	Sees      []string      `json:"sees"`
}

// PrincipalFile is one principal of a principals file (YAML or JSON, a
// list of these).
type PrincipalFile struct {
	Agent     string   `json:"agent" yaml:"agent"`
	Tenant    string   `json:"tenant" yaml:"tenant"`
	Scopes    []string `json:"scopes" yaml:"scopes"`
	Clearance string   `json:"clearance" yaml:"clearance"`
}

// LoadPrincipals reads a principals file.
func LoadPrincipals(file string) ([]PrincipalFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var ps []PrincipalFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&ps); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for i, p := range ps {
		if _, err := estate.ParseClassification(p.Clearance); err != nil {
			return nil, fmt.Errorf("%s: principal %d (%s): clearance: %v", file, i+1, p.Agent, err)
		}
	}
	return ps, nil
}

// View computes the estate view: the specs are published into a registry
// in version order (so the view is what a server built from them serves),
// and each principal's discovery is asked of it.
func View(est *manifest.Estate, principals []PrincipalFile) (*EstateView, error) {
	reg := estate.NewRegistry()
	v := &EstateView{}
	for _, s := range est.Specs() {
		if err := reg.Publish(s); err != nil {
			return nil, err
		}
		v.Versions = append(v.Versions, VersionRow{
			Tool: s.Key(), Lifecycle: string(s.Lifecycle.OrActive()), SideEffect: string(s.SideEffect), Retryable: s.SideEffect.Retryable(),
			RequiredScopes: nonNil(s.RequiredScopes), DataClassification: string(s.DataClassification), Owner: s.Owner,
			Tenants: nonNil(s.Tenants),
		})
	}
	for _, p := range principals {
		specs, err := reg.Discover(estate.Principal{AgentID: p.Agent, Tenant: p.Tenant, Scopes: p.Scopes,
			MaxClassification: estate.Classification(p.Clearance)})
		if err != nil {
			return nil, err
		}
		row := PrincipalRow{Principal: p, Sees: []string{}}
		for _, s := range specs {
			row.Sees = append(row.Sees, s.Key())
		}
		v.Views = append(v.Views, row)
	}
	return v, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EstateFormats are the formats Write knows.
var EstateFormats = []string{"text", "markdown", "json"}

// Write prints the view as text (the worked session's layout), a markdown table, or
// JSON.
func (v *EstateView) Write(w io.Writer, format string) error {
	var b strings.Builder
	switch format {
	case "text", "":
		for _, r := range v.Versions {
			fmt.Fprintf(&b, "%-28s %-11s %-21s retryable=%-5v scopes=%v class=%s owner=%s\n",
				r.Tool, r.Lifecycle, r.SideEffect, r.Retryable, r.RequiredScopes, r.DataClassification, r.Owner)
		}
		for _, p := range v.Views {
			fmt.Fprintf(&b, "%s (tenant %s, scopes %v, clearance %s) sees %v\n",
				p.Principal.Agent, p.Principal.Tenant, p.Principal.Scopes, p.Principal.Clearance, p.Sees)
		}
	case "markdown":
		b.WriteString("| tool@version | lifecycle | side effect | retryable | scopes | classification | owner |\n")
		b.WriteString("|---|---|---|---|---|---|---|\n")
		for _, r := range v.Versions {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %v | %s | %s | %s |\n", r.Tool, r.Lifecycle, r.SideEffect, r.Retryable,
				strings.Join(r.RequiredScopes, ", "), r.DataClassification, r.Owner)
		}
		if len(v.Views) > 0 {
			b.WriteString("\n| principal | tenant | scopes | clearance | sees |\n|---|---|---|---|---|\n")
			for _, p := range v.Views {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.Principal.Agent, p.Principal.Tenant,
					strings.Join(p.Principal.Scopes, ", "), p.Principal.Clearance, strings.Join(p.Sees, ", "))
			}
		}
	case "json":
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	default:
		return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(EstateFormats, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
