package client

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Tool-name collisions across servers are the host's problem: two servers may both export "search". A host that aggregates
// several servers names each tool Namespace(server, tool), where server is
// the id the host gave that connection in its configuration — not the
// serverInfo name, which the server controls and may change. The result is
// stable (it goes into prompts and audit records), a valid MCP tool name
// (A-Z a-z 0-9 _ - .), and reversible with SplitNamespace.

// NamespaceSeparator joins a server id and a tool name. Tool names may
// contain single underscores and dots but a server id never contains the
// separator, so the first occurrence splits them.
const NamespaceSeparator = "__"

// Namespace returns the host-side name of tool on server. The server id
// must be 1-64 characters of A-Z a-z 0-9 and single '-' or '_' (so it cannot
// contain the separator).
func Namespace(server, tool string) (string, error) {
	if err := checkServerID(server); err != nil {
		return "", err
	}
	return server + NamespaceSeparator + tool, nil
}

// SplitNamespace is the inverse of Namespace.
func SplitNamespace(name string) (server, tool string, ok bool) {
	server, tool, ok = strings.Cut(name, NamespaceSeparator)
	if !ok || checkServerID(server) != nil || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

func checkServerID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("client: server id %q must be 1 to 64 characters", id)
	}
	if strings.Contains(id, NamespaceSeparator) {
		return fmt.Errorf("client: server id %q contains %q", id, NamespaceSeparator)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("client: server id %q has character %q (allowed: A-Z a-z 0-9 - _)", id, r)
		}
	}
	return nil
}

// RepairPrompt renders the errors that deterministic repair could not fix
// as one model turn: every error, sorted, one per line, so the model fixes
// everything at once (docs/concepts.md#repair). The text is byte-identical for the
// same errors, which keeps prompt caches warm.
func RepairPrompt(tool string, remaining schema.Errors) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The arguments for %s were refused. Fix every error below and call it again:\n", tool)
	sorted := append(schema.Errors(nil), remaining...)
	schema.SortErrors(sorted)
	for _, e := range sorted {
		b.WriteString("- ")
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}
