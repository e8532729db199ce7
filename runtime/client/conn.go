package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
)

// Conn carries JSON-RPC messages between a client and one server. Each
// message is one complete JSON text. Read blocks until the server sends a
// message and returns io.EOF when the connection is closed. A Conn is used
// by one reader goroutine and any number of writers.
type Conn interface {
	Write(ctx context.Context, msg []byte) error
	Read(ctx context.Context) ([]byte, error)
	Close() error
}

// StreamConn is the stdio framing: newline-delimited JSON over a byte
// stream, as MCP's stdio transport specifies (messages contain no raw
// newlines; JSON encoders never emit one).
type StreamConn struct {
	r       *bufio.Reader
	w       io.Writer
	closer  io.Closer
	writeMu sync.Mutex
}

// MaxMessageSize bounds one message read from a stream; a longer line is an
// error rather than an unbounded allocation.
const MaxMessageSize = 16 << 20

// NewStreamConn reads server messages from r and writes client messages to
// w. Close closes w (for a subprocess, its stdin), which tells the server
// to finish.
func NewStreamConn(r io.Reader, w io.WriteCloser) *StreamConn {
	return &StreamConn{r: bufio.NewReaderSize(r, 64<<10), w: w, closer: w}
}

// Write sends one message followed by a newline, in one write so
// concurrent callers never interleave.
func (c *StreamConn) Write(ctx context.Context, msg []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if bytes.IndexByte(msg, '\n') >= 0 {
		return errors.New("client: a stream message must not contain a newline")
	}
	line := make([]byte, 0, len(msg)+1)
	line = append(append(line, msg...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(line)
	return err
}

// Read returns the next non-empty line.
func (c *StreamConn) Read(ctx context.Context) ([]byte, error) {
	for {
		var line []byte
		for {
			chunk, isPrefix, err := c.r.ReadLine()
			if err != nil {
				return nil, err
			}
			line = append(line, chunk...)
			if len(line) > MaxMessageSize {
				return nil, errors.New("client: message from server exceeds the size limit")
			}
			if !isPrefix {
				break
			}
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}

// Close closes the write side.
func (c *StreamConn) Close() error { return c.closer.Close() }
