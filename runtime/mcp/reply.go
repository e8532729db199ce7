package mcp

import "github.com/mcpgen/mcpgen/runtime/jsonrpc"

// reply is an encoded answer in up to three parts, written in turn: head,
// body, tail. body may be bytes shared by many answers (a view's encoded
// tools/list, hundreds of kilobytes for a large estate), which a stream
// transport writes as they are rather than copying them into each answer.
// A reply with only a head is an ordinary message; the zero reply is none.
type reply struct{ head, body, tail []byte }

// replyOf is the reply that is the message msg (none when msg is nil).
func replyOf(msg []byte) reply { return reply{head: msg} }

// none reports whether there is no answer.
func (r reply) none() bool { return r.head == nil }

// bytes is the reply as one message, copied together when it has parts.
func (r reply) bytes() []byte {
	if r.body == nil && r.tail == nil {
		return r.head
	}
	b := make([]byte, 0, len(r.head)+len(r.body)+len(r.tail))
	return append(append(append(b, r.head...), r.body...), r.tail...)
}

// sharedResult is a result whose encoding is lead + open + rest: open is
// shared, read-only bytes (a run of a cached encoding), lead the few bytes
// before it and rest the members this answer adds and the closing brace.
// lead is read-only too.
type sharedResult struct{ lead, open, rest []byte }

// replyWithShared encodes the success response carrying r, leaving r.open
// shared.
func replyWithShared(id jsonrpc.ID, r sharedResult) reply {
	head := jsonrpc.AppendResultHead(make([]byte, 0, 48+len(r.lead)), id)
	head = append(head, r.lead...)
	tail := make([]byte, 0, len(r.rest)+1)
	tail = append(append(tail, r.rest...), '}')
	return reply{head: head, body: r.open, tail: tail}
}
