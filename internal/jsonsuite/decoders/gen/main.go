// Command gen writes package decoders: run it with go generate in that
// package's directory.
package main

import (
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/internal/jsonsuite/suitegen"
)

func main() {
	files, err := suitegen.Render(suitegen.SuiteDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonsuite/decoders/gen:", err)
		os.Exit(1)
	}
	for _, f := range files {
		if err := os.WriteFile(f.Name, f.Data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "jsonsuite/decoders/gen:", err)
			os.Exit(1)
		}
	}
}
