// Command cmd regenerates the packages of internal/imported (run by go
// generate there) from testdata/generators.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/internal/imported/importgen"
)

func main() {
	if err := importgen.Write(filepath.Join("..", "..", "testdata", "generators"), "."); err != nil {
		fmt.Fprintln(os.Stderr, "importgen:", err)
		os.Exit(1)
	}
}
