// Package imported holds the tools of testdata/generators, whose schemas
// zod, pydantic, google/jsonschema-go and invopop/jsonschema wrote, brought
// in as mcpgen packages (one per generator, by importgen), and the tests
// that run them through a real server over stdio: every tool generates,
// builds, serves its schema as written, takes a valid call and refuses an
// invalid one with the reference validator's errors.
package imported

//go:generate go run ./importgen/cmd
