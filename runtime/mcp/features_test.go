package mcp_test

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

var update = flag.Bool("update", false, "render docs/revisions.md from the revision table")

const revisionsDoc = "../../docs/revisions.md"

// renderRevisions is docs/revisions.md: the feature table, one row per
// feature, one column per revision.
func renderRevisions() string {
	var b strings.Builder
	b.WriteString("# What each revision defines\n\n" +
		"The server writes a member or a capability only on a revision whose schema defines it. This table\n" +
		"is generated from the one table in code (`runtime/mcp/features.go`, `Revision.Has`) by\n" +
		"`go test ./runtime/mcp -run TestRevisionsDoc -update`; `TestEveryCellOfTheRevisionTable` holds\n" +
		"each cell to an answer on that revision. Where a revision lacks audio blocks, each becomes a text\n" +
		"block saying what was left out; where it lacks `structuredContent`, a result carries its content\n" +
		"blocks only.\n\n| feature | written in |")
	for _, rev := range mcp.Revisions() {
		b.WriteString(" " + string(rev) + " |")
	}
	b.WriteString("\n|---|---|")
	for range mcp.Revisions() {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, f := range mcp.Features() {
		b.WriteString("| `" + f.String() + "` | " + f.Where() + " |")
		for _, rev := range mcp.Revisions() {
			if rev.Has(f) {
				b.WriteString(" ✓ |")
			} else {
				b.WriteString(" — |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestRevisionsDoc(t *testing.T) {
	want := renderRevisions()
	if *update {
		if err := os.WriteFile(revisionsDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(revisionsDoc)
	if err != nil || string(got) != want {
		t.Errorf("docs/revisions.md is not the table's rendering (go test ./runtime/mcp -run TestRevisionsDoc -update):\n%s", want)
	}
}

// featureServer writes every feature of the table where it can: a titled
// tool with annotations and an output schema whose handler returns
// structured content and an audio block and reports progress with a
// message, a titled resource, template and prompt, and a titled
// serverInfo.
func featureServer(t *testing.T) *mcp.Server {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Options{
		Name: "fx", Version: "1.0.0", Title: "Features",
		Resources:         []mcp.Resource{{URI: "fx://r", Name: "r", Title: "R", Text: "r"}},
		ResourceTemplates: []mcp.ResourceTemplate{{URITemplate: "fx://t/{id}", Name: "t", Title: "T", Text: "{id}"}},
		Prompts: []mcp.Prompt{{Name: "p", Title: "P", Get: func(context.Context, *mcp.PromptGet) ([]mcp.PromptMessage, error) {
			return []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.AudioContent("audio/wav", []byte("RIFF"))}}, nil
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	spec := freeTool("fx.tool", estate.Read)
	spec.Title = "FX"
	spec.OutputSchema = schema.MustParseJSON(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	err = srv.Bind(spec, mcp.Tool{Handler: func(ctx context.Context, c *mcp.Call) (*mcp.Result, error) {
		if err := c.Progress(ctx, 1, 2, "halfway"); err != nil {
			return nil, err
		}
		return &mcp.Result{
			Content:           []mcp.Content{mcp.TextContent(`{"n":1}`), mcp.AudioContent("audio/wav", []byte("RIFF"))},
			StructuredContent: map[string]any{"n": 1},
		}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// answers is what one revision answers to the requests that show the
// features.
type answers struct {
	init, list, resources, templates, prompts, prompt, call, progress string
}

func answersOn(t *testing.T, srv *mcp.Server, rev mcp.Revision) answers {
	t.Helper()
	var a answers
	w := serve(t, srv, investigator)
	withMeta := func(params string) string { return params }
	if rev.Stateless() {
		withMeta = withStatelessMeta
		a.init = w.call(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + statelessMeta + `}}`)
	} else {
		a.init = w.call(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + string(rev) + `","capabilities":{}}}`)
		w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	req := func(id, method, params string) string {
		return w.call(`{"jsonrpc":"2.0","id":"` + id + `","method":"` + method + `","params":` + withMeta(params) + `}`)
	}
	a.list = req("l", "tools/list", "{}")
	a.resources = req("r", "resources/list", "{}")
	a.templates = req("t", "resources/templates/list", "{}")
	a.prompts = req("p", "prompts/list", "{}")
	a.prompt = req("g", "prompts/get", `{"name":"p"}`)
	a.call = req("c", "tools/call", `{"name":"fx.tool","_meta":{"progressToken":"tok"}}`)
	for _, n := range w.notes {
		if strings.Contains(n, `"notifications/progress"`) {
			a.progress = n
		}
	}
	if a.progress == "" {
		t.Fatalf("%s: no progress notification: %v", rev, w.notes)
	}
	return a
}

// TestEveryCellOfTheRevisionTable: for each feature and each revision, an
// answer on that revision carries the feature exactly when the table says
// it does, at every place the server writes it.
func TestEveryCellOfTheRevisionTable(t *testing.T) {
	srv := featureServer(t)
	has := func(t *testing.T, line string, path ...any) bool { return jget(t, line, path...) != nil }
	// Each feature's places, as (answer, path) pairs; every one of them
	// must agree with the table.
	places := map[mcp.Feature]func(t *testing.T, a answers, rev mcp.Revision) []bool{
		mcp.FeatureTitle: func(t *testing.T, a answers, rev mcp.Revision) []bool {
			info := has(t, a.init, "result", "serverInfo", "title")
			if rev.Stateless() {
				info = has(t, a.list, "result", "_meta", mcp.MetaServerInfo, "title")
			}
			return []bool{info, has(t, a.list, "result", "tools", 0, "title"), has(t, a.resources, "result", "resources", 0, "title"),
				has(t, a.templates, "result", "resourceTemplates", 0, "title"), has(t, a.prompts, "result", "prompts", 0, "title")}
		},
		mcp.FeatureToolAnnotations: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{has(t, a.list, "result", "tools", 0, "annotations")}
		},
		mcp.FeatureOutputSchema: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{has(t, a.list, "result", "tools", 0, "outputSchema")}
		},
		mcp.FeatureStructuredContent: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{has(t, a.call, "result", "structuredContent")}
		},
		mcp.FeatureCompletions: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{has(t, a.init, "result", "capabilities", "completions")}
		},
		mcp.FeatureAudioContent: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{jget(t, a.call, "result", "content", 1, "type") == "audio", jget(t, a.prompt, "result", "messages", 0, "content", "type") == "audio"}
		},
		mcp.FeatureProgressMessage: func(t *testing.T, a answers, _ mcp.Revision) []bool {
			return []bool{has(t, a.progress, "params", "message")}
		},
	}
	for _, rev := range mcp.Revisions() {
		a := answersOn(t, srv, rev)
		for _, f := range mcp.Features() {
			check, ok := places[f]
			if !ok {
				t.Fatalf("feature %s is not exercised", f)
			}
			for i, present := range check(t, a, rev) {
				if present != rev.Has(f) {
					t.Errorf("%s on %s (place %d): present %v, the table says %v", f, rev, i, present, rev.Has(f))
				}
			}
		}
		// A block the revision lacks is replaced, not dropped.
		if !rev.Has(mcp.FeatureAudioContent) && !strings.Contains(a.call, "left out") {
			t.Errorf("%s: the audio block was dropped: %s", rev, a.call)
		}
	}
}
