package mcphttp

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// checkHostAndOrigin is the DNS-rebinding protection: a page of a foreign
// site made to resolve to this server reaches it with the foreign name in
// Host and the foreign origin in Origin. It returns why the request is
// refused, "" when it is not.
func (h *Handler) checkHostAndOrigin(r *http.Request) string {
	host := hostname(r.Host)
	if !h.hostAllowed(host) {
		return "host " + quote(host) + " is not allowed"
	}
	origin := headerValue(r.Header, "Origin")
	if origin == "" {
		return "" // not a browser, or a same-origin request that omits it
	}
	if !h.originAllowed(origin, host) {
		return "origin " + quote(origin) + " is not allowed"
	}
	return ""
}

func (h *Handler) hostAllowed(host string) bool {
	if len(h.opts.AllowedHosts) == 0 {
		return IsLoopbackHost(host)
	}
	return slices.ContainsFunc(h.opts.AllowedHosts, func(a string) bool {
		return a == "*" || strings.EqualFold(a, host)
	})
}

// originAllowed accepts an allow-listed origin, and a loopback origin when
// the request is addressed to a loopback host: both ends are on this
// machine, which a rebinding attack (a foreign name in Host) is not.
func (h *Handler) originAllowed(origin, host string) bool {
	if slices.ContainsFunc(h.opts.AllowedOrigins, func(a string) bool {
		return a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin)
	}) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // includes the opaque origin "null"
	}
	return IsLoopbackHost(u.Hostname()) && IsLoopbackHost(host)
}

// allowCORS lets a browser page of an origin the handler allows (see
// checkHostAndOrigin) call the endpoint (the Fetch standard's CORS
// protocol): every answer names the origin and exposes the headers a
// client reads (the session id, the 401 challenge), and a preflight
// (OPTIONS with Access-Control-Request-Method) gets the methods and
// headers the transport takes, without authentication, as browsers send
// preflights without credentials. It reports whether r is a preflight,
// which the caller answers 204. Tokens travel in Authorization, never in
// cookies, so credentials are not allowed.
func allowCORS(h http.Header, origin string, r *http.Request) (preflight bool) {
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", HeaderSessionID+", WWW-Authenticate")
	if r.Method != http.MethodOptions || headerValue(r.Header, "Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Last-Event-ID, "+
		HeaderSessionID+", "+HeaderProtocolVersion+", "+HeaderMethod+", "+HeaderName)
	h.Set("Access-Control-Max-Age", "600")
	return true
}

// hostname is a Host header without its port and brackets, lower-cased.
func hostname(hostport string) string {
	host := hostport
	// A Host of the scheme's default port names no port, and
	// net.SplitHostPort would make an error of it (an allocation per
	// request): split only a colon after any bracketed address.
	if strings.LastIndexByte(hostport, ':') > strings.LastIndexByte(hostport, ']') {
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			host = h
		}
	}
	return strings.ToLower(strings.Trim(host, "[]"))
}

// IsLoopbackHost reports whether host (a name or an address, without port)
// is this machine: "localhost" or a loopback address.
func IsLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
