package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// principalMatrix is every combination of the estate's scopes, three
// tenants (the estate's own, another, none) and the four clearances.
func principalMatrix() []estate.Principal {
	scopes := []string{"payments.read", "payments.release", "crm.write"}
	var out []estate.Principal
	for mask := range 1 << len(scopes) {
		var held []string
		for i, s := range scopes {
			if mask&(1<<i) != 0 {
				held = append(held, s)
			}
		}
		for _, tenant := range []string{"wholesale", "retail", ""} {
			for _, c := range []estate.Classification{estate.Public, estate.Internal, estate.Confidential, estate.Restricted} {
				out = append(out, estate.Principal{AgentID: "agent-matrix-" + tenant + "-" + string(c), Tenant: tenant, Scopes: held, MaxClassification: c})
			}
		}
	}
	return out
}

// entitledByManifest is the test's own reading of the manifests' rule
// (tenant allow-list, clearance, every scope), an oracle independent of
// the registry's.
func entitledByManifest(p estate.Principal, s estate.ToolSpec) bool {
	if len(s.Tenants) > 0 && !slices.Contains(s.Tenants, p.Tenant) {
		return false
	}
	need, _ := s.DataClassification.Rank()
	have, _ := p.MaxClassification.Rank()
	if need > have {
		return false
	}
	for _, scope := range s.RequiredScopes {
		if !slices.Contains(p.Scopes, scope) {
			return false
		}
	}
	return true
}

// validArguments are arguments each version accepts.
var validArguments = map[string]string{
	"crm.notes.append@1.0.0": `{"customer_id":"C-1","note":"called back"}`,
	"payments.lookup@1.0.0":  `{"reference":"PMT-771"}`,
	"payments.lookup@2.0.0":  `{"reference":"PMT-771","as_of":"2026-03-31"}`,
	"payments.lookup@3.0.0":  `{"reference":"PMT-771","as_of":"2026-03-31"}`,
	"payments.release@1.0.0": `{"reference":"PMT-771","amount_minor":250000,"currency":"AED"}`,
}

// matrixSession is one principal's session in one revision, driven in
// process.
type matrixSession struct {
	sess *mcp.Session
	rev  mcp.Revision
	n    int // requests sent
}

