// Package structfill checks the copy generated code makes of a validated
// wire form into a team's own argument struct (mcpgen generate -source):
// on every input the generated decoder accepts, the struct is what
// encoding/json makes of the same text. Package tools declares structs of
// every shape the copy handles, and one it leaves to encoding/json;
// package fill is generated from them.
package structfill

//go:generate go run ../../cmd/mcpgen generate -source ./tools -out fill
