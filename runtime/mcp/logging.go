package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// LogLevel is the severity of a log message sent to the client, as syslog
// (RFC 5424) names them.
type LogLevel string

// The log levels, least severe first.
const (
	LogDebug     LogLevel = "debug"
	LogInfo      LogLevel = "info"
	LogNotice    LogLevel = "notice"
	LogWarning   LogLevel = "warning"
	LogError     LogLevel = "error"
	LogCritical  LogLevel = "critical"
	LogAlert     LogLevel = "alert"
	LogEmergency LogLevel = "emergency"
)

var logLevels = []LogLevel{LogDebug, LogInfo, LogNotice, LogWarning, LogError, LogCritical, LogAlert, LogEmergency}

// rank orders levels by severity; ok is false for a level MCP does not
// define.
func (l LogLevel) rank() (int, bool) {
	i := slices.Index(logLevels, l)
	return i, i >= 0
}

// parseLogLevel reads a level a client sent: raw is its JSON text (nil
// when absent).
func parseLogLevel(raw json.RawMessage) (LogLevel, bool) {
	s, isString := jsonrpc.Unquote(raw)
	l := LogLevel(s)
	_, known := l.rank()
	return l, isString && known
}

var msgBadLogLevel = fmt.Sprintf("level must be one of %q", logLevels)

// setLevel serves logging/setLevel (handshake era): from now on the session
// receives log messages at level or above.
func (s *Session) setLevel(r *request) (any, *jsonrpc.Error) {
	level, ok := parseLogLevel(r.params.member("level"))
	if !ok {
		return nil, invalidParams(msgBadLogLevel)
	}
	s.peer.mu.Lock()
	s.peer.logLevel = level
	s.peer.mu.Unlock()
	res := &emptyResult{}
	s.srv.finish(r.rev, &res.common, "")
	return res, nil
}

// checkRequestLogLevel refuses a stateless-era request whose _meta names a
// log level MCP does not define.
func checkRequestLogLevel(r *request) *jsonrpc.Error {
	raw := r.params.metaMembers[metaLogLevel]
	if raw == nil || !r.rev.Stateless() {
		return nil
	}
	if _, ok := parseLogLevel(raw); !ok {
		return invalidParams("_meta." + MetaLogLevel + ": " + msgBadLogLevel)
	}
	return nil
}

// minLogLevel is the least severe level the client of this call receives;
// ok is false when it receives none.
func (c *Call) minLogLevel() (LogLevel, bool) {
	if !c.Revision.SessionLogLevel() {
		return parseLogLevel(c.metaMembers[metaLogLevel])
	}
	if c.session == nil {
		return "", false
	}
	c.session.peer.mu.Lock()
	defer c.session.peer.mu.Unlock()
	if c.session.peer.logLevel == "" {
		return LogDebug, true
	}
	return c.session.peer.logLevel, true
}

type logMessage struct {
	Level  LogLevel `json:"level"`
	Logger string   `json:"logger,omitempty"`
	Data   any      `json:"data"`
}

// Log sends the client a log message (notifications/message) about this
// call, named after the tool (its "logger"). data is any JSON-encodable
// value, usually a string or an object. The message is sent only if the
// client asked for messages at this level (see Revision.SessionLogLevel);
// otherwise Log does nothing and returns nil, as it does when the
// transport cannot carry notifications. Log messages reach the client and
// possibly its model: never put secrets or the principal in them.
//
// Log is for the client. The server's own operational log is
// Options.Logger.
func (c *Call) Log(ctx context.Context, level LogLevel, data any) error {
	want, known := level.rank()
	if !known {
		return fmt.Errorf("mcp: log level %q is not one of %q", level, logLevels)
	}
	least, ok := c.minLogLevel()
	if !ok {
		return nil
	}
	if floor, _ := least.rank(); want < floor {
		return nil
	}
	msg, err := jsonrpc.EncodeNotification(notificationMessage, logMessage{Level: level, Logger: c.Spec.Name, Data: data})
	if err != nil {
		return fmt.Errorf("mcp: encoding a log message: %w", err)
	}
	c.notify(ctx, msg)
	return nil
}

// notify sends a notification that belongs to this call (progress, log).
func (c *Call) notify(ctx context.Context, msg []byte) {
	if c.session != nil {
		c.session.sendRelated(ctx, msg)
	}
}
