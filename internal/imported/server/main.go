// Command server serves one imported package over stdio (its name is the
// only argument), every tool answering with the arguments it decoded, as
// JSON text: a test sees what a handler would have been given.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	names := make([]string, 0, len(estates))
	for name := range estates {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(args) != 1 || estates[args[0]] == nil {
		return fmt.Errorf("usage: server PACKAGE (one of %s)", strings.Join(names, ", "))
	}
	srv, err := mcp.NewServer(mcp.Options{Name: args[0] + "-tools", Version: "1.0.0"})
	if err != nil {
		return err
	}
	if err := estates[args[0]](srv); err != nil {
		return err
	}
	caller := estate.Principal{AgentID: "imported", MaxClassification: estate.Public}
	return srv.ServeStream(context.Background(), os.Stdin, os.Stdout, caller)
}

// echo is a tool result whose text is args as JSON.
func echo(args any) (*mcp.Result, error) {
	text, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return mcp.TextResult(string(text)), nil
}
