package jsonrpc

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// IsBatch reports whether data is, by its first character, a JSON array:
// a batch to split with SplitBatch where batches are accepted, and
// otherwise one message for Decode (which refuses it).
func IsBatch(data []byte) bool { return textdec.Kind(data) == '[' }

// msgEmptyBatch is JSON-RPC 2.0's answer to an empty batch: one
// invalid-request error, not an empty array.
const msgEmptyBatch = "a batch must hold at least one message"

// SplitBatch reads a batch (JSON-RPC 2.0, "Batch"): a JSON array of
// messages, checked as strictly as Decode checks one message. It returns
// each element's text, a slice of data, for Decode to read one by one, so
// that every rule applies to each member. Text that is not well formed is
// a parse error, and an empty array -32600; each answered once, under id
// null, as JSON-RPC requires.
func SplitBatch(data []byte) ([]json.RawMessage, *Error) {
	if err := textdec.Validate(data); err != nil {
		return nil, parseError(err)
	}
	var members []json.RawMessage
	textdec.EachElement(data, func(v []byte) { members = append(members, v) })
	if len(members) == 0 {
		return nil, NewError(CodeInvalidRequest, msgEmptyBatch)
	}
	return members, nil
}

// AppendBatch appends the answer to a batch: the answers given, as one
// JSON array. JSON-RPC sends nothing when no member is answered (a batch of
// notifications), so an empty answers is nil.
func AppendBatch(b []byte, answers [][]byte) []byte {
	if len(answers) == 0 {
		return nil
	}
	b = append(b, '[')
	for i, a := range answers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, a...)
	}
	return append(b, ']')
}
