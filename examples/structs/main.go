// Command treasury is the treasury desk's FX MCP service, built from the
// code mcpgen generates from the Go structs in ./tools (package treasury)
// and the hand-written handlers in handlers.go. The structs are the source
// of truth: the generated handlers take them as their arguments.
//
// Over stdio the caller's principal comes from flags (or TREASURY_*
// variables); -transport http serves Streamable HTTP (see -help):
//
//	treasury -agent fx-assistant -tenant wholesale -scopes fx.read,fx.trade -clearance confidential
package main

//go:generate go run ../../cmd/mcpgen generate -source ./tools -out treasury

import (
	"github.com/mcpgen/mcpgen/examples/structs/treasury"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/service"
)

func main() { service.Main(newService()) }

// newService is the desk's service: the generated package and its
// handlers, with the flags every service takes (package service).
func newService() *service.Service {
	return &service.Service{
		Name:     "treasury",
		Options:  treasury.Options(),
		Register: func(srv *mcp.Server) error { return treasury.Register(srv, newDesk()) },
	}
}
