// Package importer brings the tools of an existing MCP server over as tool
// manifests (mcpgen import): it reads the server's tools/list answer, from
// the running server or saved, and writes one manifest per tool at 1.0.0,
// its schemas as the server publishes them, ready to generate from. It also
// compares a running server with manifests already written (Check), so a
// team can see whether the two still agree.
//
// What a tools/list answer does not say, the team decides: who owns each
// tool, how sensitive its data is, which scopes a caller needs, and, unless
// the tool's annotations say it, what calling it does to the world. A
// side effect is never guessed: a tool whose annotations are silent is not
// written until someone names its side effect (Decisions).
package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/runtime/client"
)

// Tool is one entry of a tools/list answer, as published.
type Tool struct {
	// Name is the name the server publishes the tool under (its wire name).
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  Annotations
	// Where is the entry's place in the source, for a message about it:
	// "tools.json: $.tools[3]", or "page 2: $.tools[0]" for a live server.
	Where string
	// problem is why the entry could not be read, or "".
	problem string
}

// Annotations are the tool annotations that speak about side effects
// (MCP's ToolAnnotations). Nil means the server did not say.
type Annotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    *bool  `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint"`
	IdempotentHint  *bool  `json:"idempotentHint"`
}

// List is the tools of one server and where they came from.
type List struct {
	// Source names where the list was read, as messages print it.
	Source string
	Tools  []Tool
}

// page is one tools/list result.
type page struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor"`
}

// entry is the part of a tools/list entry the importer reads.
type entry struct {
	Name         *string         `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  *Annotations    `json:"annotations"`
}

// addPage appends the tools of one page; where is the JSON path of the
// page's result in the source, after the source's name ("tools.json: $").
func (l *List) addPage(p page, where string) {
	for i, raw := range p.Tools {
		t := Tool{Where: fmt.Sprintf("%s.tools[%d]", where, i)}
		var e entry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.problem = "not a tool entry: " + err.Error()
		} else {
			switch {
			case e.Name == nil || *e.Name == "":
				t.problem = "the entry has no name"
			case len(e.InputSchema) == 0 || string(e.InputSchema) == "null":
				t.problem = "the entry has no inputSchema"
			}
			if e.Name != nil {
				t.Name = *e.Name
			}
			t.Title, t.Description, t.InputSchema = e.Title, e.Description, e.InputSchema
			if string(e.OutputSchema) != "null" {
				t.OutputSchema = e.OutputSchema
			}
			if e.Annotations != nil {
				t.Annotations = *e.Annotations
				if t.Title == "" {
					t.Title = e.Annotations.Title
				}
			}
		}
		l.Tools = append(l.Tools, t)
	}
}

// ReadSaved reads a saved tools/list answer: the result ({"tools": [...]})
// or the whole JSON-RPC response around it, or several of either one after
// another, as a server's pages were saved. name is the source's name in
// messages ("-" for standard input). A last page that still names a
// nextCursor is an error: the tools of the pages after it are missing.
func ReadSaved(r io.Reader, name string) (*List, error) {
	l := &List{Source: name}
	dec := json.NewDecoder(r)
	var last page
	for n := 0; ; n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			if n == 0 {
				return nil, fmt.Errorf("%s: no tools/list answer in it", name)
			}
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: not JSON: %v", name, err)
		}
		var msg struct {
			Result *json.RawMessage `json:"result"`
			Error  json.RawMessage  `json:"error"`
			Tools  json.RawMessage  `json:"tools"`
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			return nil, fmt.Errorf("%s: answer %d is not a JSON object", name, n+1)
		}
		prefix := "$"
		body := raw
		switch {
		case msg.Error != nil:
			return nil, fmt.Errorf("%s: answer %d is a JSON-RPC error: %s", name, n+1, bytes.TrimSpace(msg.Error))
		case msg.Result != nil:
			body, prefix = *msg.Result, "$.result"
		case msg.Tools == nil:
			return nil, fmt.Errorf("%s: answer %d has neither tools nor result.tools", name, n+1)
		}
		var p page
		if err := json.Unmarshal(body, &p); err != nil || p.Tools == nil {
			return nil, fmt.Errorf("%s: %s.tools is not a list of tools", name, prefix)
		}
		where := name + ": "
		if n > 0 || dec.More() {
			where = fmt.Sprintf("%s: answer %d: ", name, n+1)
		}
		l.addPage(p, where+prefix)
		last = p
	}
	if last.NextCursor != "" {
		return nil, fmt.Errorf("%s: the last answer names nextCursor %q: the tools of the pages after it are missing (save every page, one answer after another)", name, last.NextCursor)
	}
	return l, nil
}

// maxPages bounds how many tools/list pages a live import follows: a
// server whose cursors never end would otherwise keep it listing forever.
const maxPages = 10000

// ReadLive lists the tools of a connected server, following nextCursor to
// the last page. source names the server in messages.
func ReadLive(ctx context.Context, c *client.Client, source string) (*List, error) {
	l := &List{Source: source}
	cursor := ""
	seen := map[string]bool{}
	for n := 1; ; n++ {
		if n > maxPages {
			return nil, fmt.Errorf("%s: more than %d pages of tools", source, maxPages)
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var p page
		if err := c.Call(ctx, "tools/list", params, &p); err != nil {
			return nil, fmt.Errorf("%s: tools/list: %w", source, err)
		}
		where := source + ": "
		if n > 1 || p.NextCursor != "" {
			where = fmt.Sprintf("%s: page %d: ", source, n)
		}
		l.addPage(p, where+"$")
		if p.NextCursor == "" {
			break
		}
		if seen[p.NextCursor] {
			return nil, fmt.Errorf("%s: page %d names cursor %q again: the pages would never end", source, n, p.NextCursor)
		}
		seen[p.NextCursor] = true
		cursor = p.NextCursor
	}
	return l, nil
}
