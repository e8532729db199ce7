package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/mcpgen/mcpgen/gen/emit"
)

// ToolPackage is mcpgen's command, as a module's go.mod names it in a
// tool directive (go get -tool ToolPackage) and go:generate runs it
// (go tool mcpgen).
const ToolPackage = "github.com/mcpgen/mcpgen/cmd/mcpgen"

// InitOptions say where mcpgen init starts a service.
type InitOptions struct {
	// Dir is the directory of the service's main package; "" is the
	// current directory. It must be inside a Go module and hold no Go
	// files yet.
	Dir string
	// Tidy brings the module's requirements in step with the new code;
	// nil runs go mod tidy in Dir.
	Tidy func(dir string) error
}

// InitResult says what Init wrote and what to run next.
type InitResult struct {
	// Name is the service's name: its binary's, its server's, and the
	// prefix of its environment variables.
	Name string
	// Files are the files written, relative to Dir, slash-separated, in
	// the order a reader meets them.
	Files []string
	// Generated is the generation of the package the handlers use.
	Generated *Result
	// Next are the commands to run next, from the current directory:
	// generate (after a manifest changes), build and serve; go mod tidy
	// first when Init could not run it.
	Next []string
}

// initOut is the directory, inside Dir, of the package generated from the
// manifests.
const initOut = "tools"

// Init starts an MCP service in a Go module: a manifest of one tool, the
// server file, and the Go files of a main package that serves it (doc.go
// with the go:generate line, main.go on package service, handlers.go
// answering the tool); then it generates the package the handlers use
// and runs go mod tidy, so that go generate and go build work from then
// on.
//
// The module must exist and have mcpgen as a tool: go mod init names the
// module and picks its Go version, and go get -tool puts mcpgen into it at
// a version go.mod records, so the code mcpgen generates and the runtime
// it links against come from one release. Init does not do that work of
// the go command; when either is missing the error says what to type.
//
// Nothing is overwritten: when any file Init would write exists, or the
// directory already holds a Go package, or the generated package's
// directory exists, nothing is written and the error names them all.
func Init(opts InitOptions) (*InitResult, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	mod, err := findModule(dir)
	if errors.Is(err, ErrNoModule) {
		abs, _ := filepath.Abs(dir)
		return nil, fmt.Errorf("%w: make the module first, then run init again:\n\tgo mod init example.com/%s\n\tgo get -tool %s\n\tgo tool mcpgen init", err, serviceName(filepath.ToSlash(abs)), ToolPackage)
	}
	if err != nil {
		return nil, err
	}
	if !mod.hasTool(ToolPackage) {
		return nil, fmt.Errorf("%s does not have mcpgen as a tool, which the go:generate line runs: add it, then run init again:\n\tgo get -tool %s\n\tgo tool mcpgen init", filepath.Join(mod.root, "go.mod"), ToolPackage)
	}
	pkg, err := mod.importPath(dir)
	if err != nil {
		return nil, err
	}
	data := initData{
		Name:      serviceName(pkg),
		ToolsPath: path.Join(pkg, initOut),
		Tools:     initOut,
	}
	files, err := data.files()
	if err != nil {
		return nil, err
	}
	if err := refuseExisting(dir, files); err != nil {
		return nil, err
	}
	res := &InitResult{Name: data.Name, Next: nextCommands(dir, data.Name)}
	for _, f := range files {
		res.Files = append(res.Files, f.Name)
	}
	if err := writeAll(dir, files, &Result{}); err != nil {
		return nil, err
	}
	if res.Generated, err = Generate(Options{Manifests: filepath.Join(dir, "manifests"), Out: filepath.Join(dir, initOut)}); err != nil {
		return res, err
	}
	tidy := opts.Tidy
	if tidy == nil {
		tidy = goModTidy
	}
	if err := tidy(dir); err != nil {
		res.Next = append([]string{"go mod tidy"}, res.Next...)
		return res, err
	}
	return res, nil
}

// goModTidy runs go mod tidy in dir: it records in go.mod and go.sum the
// modules that the runtime packages the new code imports come from.
func goModTidy(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy: %v\n%s", err, bytes.TrimSpace(out))
	}
	return nil
}

// refuseExisting checks every target before anything is written: a file
// Init would write, Go files of a package already in dir (main.go would
// join it), and the generated package's directory.
func refuseExisting(dir string, files []emit.File) error {
	var taken []string
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Name))); err == nil {
			taken = append(taken, f.Name)
		} else if !os.IsNotExist(err) {
			return err
		}
	}
	goFiles, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	var others []string
	for _, g := range goFiles {
		name := filepath.Base(g)
		if !slices.ContainsFunc(files, func(f emit.File) bool { return f.Name == name }) {
			others = append(others, name)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, initOut)); err == nil {
		taken = append(taken, initOut+"/")
	}
	var problems []string
	switch len(taken) {
	case 0:
	case 1:
		problems = append(problems, taken[0]+" already exists")
	default:
		problems = append(problems, strings.Join(taken, ", ")+" already exist")
	}
	if len(others) > 0 {
		problems = append(problems, fmt.Sprintf("%s holds a Go package (%s): init writes a new main package, so give it a directory of its own with -dir", dirName(dir), strings.Join(others, ", ")))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s; nothing was written", strings.Join(problems, "; "))
	}
	return nil
}

