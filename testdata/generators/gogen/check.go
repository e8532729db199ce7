package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolName is the form of a tool name in this estate: lowercase dotted.
var toolName = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)

// annotationFormats are the format values in the fixtures that are no JSON
// Schema format (zod's starts_with, pydantic's ipvanyaddress and password).
// They are annotations: every string has them. The compiler would skip an
// unknown format anyway; registering them says so, and keeps it so.
var annotationFormats = []string{"starts_with", "ipvanyaddress", "password"}

// check reads every DIR/<generator>/tools.json, checks its tools/list shape
// and compiles each inputSchema with santhosh-tekuri/jsonschema (draft
// 2020-12 unless the schema's $schema says otherwise; the compiler validates
// it against the meta-schema and resolves every $ref).
//
// It then reads DIR/<generator>/calls.json, which must have an entry for
// each tool and for no other name, and validates each entry's two calls
// against the tool's inputSchema with format assertion: "valid" must
// validate and "invalid" must not (see checkCall). With verbose, it prints
// what each invalid call breaks.
//
// JSON Schema's pattern is an ECMA-262 regular expression. The compiler's
// default engine is Go's regexp (RE2), which lacks look-around, so each
// schema is compiled twice: with the default engine, and with an ECMA-262
// engine (dlclark/regexp2). A schema must compile with the ECMA-262 one;
// the patterns that only the default engine rejects are listed.
func check(dir string, verbose bool) error {
	var failed, total int
	re2Rejects := map[string][]string{} // pattern -> "generator tool"
	for _, g := range generators {
		path := filepath.Join(dir, g, "tools.json")
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		tools, err := toolsOf(doc)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		calls, err := readCalls(filepath.Join(dir, g, "calls.json"))
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, t := range tools {
			total++
			name, _ := t["name"].(string)
			desc, _ := t["description"].(string)
			schema, isObj := t["inputSchema"].(map[string]any)
			var problems, breaks []string
			if !toolName.MatchString(name) {
				problems = append(problems, fmt.Sprintf("name %q is not lowercase dotted", name))
			}
			if seen[name] {
				problems = append(problems, "duplicate name")
			}
			seen[name] = true
			if desc == "" {
				problems = append(problems, "no description")
			}
			if !isObj {
				problems = append(problems, "inputSchema is not an object")
			} else {
				url := fmt.Sprintf("mem:///%s/%d.json", g, i)
				sch, err := compile(url, schema, dlclarkCompile)
				if err != nil {
					problems = append(problems, "does not compile: "+err.Error())
				} else {
					re2, err := compile(url, schema, nil)
					if err != nil {
						rejected := false
						for _, p := range patterns(schema) {
							if _, err := regexp.Compile(p); err != nil {
								re2Rejects[p] = append(re2Rejects[p], g+" "+name)
								rejected = true
							}
						}
						if !rejected {
							problems = append(problems, "does not compile with the default engine: "+err.Error())
						}
					}
					if c, ok := calls[name]; !ok {
						problems = append(problems, "no entry in calls.json")
					} else {
						var ps []string
						ps, breaks = checkCall(sch, re2, c)
						problems = append(problems, ps...)
					}
				}
			}
			if len(problems) > 0 {
				failed++
				fmt.Printf("FAIL %s %s: %s\n", g, name, strings.Join(problems, "; "))
			} else {
				fmt.Printf("ok   %s %s (invalid call: %d errors)\n", g, name, len(breaks))
			}
			if verbose {
				for _, b := range breaks {
					fmt.Printf("       %s\n", b)
				}
			}
		}
		var extra []string
		for name := range calls {
			if !seen[name] {
				extra = append(extra, name)
			}
		}
		sort.Strings(extra)
		for _, name := range extra {
			total++
			failed++
			fmt.Printf("FAIL %s %s: in calls.json but not in tools.json\n", g, name)
		}
	}
	if len(re2Rejects) > 0 {
		ps := make([]string, 0, len(re2Rejects))
		for p := range re2Rejects {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		fmt.Println("patterns Go's regexp (the compiler's default engine) rejects:")
		for _, p := range ps {
			fmt.Printf("  %q in %s\n", p, strings.Join(re2Rejects[p], ", "))
		}
	}
	fmt.Printf("%d passed, %d failed\n", total-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d of %d failed", failed, total)
	}
	return nil
}

func toolsOf(doc any) ([]map[string]any, error) {
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	list, ok := obj["tools"].([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("no tools array")
	}
	var tools []map[string]any
	for i, v := range list {
		t, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("tools[%d] is not an object", i)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

func compile(url string, schema any, engine jsonschema.RegexpEngine) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, f := range annotationFormats {
		c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
	}
	if engine != nil {
		c.UseRegexpEngine(engine)
	}
	if err := c.AddResource(url, schema); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// patterns returns every string under a "pattern" key or a patternProperties
// key in v.
func patterns(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "pattern" {
					out = append(out, s)
				}
				if pp, ok := x.(map[string]any); ok && k == "patternProperties" {
					for p := range pp {
						out = append(out, p)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

type dlclarkRegexp regexp2.Regexp

func (re *dlclarkRegexp) MatchString(s string) bool {
	matched, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && matched
}

func (re *dlclarkRegexp) String() string { return (*regexp2.Regexp)(re).String() }

func dlclarkCompile(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return (*dlclarkRegexp)(re), nil
}
