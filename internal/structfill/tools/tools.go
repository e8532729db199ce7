// Package tools declares argument structs of every shape the generated
// code fills without encoding/json (see package structfill), and some it
// leaves to encoding/json.
package tools

// Currency is a named string type.
type Currency string

// Level is a named integer type.
type Level uint16

// Money is a named struct, used by value and by pointer.
type Money struct {
	// Minor is the amount in minor units.
	Minor int64 `json:"minor" jsonschema:"minimum=0"`
	// Currency is the ISO code.
	Currency Currency `json:"currency" jsonschema:"enum=AED,enum=USD"`
}

// Audit is embedded: its fields are the outer struct's properties.
type Audit struct {
	// By is who made the change.
	By string `json:"by,omitempty"`
	// Seq is a sequence number.
	Seq uint32 `json:"seq,omitempty"`
}

// Node is a tree: a type that contains itself through a slice and a
// pointer.
type Node struct {
	// Name names the node.
	Name string `json:"name"`
	// Children are the nodes below.
	Children []Node `json:"children,omitempty"`
	// Next is a sibling.
	Next *Node `json:"next,omitempty"`
}

// Tags is a named slice type.
type Tags []string

// ShapesArgs are the arguments of fill.shapes.
//
// Every shape the copy handles.
//
//mcpgen:tool fill.shapes@1.0.0 sideEffect=read scopes=fill.read classification=internal owner=fill-team
type ShapesArgs struct {
	Audit
	// Amount is a struct by value.
	Amount Money `json:"amount"`
	// Fee is an optional struct by pointer.
	Fee *Money `json:"fee,omitempty"`
	// Score is a float64.
	Score float64 `json:"score"`
	// Small is an int8 with its bounds.
	Small int8 `json:"small,omitempty"`
	// Level is a named unsigned integer.
	Level Level `json:"level,omitempty"`
	// Flag is optional by pointer.
	Flag *bool `json:"flag,omitempty"`
	// Note is an optional string by pointer.
	Note *string `json:"note,omitempty"`
	// Tags is a named slice.
	Tags Tags `json:"tags,omitempty"`
	// Counts is a map of integers.
	Counts map[string]int `json:"counts,omitempty"`
	// Ledger is a map of structs.
	Ledger map[string]Money `json:"ledger,omitempty"`
	// Matrix is a slice of slices.
	Matrix [][]int32 `json:"matrix,omitempty"`
	// Pointers is a slice of pointers.
	Pointers []*Money `json:"pointers,omitempty"`
	// Inline is an unnamed struct.
	Inline struct {
		// A is a string.
		A string `json:"a"`
		// B is an optional integer.
		B int `json:"b,omitempty"`
	} `json:"inline"`
	// Tree contains itself.
	Tree *Node `json:"tree,omitempty"`
	// Ignored is not a property.
	Ignored string `json:"-"`
	hidden  string
}

// LooseArgs are the arguments of fill.loose.
//
// A field of any type, and a float32: encoding/json fills this struct.
//
//mcpgen:tool fill.loose@1.0.0 sideEffect=read scopes=fill.read classification=internal owner=fill-team
type LooseArgs struct {
	// ID names the thing.
	ID string `json:"id"`
	// Extra is any JSON value.
	Extra any `json:"extra,omitempty"`
	// Ratio is a float32, which encoding/json rounds from the text once.
	Ratio float32 `json:"ratio,omitempty"`
}

// Hidden keeps the unexported field in use for vet.
func (a ShapesArgs) Hidden() string { return a.hidden }
