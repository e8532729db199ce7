package mcp

// Feature is a member or a capability the server writes that not every
// revision defines. The table below is the one place that says which
// revision brought each; a writer asks Revision.Has and never compares
// dates, so an answer on a revision carries exactly what that revision's
// schema defines (docs/revisions.md, generated from the table).
type Feature int

// The features, each as the MCP schema of the revision that brought it
// names it.
const (
	// FeatureTitle is "title", a display name, on tools, resources,
	// resource templates, prompts and serverInfo (BaseMetadata, 2025-06-18).
	FeatureTitle Feature = iota
	// FeatureToolAnnotations is a tool's "annotations" (readOnlyHint,
	// destructiveHint, idempotentHint; 2025-03-26).
	FeatureToolAnnotations
	// FeatureOutputSchema is a tool's "outputSchema" (2025-06-18).
	FeatureOutputSchema
	// FeatureStructuredContent is a tool result's "structuredContent"
	// (2025-06-18).
	FeatureStructuredContent
	// FeatureCompletions is the "completions" server capability
	// (2025-03-26; completion/complete itself is served in every revision).
	FeatureCompletions
	// FeatureAudioContent is the "audio" content block (2025-03-26).
	FeatureAudioContent
	// FeatureProgressMessage is a progress notification's "message"
	// (2025-03-26).
	FeatureProgressMessage
	featureCount
)

// featureTable is the table: what each feature is, where the server
// writes it, and the first revision that defines it.
var featureTable = [featureCount]struct {
	name, where string
	since       Revision
}{
	FeatureTitle:             {"title", "tools/list, resources/list, resources/templates/list and prompts/list entries; serverInfo", Revision20250618},
	FeatureToolAnnotations:   {"annotations", "tools/list entries", Revision20250326},
	FeatureOutputSchema:      {"outputSchema", "tools/list entries", Revision20250618},
	FeatureStructuredContent: {"structuredContent", "tools/call results", Revision20250618},
	FeatureCompletions:       {"completions", "the capabilities of initialize and server/discover", Revision20250326},
	FeatureAudioContent:      {"audio content", "tools/call results and prompts/get messages", Revision20250326},
	FeatureProgressMessage:   {"progress message", "notifications/progress", Revision20250326},
}

// Features returns every feature of the table, in its order.
func Features() []Feature {
	out := make([]Feature, featureCount)
	for i := range out {
		out[i] = Feature(i)
	}
	return out
}

// String is the feature's name as the schema writes it.
func (f Feature) String() string { return featureTable[f].name }

// Where says where the server writes the feature.
func (f Feature) Where() string { return featureTable[f].where }

// Since is the first revision that defines the feature.
func (f Feature) Since() Revision { return featureTable[f].since }

// Has reports whether r defines f: whether an answer on r may carry it.
func (r Revision) Has(f Feature) bool { return r >= featureTable[f].since }

// titleOn is the title written on rev: none where the revision has no
// title member (the entries' title members are omitted when empty).
func titleOn(rev Revision, title string) string {
	if !rev.Has(FeatureTitle) {
		return ""
	}
	return title
}
