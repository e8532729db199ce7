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
// and finished for the schema subset (see finishSchema): no $id, $ref or
// $schema, closed objects, a field required unless omitempty, doc comments
// as descriptions, the bounds of sized numbers. Whatever still falls
// outside the subset is refused where the Go source writes it.
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
package gostruct
