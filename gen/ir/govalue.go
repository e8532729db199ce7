package ir

// GoValue is the Go type a team declared for a value of its argument
// struct (mcpgen generate -source), as much of it as the generated code
// needs to fill the struct from the wire form its decoder validated: one
// reading of the JSON, then a typed copy. A version whose struct holds a
// type a GoValue cannot describe (an interface, json.RawMessage, an array,
// []byte, a generic or unexported named type, an embedded pointer) has
// none, and its struct is filled by encoding/json from the validated text.
type GoValue struct {
	Kind GoKind
	// Path, Package and Name name a defined type: Path is "" for a
	// predeclared one (Name "uint8"); all are "" for an unnamed struct,
	// slice, map or pointer.
	Path, Package, Name string
	// Basic is the predeclared type under a GoBasic ("string", "uint8").
	Basic string
	// Fields are a struct's properties, in the order of its fields.
	Fields []GoField
	// Elem is a slice's or map's element, or a pointer's pointee.
	Elem *GoValue
}

// GoKind is the kind of a GoValue.
type GoKind int

const (
	// GoBasic is a boolean, a string or a number, named or not.
	GoBasic GoKind = iota
	// GoStruct is a struct of properties.
	GoStruct
	// GoSlice is a slice.
	GoSlice
	// GoMap is a map keyed by strings.
	GoMap
	// GoPointer is a pointer.
	GoPointer
)

// GoField is one property of a struct: its JSON name, the names of the Go
// fields that lead to it (more than one when an embedded struct's field is
// promoted), and its type.
type GoField struct {
	JSONName string
	Path     []string
	Value    *GoValue
}

// Field returns the field of the property name; nil when the struct has
// none.
func (v *GoValue) Field(name string) *GoField {
	for i := range v.Fields {
		if v.Fields[i].JSONName == name {
			return &v.Fields[i]
		}
	}
	return nil
}
