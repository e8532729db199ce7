// Package imports checks mcpgen import against MCP servers nobody here
// wrote: the official reference server (@modelcontextprotocol/server-everything,
// over stdio) and a server built on the official Go SDK whose schemas the
// SDK infers from Go types (sdkserver). Every tool is imported, generated
// and built, and one valid and one invalid call per tool, made from the
// tool's published schema, must get the same verdict from the generated
// server as from the original: refused as invalid arguments, or taken.
//
// The tests build binaries and start processes; they do not run in -short.
package imports
