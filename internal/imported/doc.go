// Package imported holds the tools of testdata/generators, whose schemas
// zod, pydantic, google/jsonschema-go and invopop/jsonschema wrote, brought
// in as mcpgen packages (one per generator, by importgen), and the echo
// server that serves them. The test here checks the packages are what
// importgen writes today; interop/imports (its own module, since it drives
// the server with the official Go SDK's client) runs them over stdio: every
// tool serves its schema as written, takes a valid call and refuses an
// invalid one with the reference validator's errors.
package imported

//go:generate go run ./importgen/cmd
