package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// ServeStream serves newline-delimited JSON-RPC read from r, answering on w:
// the stdio transport, and any other byte stream with the same framing.
// One session serves the whole stream, as principal p.
//
// Each line is one message; blank lines are skipped, and a line longer than
// Options.MaxMessageBytes is answered with -32600 (id null) and skipped.
// Notifications, and initialize, are handled in the order they are read (so
// a pipelined initialize, notifications/initialized, tools/list works);
// other requests run concurrently. Every answer and notification is written
// whole, followed by "\n", under one mutex.
//
// ServeStream returns nil at end of input, after every request in flight is
// answered (open subscriptions end with the stream), or the context's error
// when ctx is done (in-flight requests see their context cancelled and are
// still answered), or the first read or write error. It does not close r or
// w; a read blocked in r when ctx is done is left to the caller, who owns r.
func (s *Server) ServeStream(ctx context.Context, r io.Reader, w io.Writer, p estate.Principal) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newLineWriter(w, cancel)
	sess := s.NewSession(p, out.write)
	sess.workers = newWorkers()
	defer sess.workers.close()

	// The reading goroutine serves each line itself, in reading order: a
	// line handed to another goroutine first would cost a wake-up on every
	// message. gate stops it serving once the stream is over.
	var gate streamGate
	readDone := make(chan error, 1)
	go func() { readDone <- s.serveLines(ctx, sess, r, out, &gate) }()

	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case err = <-readDone:
	}
	gate.mu.Lock()
	gate.stopped = true
	gate.mu.Unlock()
	sess.Close() // subscriptions end with the stream, and none can open
	gate.inflight.Wait()
	out.close()
	if werr := out.err(); werr != nil {
		return werr
	}
	return err
}

// streamGate is what the reading goroutine of ServeStream and the stream's
// end agree through: once stopped is set (under mu), no line is served,
// so inflight counts every request that can still be answered.
type streamGate struct {
	mu       sync.Mutex
	stopped  bool
	inflight sync.WaitGroup
}

// serveLines frames r into lines and serves each, until the end of r (nil),
// a read error, or the gate stops it.
func (s *Server) serveLines(ctx context.Context, sess *Session, r io.Reader, out *lineWriter, gate *streamGate) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		item, err := readLine(br, s.maxMessageBytes)
		if item.tooLong || len(bytes.TrimSpace(item.data)) > 0 {
			gate.mu.Lock()
			if gate.stopped {
				gate.mu.Unlock()
				return nil
			}
			s.serveLine(ctx, sess, item, out, &gate.inflight)
			gate.mu.Unlock()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return err
		}
	}
}

// line is one framed message, or the mark of one that was too long.
type line struct {
	data    []byte
	tooLong bool
}

func (s *Server) serveLine(ctx context.Context, sess *Session, item line, out *lineWriter, wg *sync.WaitGroup) {
	if item.tooLong {
		out.write(jsonrpc.EncodeError(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"message exceeds the limit of "+strconv.Itoa(s.maxMessageBytes)+" bytes")))
		return
	}
	msg, rpcErr := jsonrpc.Decode(item.data)
	if rpcErr != nil {
		out.write(jsonrpc.EncodeError(msg.ID, rpcErr)) // gate 1
		return
	}
	now, req := sess.start(ctx, msg)
	if req == nil {
		out.write(now)
		return
	}
	if msg.Method == methodInitialize {
		out.writeReply(req.run())
		return
	}
	wg.Add(1)
	req.out, req.wg = out, wg
	sess.workers.run(req)
}

// readLine reads up to and without the next "\n" (a final line may lack
// it). A line longer than max is consumed and reported as too long.
func readLine(br *bufio.Reader, max int) (line, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+1 { // +1: the newline
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return line{tooLong: true}, err
		}
		return line{data: bytes.TrimSuffix(buf, []byte{'\n'})}, err
	}
}

// lineWriter writes whole messages, one per line, under a mutex, through a
// buffer flushed after each message (so a small message and its newline
// are one write, without a copy allocated per message, and a large one
// goes through without being copied whole). After a write error it writes
// nothing more and calls failed; after close it writes nothing (a
// notification racing the end of the stream is dropped).
type lineWriter struct {
	mu     sync.Mutex
	bw     *bufio.Writer
	closed bool
	werr   error
	failed func()
}

func newLineWriter(w io.Writer, failed func()) *lineWriter {
	return &lineWriter{bw: bufio.NewWriterSize(w, 16<<10), failed: failed}
}

func (l *lineWriter) write(msg []byte) { l.writeReply(replyOf(msg)) }

// writeReply writes r's parts and the newline as one message.
func (l *lineWriter) writeReply(r reply) {
	if r.none() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.werr != nil {
		return
	}
	l.bw.Write(r.head)
	l.bw.Write(r.body)
	l.bw.Write(r.tail)
	l.bw.WriteByte('\n')
	if err := l.bw.Flush(); err != nil {
		l.werr = err
		l.failed()
	}
}

func (l *lineWriter) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

func (l *lineWriter) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.werr
}
