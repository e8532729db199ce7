// Command bankpayments is the bank's payments MCP service, built from the
// code mcpgen generates from ../../manifests (package bank) and the
// hand-written handlers in handlers.go.
//
// Over stdio the caller's principal comes from flags or the environment:
//
//	bankpayments -agent payments-investigator -tenant wholesale \
//	    -scopes payments.read,crm.write -clearance confidential
//
// Over Streamable HTTP it comes from each request's JWT bearer token:
//
//	bankpayments -transport http -addr 127.0.0.1:8080 \
//	    -jwt-issuer https://idp.bank.example -jwt-audience http://127.0.0.1:8080/mcp \
//	    -jwks-url https://idp.bank.example/jwks.json
//
// and on a developer's machine, without authentication, from the stdio
// flags: bankpayments -transport http -insecure-dev -agent dev ... (loopback
// addresses only). -stateless serves the stateless protocol era only, so
// that replicas can share a load balancer. Every flag has an environment
// variable (see -help). Logs are JSON on stderr; tokens never reach them,
// and the call log redacts arguments the input schema marks x-secret.
//
// Operators move versions through their lifecycle without a redeploy:
// -lifecycle names a JSON file mapping "name@X.Y.Z" to "deprecated" or
// "retired"; it is applied at start, on SIGHUP and when it changes, and
// every change reaches connected clients as
// notifications/tools/list_changed. Over HTTP, /healthz, /readyz and
// /metrics serve the operator (package service).
package main

//go:generate go run ../../cmd/mcpgen generate -manifests ../../manifests -out bank

import (
	"flag"
	"time"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/service"
)

func main() { service.Main(newService()) }

// newService is the bank's service: the generated package, its handlers,
// and the one flag of its own, the ledger snapshot's date.
func newService() *service.Service {
	var snapshotDate string
	return &service.Service{
		Name:    "bankpayments",
		Options: bank.Options(),
		Flags: func(fs *flag.FlagSet, env service.Env) {
			env.StringVar(fs, &snapshotDate, "snapshot-date", time.Now().UTC().Format(time.DateOnly), "the date of the ledger snapshot; lookups as of other dates need core banking")
		},
		Register: func(srv *mcp.Server) error { return bank.Register(srv, newHandlers(snapshotDate)) },
	}
}
