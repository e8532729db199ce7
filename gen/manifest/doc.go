// Package manifest loads a directory of tool manifests, the source of truth
// a tool-owning team writes and mcpgen generates from, into a checked model
// that remembers where everything was written.
//
// A directory holds one file per tool (YAML, or JSON, which is read as
// JSON) listing every version of the tool, and optionally a server file
// (server.yaml) naming the server and its resources and prompts. The
// formats are described for editors by the JSON Schemas in
// manifests/schema; a test keeps those schemas and this loader accepting
// the same fields.
//
//	name: payments.lookup
//	versions:
//	  - version: 1.0.0
//	    title: Look up a payment
//	    description: Return the status, amount and counterparties of a payment by its reference.
//	    sideEffect: read            # required: read | write_idempotent | write_non_idempotent | irreversible
//	    requiredScopes: [payments.read]
//	    dataClassification: confidential   # required: public | internal | confidential | restricted
//	    owner: wholesale-payments          # required
//	    tenants: []                        # empty: every tenant
//	    lifecycle: active                  # preview | active (default) | deprecated | retired
//	    supersededBy: ""                   # name@X.Y.Z of a version in the directory
//	    inputSchema: {type: object, properties: {...}, required: [...], additionalProperties: false}
//	    outputSchema: {...}                # optional
//
// A version also requires a description: it is what the model reads to
// choose a tool. Schemas are the JSON Schema subset of runtime/schema; a
// property may carry x-secret: true to be redacted from the call log.
//
// # Errors
//
// Loading never stops at the first problem and never panics: LoadDir
// returns a List of every problem, each as "file:line:col: message", sorted
// by file, line and column, with paths starting with the directory as the
// user named it. A schema problem names the schema location as well:
//
//	manifests/payments.lookup.yaml:14:11: inputSchema/properties/reference/pattern: pattern "(?<n>x)" does not compile with Go's regexp (RE2): ...
//
// Positions point at the key of a field or schema keyword that is wrong or
// unknown, at the value when the value is wrong, and at a version's entry
// when a field is missing. A YAML syntax error carries only a line from the
// YAML parser; its column is that line's first non-blank character.
//
// The rules about a field's value (a version, a side effect, a tool name, a
// successor) belong to runtime/estate and runtime/schema; this package asks
// them and reports each answer where the manifest says the thing.
//
// # Decisions
//
//   - A manifest is JSON written in YAML. Anchors, aliases and merge keys are
//     refused: each version states its contract in full, so that editing
//     one version can never change another (the immutability the estate
//     promises). So are non-string keys, repeated keys, tags other than
//     JSON's, NaN and infinities, and numbers JSON would not write (0x1F,
//     +5, .5); a number keeps its literal as a json.Number.
//   - A field set to null is not an absent field: "owner:" with no value is
//     "owner must be a string, not null", as the JSON Schema says too.
//   - description is required (the model reads it to choose the tool);
//     title is optional; lifecycle defaults to active.
//   - supersededBy must name a newer version of the same tool declared in
//     the same directory (estate.CheckSuccessor, the rule the server
//     applies when it registers versions or a lifecycle change names one).
//   - A tool file and its name are independent (payments.lookup may live in
//     any file), but a name is declared in one file only.
//   - "$schema" is accepted at the top of both formats, so that a JSON
//     manifest can name its JSON Schema for editors.
//   - Each file holds one YAML document. The server file is server.yaml,
//     server.yml or server.json, and there is at most one.
//   - A prompt's arguments are objects {name, description, required}, never
//     plain strings: one spelling, and "required" is stated, defaulting to
//     false as in MCP. Argument names are identifiers; a template names an
//     argument as {name}, and every such placeholder must be declared.
//   - A schema whose text has a problem of its own (a YAML-only value) is
//     not handed to schema.Parse; its keyword problems appear once the text
//     is fixed.
package manifest
