package mcp

import (
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"sort"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Pagination of tools/list, resources/list, resources/templates/list and
// prompts/list (MCP's "Pagination": an opaque cursor in, a nextCursor out
// while there is more).
//
// Every list the server answers is sorted by a key that is unique in it
// (a tool's name, a resource's URI, a template's URI template, a prompt's
// name), so a cursor is the key of the last entry of the page it follows
// (keyset pagination), not a position: the next page starts after that key
// in the list as it is when the cursor comes back. A cursor therefore
// stays valid across a change of the estate or the catalogue: an entry
// present throughout is listed exactly once, one removed meanwhile is not
// listed again, one added meanwhile is listed when it sorts after the
// cursor (and a client that follows list changes re-lists anyway). It
// needs no state on the server and no secret, so a cursor one replica
// issued is good at any other. It names only an entry its caller was
// listed; the list is filtered for the caller as every page is.
//
// The cursor is base64url of a format byte, the list it belongs to, the
// key, and a CRC-32 of those: a cursor the server did not issue (garbage,
// a truncated one, one of another list) is refused with -32602 and says
// why, rather than read as some key.

// DefaultPageSize is Options.PageSize when zero: a list of up to this
// many entries is one page, as every estate and catalogue is that does
// not reach it, and a larger one is answered a page at a time, so that
// an answer's size (a tools/list entry is a few hundred bytes to a few
// kilobytes with its schema) stays within what clients read as one
// message.
const DefaultPageSize = 1000

// listKind names the list a cursor belongs to.
type listKind byte

const (
	listTools listKind = iota + 1
	listResources
	listResourceTemplates
	listPrompts
)

func (k listKind) method() string {
	switch k {
	case listTools:
		return methodToolsList
	case listResources:
		return methodResourcesList
	case listResourceTemplates:
		return methodResourceTemplatesList
	}
	return methodPromptsList
}

// changedNotification is the notification that the list changed.
// Templates are resources: their list changes with the resources'.
func (k listKind) changedNotification() string {
	switch k {
	case listTools:
		return notificationToolsChanged
	case listPrompts:
		return notificationPromptsChanged
	}
	return notificationResourcesChanged
}

const cursorFormat = 1

// encodeCursor is the cursor of the page after the entry keyed after in
// the list kind.
func encodeCursor(kind listKind, after string) string {
	b := make([]byte, 0, 2+len(after)+4)
	b = append(b, cursorFormat, byte(kind))
	b = append(b, after...)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return base64.RawURLEncoding.EncodeToString(b)
}

// page is where a list request starts: after the key of its cursor, or at
// the beginning.
type page struct {
	after    string
	resuming bool // a cursor was given: start after `after`
	size     int  // entries per page, 0 for all
}

// pageOf reads r's cursor for the list kind. An invalid cursor is -32602,
// as MCP answers it.
func (s *Server) pageOf(r *request, kind listKind) (page, *jsonrpc.Error) {
	pg := page{size: s.pageSize}
	raw := r.params.member("cursor")
	if raw == nil {
		return pg, nil
	}
	text, ok := jsonrpc.Unquote(raw)
	if !ok {
		return pg, invalidParams("cursor must be a string")
	}
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) < 6 || b[0] != cursorFormat ||
		binary.BigEndian.Uint32(b[len(b)-4:]) != crc32.ChecksumIEEE(b[:len(b)-4]) || !utf8.Valid(b[2:len(b)-4]) {
		return pg, invalidParams("invalid cursor: it is not a cursor this server issued; list again without one")
	}
	if listKind(b[1]) != kind {
		return pg, invalidParams("invalid cursor: it continues " + listKind(b[1]).method() + ", not " + kind.method())
	}
	pg.after, pg.resuming = string(b[2:len(b)-4]), true
	return pg, nil
}

// bounds is the page of a list of n entries sorted by key: the entries
// [start, end), and whether entries follow it.
func (pg page) bounds(n int, key func(int) string) (start, end int, more bool) {
	if pg.resuming {
		start = sort.Search(n, func(i int) bool { return key(i) > pg.after })
	}
	end = n
	if pg.size > 0 && n-start > pg.size {
		end = start + pg.size
	}
	return start, end, end < n
}

// next is the nextCursor of a page that ends with the entry keyed last,
// "" when more is false.
func (pg page) next(kind listKind, more bool, last string) string {
	if !more {
		return ""
	}
	return encodeCursor(kind, last)
}
