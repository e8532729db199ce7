package client

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
)

// HTTPConn is the client side of MCP's Streamable HTTP transport
// (handshake era): every message is POSTed to one endpoint, and the server
// answers a request with either one JSON message (application/json) or an
// event stream (text/event-stream) whose data fields are messages, the
// answer among them; a notification or response is answered 202 with no
// body. The session id the server returns in Mcp-Session-Id on initialize
// is sent with every later message, as the transport requires.
//
// It opens no GET stream: messages the server sends outside a request's
// answer (list_changed on the session stream) do not reach this client,
// and a dropped answer stream is not resumed. It serves what the main
// module itself needs, mcpgen import listing a server's tools; a host
// that calls tools over HTTP uses the sdkclient module, the typed client
// over the official Go SDK's transport (resumption, OAuth).
type HTTPConn struct {
	endpoint string
	client   *http.Client
	header   http.Header

	mu        sync.Mutex
	sessionID string
	version   string
	inbox     chan []byte
	done      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// NewHTTPConn connects to endpoint (the server's MCP URL). header is sent
// with every request (an Authorization bearer token, say); client nil means
// http.DefaultClient.
func NewHTTPConn(endpoint string, client *http.Client, header http.Header) *HTTPConn {
	if client == nil {
		client = http.DefaultClient
	}
	return &HTTPConn{endpoint: endpoint, client: client, header: header.Clone(),
		inbox: make(chan []byte, 64), done: make(chan struct{})}
}

// SetProtocolVersion names the negotiated revision, sent from then on as
// MCP-Protocol-Version (the transport asks for it after initialize).
func (c *HTTPConn) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
}

// Write POSTs one message. The answer is read in the background and
// delivered by Read, so a slow answer never blocks another request.
func (c *HTTPConn) Write(ctx context.Context, msg []byte) error {
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodPost, c.endpoint, bytes.NewReader(msg))
	if err != nil {
		return err
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.mu.Lock()
	if c.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", c.sessionID)
	}
	if c.version != "" {
		req.Header.Set("MCP-Protocol-Version", c.version)
	}
	c.mu.Unlock()
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.mu.Lock()
		c.sessionID = id
		c.mu.Unlock()
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		resp.Body.Close()
		return nil
	case resp.StatusCode/100 != 2:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		// A JSON-RPC error carried by an HTTP error status is still the
		// answer to the request: hand it to the client as one.
		if isJSON(resp.Header.Get("Content-Type")) && len(bytes.TrimSpace(body)) > 0 && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
			return c.deliver(bytes.TrimSpace(body))
		}
		return fmt.Errorf("client: %s answered %s: %s", c.endpoint, resp.Status, strings.TrimSpace(string(body)))
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer resp.Body.Close()
		ct := resp.Header.Get("Content-Type")
		if isJSON(ct) {
			body, err := io.ReadAll(io.LimitReader(resp.Body, MaxMessageSize+1))
			if err == nil && len(body) <= MaxMessageSize && len(bytes.TrimSpace(body)) > 0 {
				c.deliver(bytes.TrimSpace(body))
			}
			return
		}
		c.readEvents(resp.Body)
	}()
	return nil
}

func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json"
}

// readEvents delivers the data of every event of a server-sent event
// stream (the WHATWG event stream format: "data:" lines joined by
// newlines, an empty line ending the event).
func (c *HTTPConn) readEvents(body io.Reader) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), MaxMessageSize)
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(bytes.TrimSpace(data)) > 0 {
				if c.deliver(data) != nil {
					return
				}
			}
			data = nil
		case strings.HasPrefix(line, "data:"):
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		}
	}
	if len(bytes.TrimSpace(data)) > 0 {
		c.deliver(data)
	}
}

func (c *HTTPConn) deliver(msg []byte) error {
	select {
	case c.inbox <- bytes.Clone(msg):
		return nil
	case <-c.done:
		return io.EOF
	}
}

// Read returns the next message the server sent, in the order the answers
// arrived; io.EOF once the connection is closed.
func (c *HTTPConn) Read(ctx context.Context) ([]byte, error) {
	select {
	case msg := <-c.inbox:
		return msg, nil
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close ends the session (DELETE, best effort, as the transport asks of a
// client that leaves) and the connection.
func (c *HTTPConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		id := c.sessionID
		c.mu.Unlock()
		if id != "" {
			if req, err := http.NewRequest(http.MethodDelete, c.endpoint, nil); err == nil {
				for k, vs := range c.header {
					req.Header[k] = vs
				}
				req.Header.Set("Mcp-Session-Id", id)
				if resp, err := c.client.Do(req); err == nil {
					resp.Body.Close()
				}
			}
		}
		close(c.done)
	})
	return nil
}
