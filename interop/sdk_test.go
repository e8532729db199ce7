package interop

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
)

// The revisions the Go SDK client is run with: the last one whose schema
// violations are protocol errors, the newest of the handshake era, and the
// stateless one (the SDK's default, reached through server/discover).
var sdkRevisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// bearer adds a token to every request of the SDK's HTTP client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	next := b.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// sdkClient is a Go SDK client that reports tools/list_changed on changed.
func sdkClient(changed chan<- struct{}) *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "interop", Version: "1.0.0"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
}

func connectHTTP(t *testing.T, ctx context.Context, url, token, revision string, changed chan<- struct{}) *sdk.ClientSession {
	t.Helper()
	transport := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token: token}}, MaxRetries: -1}
	cs, err := sdkClient(changed).Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatalf("connect over HTTP (%s): %v", revision, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// connectStdio starts the service as the SDK's subprocess.
func connectStdio(t *testing.T, ctx context.Context, revision string, changed chan<- struct{}, principal []string) (*sdk.ClientSession, *exec.Cmd, string) {
	t.Helper()
	lifecycle := filepath.Join(t.TempDir(), "lifecycle.json")
	if err := os.WriteFile(lifecycle, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, append(slices.Clone(principal), "-lifecycle", lifecycle, "-snapshot-date", snapshotDate)...)
	logs := &logBuffer{}
	cmd.Stderr = logs
	cs, err := sdkClient(changed).Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatalf("connect over stdio (%s): %v\n%s", revision, err, logs)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd, lifecycle
}

func toolNames(t *testing.T, ctx context.Context, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func text(t *testing.T, content []sdk.Content) string {
	t.Helper()
	var parts []string
	for _, c := range content {
		tc, ok := c.(*sdk.TextContent)
		if !ok {
			t.Fatalf("content %T, want text", c)
		}
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n")
}

// expectedViolations are the errors the runtime's reference validator
// finds in args for payments.lookup@2.0.0: what every client must receive.
func expectedViolations(t *testing.T, args string) []string {
	t.Helper()
	for _, spec := range bank.Specs() {
		if spec.Key() == "payments.lookup@2.0.0" {
			errs, err := spec.InputSchema.ValidateJSON([]byte(args))
			if err != nil || len(errs) < 2 {
				t.Fatalf("%v %v", errs, err)
			}
			return errs.Strings()
		}
	}
	t.Fatal("payments.lookup@2.0.0 is not in the estate")
	return nil
}

// exercise runs the session every client must be able to hold with the
// investigator: discovery, a good call, a bad call with every error,
// resources, prompts, and a list change after an estate change.
func exercise(t *testing.T, ctx context.Context, cs *sdk.ClientSession, revision string, changed <-chan struct{}, change func()) {
	if got := cs.InitializeResult(); got == nil || got.ServerInfo == nil || got.ServerInfo.Name != bank.ServerName || got.ProtocolVersion != revision {
		t.Fatalf("initialize result: %+v", got)
	}
	if got := toolNames(t, ctx, cs); !slices.Equal(got, []string{"crm.notes.append", "payments.lookup"}) {
		t.Fatalf("investigator's tools: %v", got)
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.lookup", Arguments: map[string]any{"reference": "PMT-771", "as_of": snapshotDate}})
	if err != nil || res.IsError || text(t, res.Content) != "PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'" {
		t.Fatalf("good call: %+v %v", res, err)
	}

	const bad = `{"reference":"771","include_legs":"yes"}`
	want := expectedViolations(t, bad)
	var args map[string]any
	json.Unmarshal([]byte(bad), &args)
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.lookup", Arguments: args})
	if revision <= "2025-06-18" {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
			t.Fatalf("bad call: %+v %v, want a -32602 error", res, err)
		}
		var data struct{ Errors []string }
		if json.Unmarshal(rpcErr.Data, &data); !slices.Equal(data.Errors, want) {
			t.Errorf("bad call's errors %q, want %q", data.Errors, want)
		}
	} else {
		if err != nil || !res.IsError {
			t.Fatalf("bad call: %+v %v, want an isError result", res, err)
		}
		body := text(t, res.Content)
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("bad call's text lacks %q:\n%s", w, body)
			}
		}
	}

	resources, err := cs.ListResources(ctx, nil)
	if err != nil || len(resources.Resources) != 1 || resources.Resources[0].URI != "policy://sanctions/hold-release" {
		t.Fatalf("resources/list: %+v %v", resources, err)
	}
	read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "policy://sanctions/hold-release"})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "Releases above 100k need dual control." {
		t.Fatalf("resources/read: %+v %v", read, err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "investigate" {
		t.Fatalf("prompts/list: %+v %v", prompts, err)
	}
	prompt, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "investigate", Arguments: map[string]string{"reference": "PMT-771"}})
	if err != nil || len(prompt.Messages) != 1 || text(t, []sdk.Content{prompt.Messages[0].Content}) != "Investigate payment PMT-771. State the hold reason." {
		t.Fatalf("prompts/get: %+v %v", prompt, err)
	}

	change()
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after the estate changed")
	}
	if got := toolNames(t, ctx, cs); !slices.Equal(got, []string{"payments.lookup"}) {
		t.Errorf("tools after retiring crm.notes.append: %v", got)
	}
}

var retireNotes = map[string]string{"crm.notes.append@1.0.0": "retired"}

func TestGoSDKOverStdio(t *testing.T) {
	for _, rev := range sdkRevisions {
		t.Run(rev, func(t *testing.T) {
			ctx := timeout(t)
			changed := make(chan struct{}, 1)
			cs, cmd, lifecycle := connectStdio(t, ctx, rev, changed, investigatorFlags)
			exercise(t, ctx, cs, rev, changed, func() { setLifecycle(t, cmd.Process, lifecycle, retireNotes) })

			// Another principal, another process: another list.
			teller, _, _ := connectStdio(t, ctx, rev, nil, tellerFlags)
			if got := toolNames(t, ctx, teller); !slices.Equal(got, []string{"crm.notes.append"}) {
				t.Errorf("teller's tools: %v", got)
			}
		})
	}
}

func TestGoSDKOverHTTP(t *testing.T) {
	iss := newIssuer(t)
	for _, rev := range sdkRevisions {
		t.Run(rev, func(t *testing.T) {
			ctx := timeout(t)
			svc := startHTTP(t, iss.args()...)
			changed := make(chan struct{}, 1)
			cs := connectHTTP(t, ctx, svc.url, iss.investigator(t), rev, changed)
			// The teller, on the same server, sees its own list.
			teller := connectHTTP(t, ctx, svc.url, iss.teller(t), rev, nil)
			if got := toolNames(t, ctx, teller); !slices.Equal(got, []string{"crm.notes.append"}) {
				t.Errorf("teller's tools: %v", got)
			}
			resources, err := teller.ListResources(ctx, nil)
			if err != nil || len(resources.Resources) != 0 {
				t.Errorf("teller's resources: %+v %v", resources, err)
			}
			exercise(t, ctx, cs, rev, changed, func() { setLifecycle(t, svc.cmd.Process, svc.lifecycle, retireNotes) })
		})
	}
}
