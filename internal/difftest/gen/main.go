// Command gen writes package difftest: run it with go generate in that
// package's directory.
package main

import (
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/internal/difftest/specs"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "difftest/gen:", err)
		os.Exit(1)
	}
}

func run() error {
	set, err := specs.Load(specs.ManifestDir)
	if err != nil {
		return err
	}
	files, err := set.Files()
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(f.Name, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
