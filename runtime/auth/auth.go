// Package auth turns an HTTP request into the estate.Principal it acts as,
// and tells a client that could not be authenticated how to obtain a token:
// the 401 challenge of RFC 6750 naming the protected resource metadata
// document of RFC 9728, which this package also serves.
//
// Tokens never leave this package: no error, challenge or log line carries
// one, so an error may be logged and shown as it is.
package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
)

// Authenticator decides who an HTTP request acts as. Implementations are
// safe for concurrent use.
type Authenticator interface {
	// Authenticate returns the principal r acts as. An *Error says how to
	// challenge the client; any other error is answered as an invalid token.
	// Neither may contain the credential.
	Authenticate(r *http.Request) (estate.Principal, error)
}

// The error codes of RFC 6750 §3.1.
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidToken      = "invalid_token"
	CodeInsufficientScope = "insufficient_scope"
)

// Error is an authentication failure, carrying what the challenge tells the
// client. It never contains the credential.
type Error struct {
	// Code is an RFC 6750 error code, or "" when the request carried no
	// credential at all (the challenge then names no error, §3.1).
	Code string
	// Description is for the client's developer.
	Description string
}

// ErrNoToken is the failure of a request without credentials.
var ErrNoToken = &Error{Description: "a bearer token is required"}

func (e *Error) Error() string {
	if e.Code == "" {
		return "unauthenticated: " + e.Description
	}
	return e.Code + ": " + e.Description
}

// Status is the HTTP status the failure is answered with (RFC 6750 §3.1):
// 400 for a malformed request, 403 for insufficient scope, 401 otherwise.
func (e *Error) Status() int {
	switch e.Code {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeInsufficientScope:
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// AsError returns err as an *Error; an error of another type is an invalid
// token whose description is err's text.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInvalidToken, Description: err.Error()}
}

// Challenge sets the WWW-Authenticate header answering err: the Bearer
// scheme with, when resourceMetadataURL is not empty, the resource_metadata
// parameter of RFC 9728 §5.1 (where an MCP client starts the authorization
// flow), and the error code and description when there is a code.
func Challenge(h http.Header, err error, resourceMetadataURL string) {
	e := AsError(err)
	var params []string
	if resourceMetadataURL != "" {
		params = append(params, "resource_metadata="+quote(resourceMetadataURL))
	}
	if e.Code != "" {
		params = append(params, "error="+quote(e.Code))
		if e.Description != "" {
			params = append(params, "error_description="+quote(e.Description))
		}
	}
	value := "Bearer"
	if len(params) > 0 {
		value += " " + strings.Join(params, ", ")
	}
	h.Set("WWW-Authenticate", value)
}

// quote renders s as an RFC 9110 quoted-string. Characters a quoted-string
// cannot carry (controls, non-ASCII) are replaced, since a description is
// informative only.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// BearerToken returns the token of r's Authorization header (RFC 6750
// §2.1; the scheme is case-insensitive). A request without the header is
// ErrNoToken; one with another scheme, several headers or an empty token is
// invalid_request. Tokens in the query string or the body are not accepted.
func BearerToken(r *http.Request) (string, error) {
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return "", ErrNoToken
	case 1:
	default:
		return "", &Error{Code: CodeInvalidRequest, Description: "more than one Authorization header"}
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", &Error{Code: CodeInvalidRequest, Description: "the Authorization scheme must be Bearer"}
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", &Error{Code: CodeInvalidRequest, Description: "the bearer token is empty"}
	}
	return token, nil
}

// Static authenticates every request as one principal, whatever it carries.
// It is for a local development server and for tests: it authenticates
// nothing, and says so (Insecure), so that a server helper can refuse it
// anywhere else.
type Static struct {
	Principal estate.Principal
}

// Authenticate returns the static principal.
func (s Static) Authenticate(*http.Request) (estate.Principal, error) { return s.Principal, nil }

// Insecure reports that Static authenticates nothing.
func (Static) Insecure() bool { return true }

// IsInsecure reports whether a is nil or declares, with an Insecure method
// returning true, that it authenticates nothing.
func IsInsecure(a Authenticator) bool {
	if a == nil {
		return true
	}
	i, ok := a.(interface{ Insecure() bool })
	return ok && i.Insecure()
}

// WellKnownPath is where RFC 9728 places a protected resource's metadata:
// at the root for a resource without a path, followed by the resource's
// path otherwise (MetadataURL).
const WellKnownPath = "/.well-known/oauth-protected-resource"

// ResourceMetadata is the OAuth 2.0 protected resource metadata document of
// RFC 9728 §2: what an MCP client reads to find the authorization server
// that issues tokens for this server.
type ResourceMetadata struct {
	// Resource is the resource's identifier: the MCP endpoint's URL, which
	// is also the audience its tokens must name.
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
	// BearerMethodsSupported is ["header"]: tokens are accepted in the
	// Authorization header only.
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// MetadataURL returns the URL of the metadata document of resource, by the
// rule of RFC 9728 §3.1: WellKnownPath inserted between the resource's
// authority and its path. An unparsable resource gives "".
func MetadataURL(resource string) string {
	scheme, rest, ok := strings.Cut(resource, "://")
	if !ok || rest == "" {
		return ""
	}
	host, path, _ := strings.Cut(rest, "/")
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	u := scheme + "://" + host + WellKnownPath
	if path = strings.TrimSuffix(path, "/"); path != "" {
		u += "/" + path
	}
	return u
}

// ServeHTTP serves the document (GET and HEAD). It is public by nature, so
// any origin may read it.
func (m *ResourceMetadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	doc := *m
	if doc.BearerMethodsSupported == nil {
		doc.BearerMethodsSupported = []string{"header"}
	}
	body, err := json.Marshal(doc)
	if err != nil {
		http.Error(w, "metadata does not encode", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "max-age=3600")
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
}
