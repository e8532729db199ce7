// Package bench measures mcpgen against the libraries a Go team would
// otherwise use, side by side in one run: santhosh-tekuri/jsonschema,
// google/jsonschema-go and encoding/json for decoding and validating
// arguments; the official Go SDK server and mark3labs/mcp-go for tools/call
// (over a pipe and over Streamable HTTP) and tools/list. It also measures tools/list as the estate grows, mcpgen
// generate against go build of its output, and the resident memory of the
// bankpayments service under load.
//
// It is a module of its own so that none of the anchors enters the main
// module's dependencies. `make bench` at the repository root runs every
// benchmark, prints benchstat's tables and then one table with the ratio of
// each row to its best anchor (cmd/benchtable); docs/benchmarks.md records
// the last run. Nothing here is a test of behaviour: the tests,
// TestDecodeAgreement, TestHTTPCall and TestStructuredOutputChecked, check
// that the decode, HTTP and structured output benchmarks do the work they
// claim before they are timed.
package bench

// Package instruct, the decode table's $ref/oneOf row and the structured
// output benchmark's tool, is generated from testdata/instruct like a
// service's package (TestInstructIsUpToDate).
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen generate -manifests testdata/instruct -out instruct