func openMatrixSession(t *testing.T, srv *mcp.Server, p estate.Principal, rev mcp.Revision) *matrixSession {
	t.Helper()
	m := &matrixSession{sess: srv.NewSession(p, func([]byte) {}), rev: rev}
	t.Cleanup(m.sess.Close)
	if !rev.Stateless() {
		got := m.do("initialize", map[string]any{"protocolVersion": string(rev), "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "c", "version": "1"}})
		if !isResult(got) {
			t.Fatalf("initialize: %s", got)
		}
		m.sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	}
	return m
}

// do sends a request and returns its answer; in the stateless era the
// revision and capabilities join params' _meta.
func (m *matrixSession) do(method string, params map[string]any) string {
	m.n++
	if m.rev.Stateless() {
		meta := map[string]any{mcp.MetaProtocolVersion: string(m.rev), mcp.MetaClientCapabilities: map[string]any{}}
		if given, ok := params["_meta"].(map[string]any); ok {
			for k, v := range given {
				meta[k] = v
			}
		}
		params = maps.Clone(params)
		params["_meta"] = meta
	}
	line, err := jsonrpc.EncodeRequest(jsonrpc.IntID(7), method, params)
	if err != nil {
		panic(err)
	}
	return string(m.sess.Handle(context.Background(), line))
}

func isResult(answer string) bool {
	msg, err := jsonrpc.Decode([]byte(answer))
	return err == nil && msg.Error == nil && msg.Result != nil
}

// TestAuthorizationCannotBeProbed: for every principal of the matrix and
// every protocol revision, tools/list, tools/call, resources/list and
// resources/read agree — what is not listed cannot be called or read, by
// any pin — and the answer for an unentitled name is byte-identical,
// apart from the name, to the answer for a name that does not exist.
func TestAuthorizationCannotBeProbed(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{})
	specs := bank.Specs()
	var names []string
	for _, s := range specs {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	resources := bank.Resources()
	const ghostTool, ghostURI = "payments.ghost", "policy://sanctions/ghost-policy"
	forbidden := forbiddenMetadata(specs, resources)

	requests, sessions := 0, 0
	for _, rev := range mcp.Revisions() {
		for _, p := range principalMatrix() {
			m := openMatrixSession(t, srv, p, rev)
			sessions++
			who := string(rev) + " " + p.Tenant + "/" + string(p.MaxClassification) + "/" + strings.Join(p.Scopes, ",")

			// tools/list: exactly the names the manifests entitle, with
			// nothing of the platform's metadata.
			list := m.do("tools/list", map[string]any{})
			listed := listedNames(t, list, "tools", "name")
			var want []string
			for _, name := range names {
				for _, s := range specs {
					if s.Name == name && s.Lifecycle == estate.Active && entitledByManifest(p, s) && !slices.Contains(want, name) {
						want = append(want, name)
					}
				}
			}
			if !slices.Equal(listed, want) {
				t.Errorf("%s: tools/list %v, want %v", who, listed, want)
			}
			for _, word := range forbidden {
				if strings.Contains(list, word) {
					t.Errorf("%s: tools/list carries %s: %s", who, word, list)
				}
			}

			// tools/call: every version called unpinned, pinned, with
			// invalid arguments and with a stale schema hash, each next
			// to the same call of a tool that does not exist.
			for _, s := range specs {
				args := json.RawMessage(validArguments[s.Key()])
				variants := []struct {
					what   string
					params map[string]any
					reach  bool // whether the call must get past discovery
				}{
					{"unpinned", map[string]any{"arguments": args}, slices.Contains(listed, s.Name)},
					{"pinned", map[string]any{"arguments": args, "_meta": map[string]any{"version": s.Version.String()}}, entitledByManifest(p, s)},
					{"invalid arguments", map[string]any{"arguments": json.RawMessage(`{"reference":771,"x":[]}`)}, slices.Contains(listed, s.Name)},
					{"stale hash", map[string]any{"arguments": args, "_meta": map[string]any{"schemaHash": "fnv1a64:0000000000000000"}}, slices.Contains(listed, s.Name)},
				}
				for _, v := range variants {
					v.params["name"] = s.Name
					got := m.do("tools/call", v.params)
					v.params["name"] = ghostTool
					ghost := m.do("tools/call", v.params)
					if v.reach {
						if code, _, isErr := errorOf(got); isErr && code == methodNotFound {
							t.Errorf("%s: %s %s: entitled but refused: %s", who, s.Key(), v.what, got)
						}
						continue
					}
					if got != strings.ReplaceAll(ghost, ghostTool, s.Name) {
						t.Errorf("%s: %s %s: not entitled, and answered unlike a missing tool:\n  got %s\nghost %s", who, s.Key(), v.what, got, ghost)
					}
					if code, _, _ := errorOf(got); code != methodNotFound {
						t.Errorf("%s: %s %s: %s", who, s.Key(), v.what, got)
					}
				}
			}

			// resources: listed exactly when readable, and an unreadable
			// URI answered as a missing one.
			rlist := m.do("resources/list", map[string]any{})
			rlisted := listedNames(t, rlist, "resources", "uri")
			for _, word := range forbidden {
				if strings.Contains(rlist, word) {
					t.Errorf("%s: resources/list carries %s: %s", who, word, rlist)
				}
			}
			ghost := m.do("resources/read", map[string]any{"uri": ghostURI})
			for _, r := range resources {
				got := m.do("resources/read", map[string]any{"uri": r.URI})
				visible := len(r.Tenants) == 0 || slices.Contains(r.Tenants, p.Tenant)
				if slices.Contains(rlisted, r.URI) != visible {
					t.Errorf("%s: resources/list %v for %s", who, rlisted, r.URI)
				}
				if visible != isResult(got) {
					t.Errorf("%s: read %s: %s", who, r.URI, got)
				}
				if !visible && got != strings.ReplaceAll(ghost, ghostURI, r.URI) {
					t.Errorf("%s: %s not listed, and answered unlike a missing resource:\n  got %s\nghost %s", who, r.URI, got, ghost)
				}
			}
			requests += m.n
		}
	}
	// No principal reached the log.
	for _, line := range logs.lines() {
		if strings.Contains(line, "agent-matrix-") {
			t.Errorf("a principal was logged: %s", line)
		}
	}
	record(t, figure{ID: "security/matrix", Area: "Security",
		Tried: fmt.Sprintf("%d sessions: every principal of a matrix (8 scope sets × 3 tenants × 4 clearances) in each of the %d protocol revisions, over the whole sample estate — tools/list and resources/list, every tool version called unpinned, pinned, with invalid arguments and with a stale schema hash, every resource read, each probe next to the same request for a name that does not exist", sessions, len(mcp.Revisions())),
		Count: requests, Unit: "requests",
		Held: "each list was exactly what the manifests entitle; every listed tool was callable and every listed resource readable; every unentitled tool (by any pin) and unlisted resource was answered byte for byte like the missing name, apart from the name; no list carried a scope, tenant, owner or classification; no principal was logged"})
}

// listedNames returns the values of key in the result's list member.
func listedNames(t *testing.T, answer, list, key string) []string {
	t.Helper()
	var msg struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(answer), &msg); err != nil || json.Unmarshal(msg.Result[list], &entries) != nil {
		t.Fatalf("%s: %s", list, answer)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e[key].(string))
	}
	return out
}

// forbiddenMetadata is the platform metadata that must never leave the
// server, as JSON strings and member names: scopes, tenants, owners,
// classifications.
func forbiddenMetadata(specs []estate.ToolSpec, resources []mcp.Resource) []string {
	var words []string
	add := func(s string) {
		q, _ := json.Marshal(s)
		if !slices.Contains(words, string(q)) {
			words = append(words, string(q))
		}
	}
	for _, s := range specs {
		for _, scope := range s.RequiredScopes {
			if !slices.ContainsFunc(specs, func(o estate.ToolSpec) bool { return o.Name == scope }) {
				add(scope) // a scope named like a tool would be listed as the tool
			}
		}
		for _, tenant := range s.Tenants {
			add(tenant)
		}
		add(s.Owner)
		add(string(s.DataClassification))
	}
	for _, r := range resources {
		for _, tenant := range r.Tenants {
			add(tenant)
		}
	}
	for _, member := range []string{"requiredScopes", "scopes", "tenants", "tenant", "owner", "dataClassification", "classification", "x-secret"} {
		add(member)
	}
	return words
}
