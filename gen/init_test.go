package gen

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module makes a module in a temporary directory, with mcpgen as a tool
// when tool is set, and returns its directory.
func module(t *testing.T, path string, tool bool) string {
	t.Helper()
	dir := t.TempDir()
	gomod := "module " + path + "\n\ngo 1.26\n"
	if tool {
		gomod += "\ntool " + ToolPackage + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInitWritesAServiceAndItsPackage(t *testing.T) {
	dir := module(t, "example.com/greeter", true)
	var tidied []string
	res, err := Init(InitOptions{Dir: dir, Tidy: func(d string) error { tidied = append(tidied, d); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "greeter" {
		t.Errorf("name %q, want greeter (the module path's last element)", res.Name)
	}
	want := []string{"manifests/server.yaml", "manifests/greet.yaml", "doc.go", "main.go", "handlers.go"}
	if !slices.Equal(res.Files, want) {
		t.Errorf("files %q, want %q", res.Files, want)
	}
	for _, f := range append(want, "tools/server.gen.go", "tools/mcpgen.estate.json") {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if res.Generated == nil || res.Generated.Package != "tools" || res.Generated.Tools != 1 {
		t.Errorf("generated %+v, want package tools with one tool", res.Generated)
	}
	if !slices.Equal(tidied, []string{dir}) {
		t.Errorf("go mod tidy ran in %q, want once in %s", tidied, dir)
	}
	next := []string{"go generate " + filepath.ToSlash(dir), "go build -o greeter " + filepath.ToSlash(dir), "./greeter -agent dev"}
	if !slices.Equal(res.Next, next) {
		t.Errorf("next %q, want %q", res.Next, next)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	if !strings.Contains(string(doc), "\n//go:generate go tool mcpgen generate -manifests manifests -out tools\n") {
		t.Errorf("doc.go has no go:generate line running mcpgen as the module's tool:\n%s", doc)
	}
	handlers, _ := os.ReadFile(filepath.Join(dir, "handlers.go"))
	if !strings.Contains(string(handlers), `"example.com/greeter/tools"`) {
		t.Errorf("handlers.go does not import the generated package by its import path:\n%s", handlers)
	}
}

func TestInitInASubdirectoryOfAModule(t *testing.T) {
	root := module(t, "example.com/platform/v2", true)
	dir := filepath.Join(root, "cmd", "payments")
	res, err := Init(InitOptions{Dir: dir, Tidy: func(string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "payments" {
		t.Errorf("name %q, want payments", res.Name)
	}
	main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(main), `"example.com/platform/v2/cmd/payments/tools"`) {
		t.Errorf("main.go does not import the generated package by its import path:\n%s", main)
	}
}

func TestInitTidyFails(t *testing.T) {
	dir := module(t, "example.com/greeter", true)
	res, err := Init(InitOptions{Dir: dir, Tidy: func(string) error { return errors.New("go mod tidy: no network") }})
	if err == nil || !strings.Contains(err.Error(), "no network") {
		t.Fatalf("error %v, want the tidy failure", err)
	}
	if res == nil || len(res.Next) != 4 || res.Next[0] != "go mod tidy" {
		t.Fatalf("result %+v, want go mod tidy as the first command next", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "tools", "server.gen.go")); err != nil {
		t.Errorf("the package is not generated: %v", err)
	}
}

func TestInitRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tool   bool
		before map[string]string // files there before
		dir    string            // -dir, relative to the module; "" for the module's root
		want   []string          // in the error
	}{
		{name: "no tool directive", want: []string{"does not have mcpgen as a tool", "go get -tool " + ToolPackage, "go tool mcpgen init"}},
		{name: "files exist", tool: true, before: map[string]string{"main.go": "package main\n", "manifests/greet.yaml": "name: greet\n"},
			want: []string{"manifests/greet.yaml, main.go already exist", "nothing was written"}},
		{name: "output exists", tool: true, before: map[string]string{"tools/README": "x"}, want: []string{"tools/ already exists"}},
		{name: "a Go package is there", tool: true, before: map[string]string{"cmd/app/app.go": "package app\n"}, dir: "cmd/app",
			want: []string{"cmd/app holds a Go package (app.go)", "with -dir"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := module(t, "example.com/greeter", tc.tool)
			for name, data := range tc.before {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, root)
			t.Chdir(root)
			_, err := Init(InitOptions{Dir: tc.dir, Tidy: func(string) error { t.Error("tidy ran"); return nil }})
			if err == nil {
				t.Fatal("init succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if after := tree(t, root); !maps.Equal(after, before) {
				t.Errorf("files %q after the refusal, want %q as before", after, before)
			}
		})
	}
}

func TestInitOutsideAModule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "greeter")
	_, err := Init(InitOptions{Dir: dir})
	if !errors.Is(err, ErrNoModule) {
		t.Fatalf("error %v, want ErrNoModule", err)
	}
	for _, w := range []string{"go mod init example.com/greeter", "go get -tool " + ToolPackage} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}
