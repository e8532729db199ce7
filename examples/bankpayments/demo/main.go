// Command demo runs the worked session of the sample estate (its eight
// sections, docs/concepts.md#the-estate) against the built bankpayments
// binary: it starts the service as a subprocess, talks to it over stdio with
// the runtime's client, and prints each section. It is what `make demo` runs.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func main() {
	server := flag.String("server", "bin/bankpayments", "path of the built bankpayments binary")
	flag.Parse()
	if err := run(*server); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func section(n int, title string) {
	fmt.Println()
	fmt.Println(strings.Repeat("=", 78))
	fmt.Printf("%d. %s\n", n, title)
	fmt.Println(strings.Repeat("=", 78))
}

// session is the running service and the client connected to it.
type session struct {
	cmd       *exec.Cmd
	c         *client.Client
	lifecycle string
	changed   chan struct{}
}

func start(ctx context.Context, binary string) (*session, error) {
	dir, err := os.MkdirTemp("", "bankpayments-demo")
	if err != nil {
		return nil, err
	}
	lifecycle := filepath.Join(dir, "lifecycle.json")
	if err := os.WriteFile(lifecycle, []byte("{}\n"), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, binary,
		"-agent", "payments-investigator", "-tenant", "wholesale",
		"-scopes", "payments.read,crm.write", "-clearance", "confidential",
		"-lifecycle", lifecycle, "-snapshot-date", "2026-03-31")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	logs, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w (run `make demo`, which builds it)", binary, err)
	}
	s := &session{cmd: cmd, lifecycle: lifecycle, changed: make(chan struct{}, 8)}
	s.c = client.New(client.NewStreamConn(stdout, stdin), client.Options{
		Info:            client.Implementation{Name: "bank-agent-kernel", Version: "1.0.0"},
		ProtocolVersion: "2025-06-18",
		Capabilities:    map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}},
		OnNotification: func(method string, _ json.RawMessage) {
			if method == "notifications/tools/list_changed" {
				s.changed <- struct{}{}
			}
		},
	})
	return s, nil
}

func (s *session) stop() {
	s.c.Close()
	s.cmd.Wait()
	os.RemoveAll(filepath.Dir(s.lifecycle))
}

