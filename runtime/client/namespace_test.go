package client_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestNamespaceRoundTrip(t *testing.T) {
	for _, c := range [][2]string{{"payments", "payments.lookup"}, {"crm-eu", "search"}, {"a_b", "x__y"}} {
		n, err := client.Namespace(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		s, tool, ok := client.SplitNamespace(n)
		if !ok || s != c[0] || tool != c[1] {
			t.Errorf("%v → %q → %q %q %v", c, n, s, tool, ok)
		}
	}
	for _, bad := range []string{"", "a__b", "a.b", "é"} {
		if _, err := client.Namespace(bad, "t"); err == nil {
			t.Errorf("server id %q accepted", bad)
		}
	}
	// Two servers exporting the same tool stay apart.
	a, _ := client.Namespace("crm", "search")
	b, _ := client.Namespace("docs", "search")
	if a == b {
		t.Error("collision")
	}
}

func TestRepairPromptIsSortedAndStable(t *testing.T) {
	errs := schema.Errors{{Path: "$.reference", Message: "does not match pattern '^PMT-\\d{3,}$'"}, {Path: "$.include_legs", Message: "expected type boolean, got string"}}
	got := client.RepairPrompt("payments.lookup@1.0.0", errs)
	want := "The arguments for payments.lookup@1.0.0 were refused. Fix every error below and call it again:\n" +
		"- $.include_legs: expected type boolean, got string\n" +
		"- $.reference: does not match pattern '^PMT-\\d{3,}$'\n"
	if got != want {
		t.Errorf("got %q", got)
	}
	if errs[0].Path != "$.reference" {
		t.Error("RepairPrompt reordered the caller's slice")
	}
}