func dirName(dir string) string {
	if dir == "." {
		return "the current directory"
	}
	return dir
}

// nextCommands are the three commands after init, run from the current
// directory: generate (doc.go's go:generate line, after a manifest
// changes), build, and serve over stdio.
func nextCommands(dir, name string) []string {
	generate, build := "./...", "."
	if filepath.Clean(dir) != "." {
		build = filepath.ToSlash(filepath.Clean(dir))
		if !filepath.IsAbs(dir) && !strings.HasPrefix(build, "../") {
			build = "./" + build
		}
		generate = build
	}
	return []string{
		"go generate " + generate,
		"go build -o " + name + " " + build,
		"./" + name + " -agent dev",
	}
}

// majorSuffix is an import path's last element when it names a major
// version (example.com/greeter/v2).
var majorSuffix = regexp.MustCompile(`^v[0-9]+$`)

// serviceName names a service after its package's import path (or a
// slash-separated directory), as go build names the binary: the last
// element, or the one before a major version suffix.
func serviceName(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && majorSuffix.MatchString(name) {
		name = elems[len(elems)-2]
	}
	return name
}

// initData is what the files Init writes are made of.
type initData struct {
	Name      string // the service
	ToolsPath string // the generated package's import path
	Tools     string // its name and directory
}

// files renders the files, the Go ones formatted as gofmt would.
func (d initData) files() ([]emit.File, error) {
	files := make([]emit.File, 0, len(initFiles))
	for _, f := range initFiles {
		var b bytes.Buffer
		if err := f.Execute(&b, d); err != nil {
			return nil, err
		}
		data := b.Bytes()
		if strings.HasSuffix(f.Name(), ".go") {
			var err error
			if data, err = format.Source(data); err != nil {
				return nil, fmt.Errorf("%s: %v", f.Name(), err)
			}
		}
		files = append(files, emit.File{Name: f.Name(), Data: data})
	}
	return files, nil
}

// initFiles are the templates of the files Init writes, named by the
// file's path, in the order a reader meets them.
var initFiles = []*template.Template{
	initFile("manifests/server.yaml", `# The server: its name and version in the MCP handshake.
name: {{.Name}}
version: 0.1.0
`),
	initFile("manifests/greet.yaml", `# A tool lists every version it ever released: a released version never
# changes. mcpgen check refuses a breaking change that is not a new major
# version.
name: greet
versions:
  - version: 1.0.0
    title: Greet someone
    description: Greet someone by name, in English, French or Spanish.
    sideEffect: read
    dataClassification: internal
    owner: {{.Name}}
    inputSchema:
      type: object
      properties:
        name: {type: string, minLength: 1, maxLength: 100, description: Who to greet.}
        language: {type: string, enum: [en, fr, es], description: The greeting's language; English when left out.}
      required: [name]
      additionalProperties: false
`),
	initFile("doc.go", `// Command {{.Name}} is an MCP server. Its tools are declared in
// manifests/, one file per tool listing every version; package {{.Tools}}
// is generated from them (go generate ./...), and handlers.go answers
// them. Build it and serve MCP over stdio:
//
//	go build -o {{.Name}} .
//	./{{.Name}} -agent dev
//
// -help lists every flag.
package main

//go:generate go tool mcpgen generate -manifests manifests -out {{.Tools}}
`),
	initFile("main.go", `package main

import (
	"{{.ToolsPath}}"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/service"
)

// main serves the tools over stdio, or Streamable HTTP with -transport
// http. Package service owns the flags (each with an environment
// variable, named in -help), authentication, health, metrics and
// shutdown.
func main() {
	service.Main(&service.Service{
		Name:     "{{.Name}}",
		Options:  {{.Tools}}.Options(),
		Register: func(srv *mcp.Server) error { return {{.Tools}}.Register(srv, handlers{}) },
	})
}
`),
	initFile("handlers.go", `package main

import (
	"context"

	"{{.ToolsPath}}"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// handlers answers the tools: {{.Tools}}.Handler has one method per major
// version of each tool. A method runs only with arguments that the called
// version's input schema accepts.
type handlers struct{}

var _ {{.Tools}}.Handler = handlers{}

// GreetV1 answers greet 1.x. A later 1.y adds to its arguments without
// changing this method.
func (handlers) GreetV1(ctx context.Context, call *mcp.Call, args {{.Tools}}.GreetV1Args) (*mcp.Result, error) {
	return mcp.TextResult(greeting(string(args.Language), args.Name)), nil
}

// greeting greets name in a language ("" is English).
func greeting(language, name string) string {
	switch language {
	case "fr":
		return "Bonjour, " + name + "!"
	case "es":
		return "Hola, " + name + "!"
	}
	return "Hello, " + name + "!"
}
`),
}

func initFile(name, text string) *template.Template {
	return template.Must(template.New(name).Parse(text))
}
