// Command conformance-server serves the fixtures of the MCP conformance
// suite (the tools, resources and prompts its server scenarios call),
// built from the code mcpgen generates from ./manifests (package
// conformance) and the hand-written handlers in handlers.go, so the suite
// can be run against a generated server.
//
// It takes the flags of the other example services; over stdio the
// caller's principal comes from them or the environment (CONFORMANCE_*):
//
//	conformance-server -agent suite
//
// Every fixture is public and needs no scope, so any principal sees all of
// them.
package main

//go:generate go run ../../cmd/mcpgen generate -manifests manifests -out conformance

import (
	"github.com/mcpgen/mcpgen/examples/conformance-server/conformance"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/service"
)

func main() { service.Main(newService()) }

// newService serves the generated catalogue with what the manifests cannot
// say added (catalogue.go), and the handlers bound.
func newService() *service.Service {
	opts := conformance.Options()
	addFixtures(&opts)
	return &service.Service{
		Name:      "conformance-server",
		EnvPrefix: "CONFORMANCE",
		Options:   opts,
		Register:  func(srv *mcp.Server) error { return conformance.Register(srv, handlers{}) },
	}
}
