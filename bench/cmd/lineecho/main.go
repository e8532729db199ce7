// Command lineecho writes every line it reads back to standard output, as
// soon as it is read: the stdio transport with no server behind it, for
// BenchmarkStdioProcess to hold a server's latency against.
package main

import (
	"bufio"
	"os"
)

func main() {
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	w := bufio.NewWriter(os.Stdout)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return
		}
		if _, err := w.Write(line); err != nil {
			return
		}
		if err := w.Flush(); err != nil {
			return
		}
	}
}
