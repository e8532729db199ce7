// Package estate is the tool estate: many tools, many versions, one
// authorization-aware view.
//
// A [ToolSpec] is one version of one tool. It carries the MCP-visible
// contract (name, title, description, input and output schema) and the
// platform metadata that never reaches the model: the [SideEffect] class
// (from which retry policy and the MCP annotations are derived), the scopes a
// caller must hold, the data [Classification], the owning team, the tenant
// allow-list and the [Lifecycle] state.
//
// The [Registry] holds the estate. [Registry.Publish] applies the publish
// guard, so that a version pin means something six months later:
//
//   - immutability: a published name@version is never replaced or edited;
//     only its lifecycle moves forward (active → deprecated → retired);
//   - monotonicity: a new version is newer than the latest active one;
//   - bump enforcement: the change between the latest active contract and
//     the new one, as classified by schema.Classify, must be released with
//     the matching version bump.
//
// [Registry.Discover] answers "what may this principal see right now": the
// newest visible version of each tool, filtered by tenant, clearance and
// scopes before the list is built, and cached per view until the estate
// changes.
package estate
