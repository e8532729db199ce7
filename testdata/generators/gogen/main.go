// Command gogen writes the tools.json of the two Go schema generators and
// checks every tools.json and calls.json of the fixture estate. It is its own
// module so that its dependencies stay out of the main module.
//
//	go run . gen DIR       write DIR/jsonschemago/tools.json and DIR/invopop/tools.json
//	go run . check DIR     compile every inputSchema of DIR/*/tools.json (draft 2020-12)
//	                       and validate the calls of DIR/*/calls.json against them
//	go run . check -v DIR  the same, listing what each invalid call breaks
//	go run . keywords DIR  print the keyword-count table of DIR/*/tools.json
//	go run . keywords -readme FILE DIR
//	                       write that table into FILE between its marker lines
//
// DIR is the testdata/generators directory.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/mcpgen/mcpgen/testdata/generators/gogen/invopop"
	"github.com/mcpgen/mcpgen/testdata/generators/gogen/jsonschemago"
)

// generators lists the fixture directories, in the order of the tables.
var generators = []string{"zod", "pydantic", "jsonschemago", "invopop"}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "gen":
		err = gen(oneDir(args))
	case "check":
		fs := flag.NewFlagSet("check", flag.ExitOnError)
		verbose := fs.Bool("v", false, "list what each invalid call breaks")
		fs.Parse(args)
		err = check(oneDir(fs.Args()), *verbose)
	case "keywords":
		fs := flag.NewFlagSet("keywords", flag.ExitOnError)
		readme := fs.String("readme", "", "write the table into this file between its marker lines")
		fs.Parse(args)
		err = keywords(oneDir(fs.Args()), *readme)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gogen:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: gogen gen DIR | gogen check [-v] DIR | gogen keywords [-readme FILE] DIR")
	os.Exit(2)
}

func oneDir(args []string) string {
	if len(args) != 1 {
		usage()
	}
	return args[0]
}

// toolsList is the shape of an MCP tools/list result.
type toolsList struct {
	Meta  genMeta `json:"_meta"`
	Tools []tool  `json:"tools"`
}

// genMeta records which generator, at which version, made the schemas.
type genMeta struct {
	Generator string `json:"generator"`
	Version   string `json:"version"`
	Call      string `json:"call"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func gen(dir string) error {
	jtools, err := jsonschemago.Tools()
	if err != nil {
		return err
	}
	var jl toolsList
	jl.Meta = meta("github.com/google/jsonschema-go", "jsonschema.For[T](nil)")
	for _, t := range jtools {
		b, err := json.Marshal(t.Schema)
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		jl.Tools = append(jl.Tools, tool{t.Name, t.Description, b})
	}
	if err := write(filepath.Join(dir, "jsonschemago", "tools.json"), jl); err != nil {
		return err
	}

	var il toolsList
	il.Meta = meta("github.com/invopop/jsonschema", "(&jsonschema.Reflector{}).Reflect(v)")
	for _, t := range invopop.Tools() {
		b, err := json.Marshal(t.Schema)
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		il.Tools = append(il.Tools, tool{t.Name, t.Description, b})
	}
	return write(filepath.Join(dir, "invopop", "tools.json"), il)
}

// meta names the generator module and the version this build linked.
func meta(module, call string) genMeta {
	m := genMeta{Generator: module, Version: "unknown", Call: call}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == module {
				m.Version = d.Version
			}
		}
	}
	return m
}

// write writes v with 2-space indentation. Schemas are json.RawMessage, so
// their key order is the one the generator marshaled.
func write(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
