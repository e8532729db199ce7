package schema

// Class is how a contract change must be released. The classes are ordered:
// a change is as severe as its most severe part.
type Class int

// The change classes. None means the two contracts are the same document.
const (
	None  Class = iota // nothing changed
	Patch              // annotations only (title, description, examples, default, x-secret): nobody breaks
	Minor              // the contract got looser: every old caller keeps working
	Major              // the contract got stricter: some old caller breaks
)

var classNames = [...]string{None: "none", Patch: "patch", Minor: "minor", Major: "major"}

// String returns "none", "patch", "minor" or "major".
func (c Class) String() string {
	if c >= None && c <= Major {
		return classNames[c]
	}
	return "invalid"
}

// ParseClass is the inverse of Class.String.
func ParseClass(s string) (Class, bool) {
	for c, name := range classNames {
		if name == s {
			return Class(c), true
		}
	}
	return None, false
}

// MarshalText writes the class name, so classes read well in JSON reports.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class name.
func (c *Class) UnmarshalText(b []byte) error {
	v, ok := ParseClass(string(b))
	if !ok {
		return &SchemaError{Message: "unknown change class " + string(b)}
	}
	*c = v
	return nil
}

// Direction says which side of the contract a schema describes.
type Direction int

const (
	// Input is a schema the caller's values must satisfy (inputSchema): a
	// new contract that rejects something the old one accepted is Major.
	Input Direction = iota
	// Output is a schema the server's values satisfy (outputSchema): a new
	// contract that allows something the old one did not is Major, since a
	// consumer written against the old one may not handle it.
	Output
)

// Change is one reason for a classification.
type Change struct {
	// Rule is a stable identifier of the rule that fired, such as
	// "required-added" or "enum-narrowed".
	Rule string `json:"rule"`
	// Path locates the change in value terms: "$" is the whole value,
	// "$.as_of" a property, "$.legs[*]" every array element, "$.meta.*"
	// every undeclared property.
	Path string `json:"path"`
	// Class is what this change alone requires.
	Class Class `json:"class"`
	// Text is a one-line reason for people.
	Text string `json:"text"`
}

// String renders the change as "class rule path: text".
func (c Change) String() string {
	return c.Class.String() + " " + c.Rule + " " + c.Path + ": " + c.Text
}

// Diff is the classification of a change and every reason for it.
type Diff struct {
	Class   Class    `json:"class"`
	Changes []Change `json:"changes"`
}
