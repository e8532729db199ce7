package reliability

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// vaultSchema marks secrets at every depth the call log follows: a
// property, array items, and additional properties.
const vaultSchema = `{
	"type": "object",
	"properties": {
		"account": {"type": "string"},
		"otp": {"type": "string", "x-secret": true},
		"legs": {"type": "array", "items": {"type": "object", "properties": {
			"pin": {"type": "string", "x-secret": true},
			"memo": {"type": "string"}
		}}},
		"headers": {"type": "object", "additionalProperties": {"type": "string", "x-secret": true}}
	},
	"required": ["account", "otp"],
	"additionalProperties": false
}`

// TestSecretsAndPrincipalsNeverReachTheLog calls a tool with secret-marked
// arguments through every path that logs — a call that succeeds, fails,
// panics, breaks its output schema, overruns its deadline, or is refused —
// as a principal whose every field is distinctive, and searches every log
// line for any secret value and any field of the principal. tools/list
// must not show the x-secret marker either.
func TestSecretsAndPrincipalsNeverReachTheLog(t *testing.T) {
	srv, logs := bankServer(t, mcp.Options{CallTimeout: 250 * time.Millisecond})
	caller := estate.Principal{AgentID: "agent-quiet-5e2f", Tenant: "tenant-quiet-91aa",
		Scopes: []string{"scope-quiet-vault"}, MaxClassification: estate.Restricted}
	release := make(chan struct{})
	defer close(release)
	modes := map[string]mcp.Handler{
		"ok":      func(context.Context, *mcp.Call) (*mcp.Result, error) { return mcp.TextResult("done"), nil },
		"fail":    func(context.Context, *mcp.Call) (*mcp.Result, error) { return nil, errors.New("vault sealed") },
		"panic":   func(context.Context, *mcp.Call) (*mcp.Result, error) { panic("vault exploded") },
		"overrun": func(context.Context, *mcp.Call) (*mcp.Result, error) { <-release; return nil, nil },
		"contract": func(context.Context, *mcp.Call) (*mcp.Result, error) {
			return &mcp.Result{StructuredContent: map[string]any{"n": "x"}}, nil
		},
	}
	for mode, h := range modes {
		spec := estate.ToolSpec{
			Name: "vault." + mode, Version: estate.MustParseVersion("1.0.0"), Title: "Vault", Description: "Moves money with a one-time password.",
			InputSchema: schema.MustParseJSON(vaultSchema), OutputSchema: schema.MustParseJSON(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
			SideEffect: estate.Irreversible, RequiredScopes: caller.Scopes, DataClassification: estate.Restricted,
			Owner: "owner-quiet-treasury", Tenants: []string{caller.Tenant},
		}
		if err := srv.Bind(spec, mcp.Tool{Handler: h}); err != nil {
			t.Fatal(err)
		}
	}
	c := serveStdio(t, srv, caller)
	c.handshake(mcp.Revision20250618)

	var secrets []string
	calls := 0
	var wg sync.WaitGroup
	for i := range 20 {
		otp, pin, header := "otp-"+strconv.Itoa(483920+i), "pin-"+strconv.Itoa(771203+i), "hdr-secret-"+strconv.Itoa(i)
		secrets = append(secrets, otp, pin, header)
		calls += 2 * len(modes)
		wg.Add(1)
		go func() { // concurrently, so that the deadlines run out together
			defer wg.Done()
			for mode := range modes {
				id := `"` + mode + strconv.Itoa(i) + `"`
				args := `{"account":"ACC-1001","otp":"` + otp + `","legs":[{"pin":"` + pin + `","memo":"leg memo"}],"headers":{"authorization":"` + header + `"}}`
				// Refused at the schema: a secret in a wrong-typed field
				// and beside an undeclared one.
				bad := `{"account":"` + otp + `","otp":5,"extra":"` + pin + `"}`
				for _, a := range []string{args, bad} {
					got, err := c.call(id, callTool(id, "vault."+mode, a))
					if err != nil || !strings.Contains(got, `"id":`+id) {
						t.Errorf("%s: %s %v", mode, got, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := c.close(); err != nil {
		t.Fatal(err)
	}

	lines := logs.lines()
	logged := map[string]int{}
	for _, line := range lines {
		for _, s := range secrets {
			if strings.Contains(line, s) {
				t.Errorf("a secret argument was logged: %s", line)
			}
		}
		for _, p := range []string{caller.AgentID, caller.Tenant, caller.Scopes[0]} {
			if strings.Contains(line, p) {
				t.Errorf("the principal was logged: %s", line)
			}
		}
		for _, msg := range []string{"tool call", "tool handler panicked", "tool result violates its output schema", "tool handler overran its deadline"} {
			if strings.Contains(line, `"msg":"`+msg+`"`) {
				logged[msg]++
			}
		}
	}
	// The log is not empty: the calls were logged, redacted.
	if logged["tool call"] != 100 || logged["tool handler panicked"] != 20 || logged["tool result violates its output schema"] != 20 || logged["tool handler overran its deadline"] != 20 {
		t.Errorf("log records: %v", logged)
	}
	if !strings.Contains(logs.String(), `"otp":"[REDACTED]"`) || !strings.Contains(logs.String(), `"account":"ACC-1001"`) {
		t.Errorf("the call log does not show the redacted arguments:\n%.2000s", logs.String())
	}

	// tools/list shows the contract, not the marker.
	sess := srv.NewSession(caller, nil)
	defer sess.Close()
	list := string(sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{`+statelessMeta+`}}}`)))
	if !strings.Contains(list, `"name":"vault.ok"`) || strings.Contains(list, "x-secret") || strings.Contains(list, "owner-quiet-treasury") || strings.Contains(list, caller.Tenant) {
		t.Errorf("tools/list: %s", list)
	}
	record(t, figure{ID: "security/logs", Area: "Security",
		Tried: "Calls with secret-marked arguments (a property, array items, additional properties) that succeed, fail, panic, break their output schema, overrun their deadline or are refused at the schema, as a principal with distinctive agent, tenant and scope; every log line captured at debug level and searched",
		Count: calls, Unit: "calls",
		Held: "no secret value and no field of the principal in any log line; the call log carried the arguments with `[REDACTED]` in place of each secret; tools/list showed no `x-secret` marker, owner or tenant"})
}
