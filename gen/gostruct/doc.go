// Package gostruct reads tool versions from Go: a package whose struct
// types carry an //mcpgen:tool directive is a source of the estate, as a
// directory of manifests is, and feeds the same pipeline (generate, check,
// diff) through the same model, manifest.Version, whose positions here are
// file.go:line:col.
//
//	// LookupArgs are the arguments of payments.lookup.
//	//
//	// Return the status, amount and counterparties of a payment by its reference.
//	//
//	//mcpgen:tool payments.lookup@1.0.0 sideEffect=read scopes=payments.read classification=confidential owner=wholesale-payments
//	//mcpgen:title Look up a payment
//	type LookupArgs struct {
//		// Reference is the payment's reference.
//		Reference   string `json:"reference" jsonschema:"pattern=^PMT-\\d{3\\,}$"`
//		IncludeLegs bool   `json:"include_legs,omitempty"`
//	}
//
// # Directives
//
// //mcpgen:tool NAME@VERSION key=value ... declares one version on the
// struct whose doc comment holds it. The keys are sideEffect,
// classification and owner (required), scopes and tenants (comma-separated
// lists), lifecycle and supersededBy; their values are the manifest's.
// //mcpgen:title TEXT is the title. The doc comment's first paragraph
// names the type for Go readers; the paragraphs after it are the version's
// description, each paragraph's lines joined by spaces. A directive is
// written as Go writes its own (//go:embed), without a space after the
// slashes: go/ast leaves such lines out of a comment's text, and gofmt
// keeps them together at its end.
//
// # Schemas
//
// The input schema is derived with github.com/invopop/jsonschema from the
// real type, by a program built against the package (see reflectSchemas),
// and finished for the contract language (see finishSchema): no $id or
// $schema, closed objects, a field required unless omitempty, doc comments
// as descriptions, the bounds of sized numbers. Whatever still falls
// outside the language is refused where the Go source writes it.
//
// A named struct, list or map type (or one with its own JSONSchema method)
// is written once, as a $defs entry that every use refers to with $ref,
// named as the Go type is (an instance of a generic type by the words of
// its name: Pair[int, Item] is Pair_int_Item); a reference to the argument
// struct itself is "#". So a type two tools share is one contract type,
// and one named Go type in each generated version, and a type may contain
// itself (a tree, a linked list). Every path into an entry, and every
// value path through a reference, maps back to the field and tag of the
// type's declaration that wrote it.
//
// A version the estate record already holds whose schema has no $defs was
// published before them, with every named type written out in full where
// it is used: it keeps that form (see schemaForm), so its schema document,
// and hash, stay what was published.
//
// # Decisions
//
//   - The schema is read from the type by the reflector, not re-implemented
//     from go/types: invopop/jsonschema is what a Go team already knows, and
//     running it on the real type is the only way to honour its interfaces
//     (JSONSchema, JSONSchemaExtend). go/types is used to find directives,
//     to refuse what has no JSON form before anything runs, and to map every
//     schema path back to the field and tag that wrote it.
//   - The reflector ignores what it does not understand; here every
//     jsonschema tag item is checked before reflection (unknown keys, keys
//     outside the subset, a value cut at an unescaped comma) and its effect
//     after (a keyword the reflector dropped), because an ignored constraint
//     is a hole in the contract.
//   - Types whose JSON form is not their Go shape (an UnmarshalJSON or
//     UnmarshalText method, the json ,string option) are refused: the
//     schema would describe one thing and encoding/json decode another.
//     json.RawMessage and interfaces without methods accept any value.
//   - The package cannot be main (the generated package imports it), and
//     the argument struct must be exported.
//   - A published version keeps the form it was published in, even where
//     $defs would be the same contract: the gate refuses any change to a
//     published schema document, which the hash pins. A type that has come
//     to contain itself has no inline form; such a version is reflected
//     with $defs, and the gate reports the change.
//   - A $defs entry is named as the Go type is: it is what the team wrote,
//     and the reflector names entries by the type's name alone. Two types
//     of one schema with one name (from two packages) are refused rather
//     than renamed: the reflector would make one entry stand for both.
//   - A constraint tag on a field whose type is a $defs entry is refused,
//     not moved: beside a $ref the reflector keeps only a title and a
//     description, and a constraint on the entry would bind every use.
package gostruct
