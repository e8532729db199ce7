package manifest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// fuzzFiles are the names a fuzzed file is loaded under: a tool manifest
// or a server file, in YAML or JSON.
var fuzzFiles = []string{"tool.yaml", "tool.json", "server.yaml", "server.json"}

// FuzzLoad loads arbitrary bytes as a manifest file. The loader must never
// panic; every problem must carry a line and column inside the file; and a
// file it accepts must also match the format's JSON Schema (the loader is
// never more lenient than what editors check) and convert to specs the
// estate accepts.
func FuzzLoad(f *testing.F) {
	toolSchema, serverSchema := formatSchemas(f)
	var seeds []string
	for _, pattern := range []string{
		filepath.Join(sampleDir, "*.yaml"),
		filepath.Join("testdata", "valid", "*", "*"),
		filepath.Join("testdata", "errors", "*", "*"),
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m...)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		kind := uint8(0)
		if isServerFile(path) {
			kind = 2
		}
		if filepath.Ext(path) == ".json" {
			kind++
		}
		f.Add(data, kind)
	}

	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		name := fuzzFiles[int(kind)%len(fuzzFiles)]
		fsys := fstest.MapFS{name: {Data: data}}
		if isServerFile(name) {
			fsys["tool.yaml"] = &fstest.MapFile{Data: []byte(validTool)}
		}
		e, err := LoadFS(fsys, "m")
		if err != nil {
			var list List
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is not a List of problems", err, err)
			}
			lines := bytes.Count(data, []byte{'\n'}) + 1
			for _, p := range list {
				if p.Pos.File != filepath.Join("m", name) || !p.Pos.IsValid() || p.Pos.Line > lines {
					t.Errorf("problem %q has no position in the file (%d lines)", p, lines)
				}
			}
			return
		}
		s := toolSchema
		if isServerFile(name) {
			s = serverSchema
		}
		if err := s.Validate(fileValue(t, name, data)); err != nil {
			t.Errorf("the loader accepts a file its JSON Schema refuses: %v", err)
		}
		for _, spec := range e.Specs() {
			if err := spec.Validate(); err != nil {
				t.Errorf("the loader accepts a version the estate refuses: %v", err)
			}
		}
	})
}