func run(binary string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := start(ctx, binary)
	if err != nil {
		return err
	}
	defer s.stop()
	c := s.c

	section(1, "THE HANDSHAKE")
	info, err := c.Connect(ctx)
	if err != nil {
		return err
	}
	caps := make([]string, 0, len(info.Capabilities))
	for k := range info.Capabilities {
		caps = append(caps, k)
	}
	sort.Strings(caps)
	var tools struct {
		ListChanged bool `json:"listChanged"`
	}
	json.Unmarshal(info.Capabilities["tools"], &tools)
	fmt.Printf("  negotiated protocol : %s\n", info.ProtocolVersion)
	fmt.Printf("  server              : %s %s\n", info.ServerInfo.Name, info.ServerInfo.Version)
	fmt.Printf("  capabilities        : %v\n", caps)
	fmt.Printf("  tools.listChanged   : %v\n", tools.ListChanged)

	section(2, "AUTHORIZATION-AWARE DISCOVERY")
	list, err := c.ListTools(ctx, false)
	if err != nil {
		return err
	}
	fmt.Printf("  this principal sees : %v\n", names(list))
	fmt.Println("  payments.release is ABSENT — not filtered later, never listed:")
	fmt.Println("    - it needs scope 'payments.release', which this agent does not hold")
	fmt.Println("    - it is classified 'restricted'; the agent is cleared to 'confidential'")
	_, err = c.CallTool(ctx, "payments.release", map[string]any{"reference": "PMT-771", "amount_minor": 1, "currency": "AED"})
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		fmt.Printf("  calling it anyway   : [%d] %s  (indistinguishable from 'does not exist')\n", rpcErr.Code, rpcErr.Message)
	} else {
		return fmt.Errorf("calling payments.release: want a protocol error, got %v", err)
	}

	section(3, "CONTRACT ENFORCEMENT AND THE REPAIR LOOP")
	bad := []byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`)
	_, errs, err := bank.DecodePaymentsLookupV1_0_0Args(bad)
	if err != nil {
		return err
	}
	fmt.Printf("  model proposed      : %s\n", bad)
	for _, e := range errs {
		fmt.Printf("      ✗ %s\n", e)
	}
	repaired, remaining, err := bank.RepairArguments("payments.lookup", "1.0.0", bad, nil)
	if err != nil {
		return err
	}
	fmt.Printf("  after deterministic repair: %s\n", repaired)
	fmt.Printf("      remaining for the model to fix: %q\n", remaining.Strings())
	good := bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"}
	good.IncludeLegs.V, good.IncludeLegs.Set = true, true
	typed := bank.NewClient(c) // pins version and schema hash on every call
	res, err := typed.PaymentsLookupV1_0_0(ctx, good)
	if err != nil {
		return err
	}
	fmt.Printf("  valid call (typed, pinned 1.0.0): isError=%v content=%q\n", res.IsError, res.Text())

	section(4, "VERSIONING: WHO BREAKS?")
	specs := bank.Specs()
	v1, v2 := find(specs, "payments.lookup", "1.0.0"), find(specs, "payments.lookup", "2.0.0")
	release := find(specs, "payments.release", "1.0.0")
	withAsOf := withProperty(v1.InputSchema, "as_of", map[string]any{"type": "string"})
	fmt.Printf("  add an OPTIONAL field   -> %s\n", schema.Classify(v1.InputSchema, withAsOf, schema.Input).Class)
	fmt.Printf("  make it REQUIRED        -> %s\n", schema.Classify(withAsOf, v2.InputSchema, schema.Input).Class)
	narrowed := withProperty(release.InputSchema, "currency", map[string]any{"type": "string", "enum": []any{"AED"}})
	fmt.Printf("  NARROW an enum          -> %s\n", schema.Classify(release.InputSchema, narrowed, schema.Input).Class)
	widened := withProperty(release.InputSchema, "currency", map[string]any{"type": "string", "enum": []any{"AED", "USD", "EUR", "GBP"}})
	fmt.Printf("  WIDEN an enum           -> %s\n", schema.Classify(release.InputSchema, widened, schema.Input).Class)
	v3 := find(specs, "payments.lookup", "3.0.0")
	for _, ch := range schema.Classify(v2.InputSchema, v3.InputSchema, schema.Input).Changes {
		if ch.Rule == "format-added" {
			fmt.Printf("  SAY as_of IS A DATE     -> %s (2.0.0 to 3.0.0: %s)\n", ch.Class, ch.Text)
		}
	}
	minor := v1
	minor.Lifecycle, minor.Version, minor.InputSchema = estate.Active, estate.MustParseVersion("1.1.0"), v2.InputSchema
	history := []estate.ToolSpec{v1}
	history[0].Lifecycle = estate.Active
	if err := estate.CheckPublish(minor, history); err != nil {
		fmt.Printf("  registry refuses a breaking change as a minor bump:\n      %v\n", err)
	}

	section(5, "DEPRECATION AND THE CHANGE NOTIFICATION")
	fmt.Printf("  latest active       : %s@%s\n", "payments.lookup", metaVersion(list, "payments.lookup"))
	res, err = typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-772"})
	if err != nil {
		return err
	}
	fmt.Printf("  pinned to 1.0.0     : answered by 1.0.0 (deprecated, still resolvable): %q\n", res.Text())
	fmt.Printf("  client cache before : %v  (list_tools calls so far: %d)\n", versions(list), c.ListCalls())
	fmt.Println("  operator retires payments.lookup@1.0.0 (lifecycle file + SIGHUP) ...")
	// The demo's record of what the operator changed: written to the
	// service's lifecycle file, and read again in section 8.
	operatorChanges := map[string]estate.Lifecycle{"payments.lookup@1.0.0": estate.Retired}
	changes, err := json.Marshal(operatorChanges)
	if err != nil {
		return err
	}
	if err := os.WriteFile(s.lifecycle, changes, 0o644); err != nil {
		return err
	}
	s.cmd.Process.Signal(syscall.SIGHUP)
	select {
	case <-s.changed:
	case <-ctx.Done():
		return errors.New("no notifications/tools/list_changed after the lifecycle change")
	}
	list, err = c.ListTools(ctx, false)
	if err != nil {
		return err
	}
	fmt.Printf("  after list_changed  : %v  (list_tools calls so far: %d)\n", versions(list), c.ListCalls())
	_, err = typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-772"})
	if errors.As(err, &rpcErr) {
		fmt.Printf("  pinned to 1.0.0 now : [%d] %s  (retired: never resolvable)\n", rpcErr.Code, rpcErr.Message)
	}

	section(6, "RESOURCES AND PROMPTS")
	contents, err := c.ReadResource(ctx, "policy://sanctions/hold-release")
	if err != nil {
		return err
	}
	fmt.Printf("  resource            : %q\n", contents[0].Text)
	prompt, err := c.GetPrompt(ctx, "investigate", map[string]string{"reference": "PMT-771"})
	if err != nil {
		return err
	}
	fmt.Printf("  prompt              : %q\n", prompt.Messages[0].Content.Text)

	section(7, "PROTOCOL ERRORS VS TOOL ERRORS")
	_, err = c.CallTool(ctx, "payments.lookup", map[string]any{})
	if errors.As(err, &rpcErr) {
		var data struct {
			Errors []string `json:"errors"`
		}
		raw, _ := rpcErr.DataJSON()
		json.Unmarshal(raw, &data)
		fmt.Printf("  missing required arg -> JSON-RPC error %d: %q\n", rpcErr.Code, data.Errors)
	} else {
		return fmt.Errorf("missing arguments: want a protocol error, got %v", err)
	}
	_, err = c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771", "as_of": "2026-02-30"})
	if errors.As(err, &rpcErr) {
		raw, _ := rpcErr.DataJSON()
		fmt.Printf("  as_of 2026-02-30     -> JSON-RPC error %d: %s (3.0.0 says as_of is a date)\n", rpcErr.Code, raw)
	} else {
		return fmt.Errorf("an impossible date: want a protocol error, got %v", err)
	}
	res, err = c.CallTool(ctx, "payments.lookup", map[string]any{"reference": "PMT-771", "as_of": "2026-03-12"})
	if err != nil {
		return err
	}
	fmt.Printf("  tool failure         -> HTTP-200-shaped result, isError=%v, text=%q\n", res.IsError, res.Text())
	fmt.Println("  ... so the model sees it and can react. A protocol error never reaches the model.")

	section(8, "THE ESTATE, AS THE PLATFORM SEES IT")
	for _, sp := range specs {
		life := sp.Lifecycle.OrActive()
		if changed, ok := operatorChanges[sp.Key()]; ok {
			life = changed
		}
		fmt.Printf("  %-28s %-11s %-21s retryable=%-5v scopes=%v class=%s\n",
			sp.Key(), life, sp.SideEffect, sp.SideEffect.Retryable(), sp.RequiredScopes, sp.DataClassification)
	}
	return nil
}

func names(tools []client.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func versions(tools []client.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name + "@" + t.Meta.Version
	}
	return out
}

func metaVersion(tools []client.Tool, name string) string {
	for _, t := range tools {
		if t.Name == name {
			return t.Meta.Version
		}
	}
	return "(none)"
}

func find(specs []estate.ToolSpec, name, version string) estate.ToolSpec {
	for _, s := range specs {
		if s.Name == name && s.Version.String() == version {
			return s
		}
	}
	panic("demo: no " + name + "@" + version + " in the generated package")
}

// withProperty returns s with property name set to the given schema.
func withProperty(s *schema.Schema, name string, prop map[string]any) *schema.Schema {
	doc := map[string]any{}
	for k, v := range s.Document() {
		doc[k] = v
	}
	props := map[string]any{}
	for k, v := range doc["properties"].(map[string]any) {
		props[k] = v
	}
	props[name] = prop
	doc["properties"] = props
	out, err := schema.Parse(doc)
	if err != nil {
		panic(err)
	}
	return out
}
