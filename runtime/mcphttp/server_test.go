package mcphttp_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestNewServerRefusesUnsafeConfigs(t *testing.T) {
	srv := newMCPServer(t)
	for name, cfg := range map[string]mcphttp.Config{
		"no authenticator":              {},
		"static authenticator, not dev": {Handler: mcphttp.Options{Authenticator: auth.Static{Principal: investigator}}},
		"dev on all interfaces":         {InsecureDev: true, Addr: "0.0.0.0:8080"},
		"dev on an empty host":          {InsecureDev: true, Addr: ":8080"},
		"exposed without host list":     {Addr: "0.0.0.0:8080", Handler: mcphttp.Options{Authenticator: tokens{}}},
		"bad address":                   {InsecureDev: true, Addr: "localhost"},
	} {
		if _, err := mcphttp.NewServer(srv, cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for name, cfg := range map[string]mcphttp.Config{
		"dev on loopback":         {InsecureDev: true},
		"dev on localhost":        {InsecureDev: true, Addr: "localhost:0"},
		"authenticated, exposed":  {Addr: "0.0.0.0:8080", Handler: mcphttp.Options{Authenticator: tokens{}, AllowedHosts: []string{"payments.bank.example"}}},
		"authenticated, loopback": {Handler: mcphttp.Options{Authenticator: tokens{}}},
	} {
		if _, err := mcphttp.NewServer(srv, cfg); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// serve runs a Server on a loopback port until the test cancels it.
func serve(t *testing.T, srv *mcp.Server, cfg mcphttp.Config) (base string, stop func() error) {
	t.Helper()
	s, err := mcphttp.NewServer(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	var once bool
	stop = func() error {
		if once {
			return nil
		}
		once = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), stop
}

func TestServerServesResourceMetadata(t *testing.T) {
	base, _ := serve(t, newMCPServer(t), mcphttp.Config{
		Handler:              mcphttp.Options{Authenticator: tokens{}},
		AuthorizationServers: []string{"https://idp.bank.example"},
		ScopesSupported:      []string{"payments.read"},
	})
	for _, path := range []string{auth.WellKnownPath, auth.WellKnownPath + "/mcp"} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		json.NewDecoder(res.Body).Decode(&doc)
		res.Body.Close()
		if res.StatusCode != 200 || doc["resource"] != base+"/mcp" || doc["authorization_servers"].([]any)[0] != "https://idp.bank.example" {
			t.Errorf("%s: %d %v", path, res.StatusCode, doc)
		}
	}
	r := do(t, http.MethodPost, base+"/mcp", nil, initialize)
	if want := `Bearer resource_metadata="` + base + auth.WellKnownPath + `/mcp"`; r.status != 401 || r.header.Get("WWW-Authenticate") != want {
		t.Errorf("challenge %d %q, want %q", r.status, r.header.Get("WWW-Authenticate"), want)
	}
}

// Shutdown answers the request in flight and the open listen stream, ends
// the GET stream, and Serve returns nil.
func TestServerGracefulShutdown(t *testing.T) {
	srv := newMCPServer(t)
	started, release := make(chan struct{}), make(chan struct{})
	err := srv.Bind(estate.ToolSpec{
		Name: "slow.op", Version: estate.MustParseVersion("1.0.0"), Title: "Slow", Description: "Waits for the test.",
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: func(context.Context, *mcp.Call) (*mcp.Result, error) {
		close(started)
		<-release
		return mcp.TextResult("done"), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	base, stop := serve(t, srv, mcphttp.Config{InsecureDev: true, Handler: mcphttp.Options{Authenticator: auth.Static{Principal: investigator}}})
	url := base + "/mcp"

	id := open(t, url, nil)
	_, getStream := stream(t, http.MethodGet, url, map[string]string{mcphttp.HeaderSessionID: id}, "")
	listenStream := openListen(t, url)

	answered := make(chan response, 1)
	go func() {
		answered <- do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: id},
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow.op","arguments":{}}}`)
	}()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()

	if m := event(t, listenStream); m["id"] != "L" || m["result"] == nil {
		t.Fatalf("listen answer: %v", m)
	}
	// The GET stream ends (EOF) rather than hold the shutdown.
	if _, err := io.Copy(io.Discard, getStream); err != nil {
		t.Errorf("GET stream: %v", err)
	}
	close(release)
	if r := <-answered; r.status != 200 || !strings.Contains(r.raw, `"done"`) {
		t.Errorf("in-flight call: %d %s", r.status, r.raw)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// shutDownDuringCall serves a server whose tool stuck.op runs h, calls it
// in the handshake era, and shuts the server down once started is
// closed (h closes it). The call must be answered, as a failure; it
// returns the channel Serve's result comes on.
func shutDownDuringCall(t *testing.T, description string, h mcp.Handler, started <-chan struct{}) <-chan error {
	t.Helper()
	srv := newMCPServer(t)
	err := srv.Bind(estate.ToolSpec{
		Name: "stuck.op", Version: estate.MustParseVersion("1.0.0"), Title: "Stuck", Description: description,
		InputSchema: schema.MustParseJSON(`{"type":"object"}`), SideEffect: estate.Read, DataClassification: estate.Public, Owner: "ops",
	}, mcp.Tool{Handler: h})
	if err != nil {
		t.Fatal(err)
	}
	base, stop := serve(t, srv, mcphttp.Config{InsecureDev: true, ShutdownTimeout: time.Second,
		Handler: mcphttp.Options{Authenticator: auth.Static{Principal: investigator}}})
	url := base + "/mcp"
	id := open(t, url, nil)
	answered := make(chan response, 1)
	go func() {
		answered <- do(t, http.MethodPost, url, map[string]string{mcphttp.HeaderSessionID: id},
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"stuck.op","arguments":{}}}`)
	}()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case r := <-answered:
		if r.status != 200 || !strings.Contains(r.raw, `"isError":true`) || !strings.Contains(r.raw, `"id":9`) {
			t.Errorf("the stuck call was not answered: %d %q", r.status, r.raw)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stuck call was never answered")
	}
	return stopped
}

// A handler still running when the grace period is nearly over sees its
// context end, so its request is answered (a cancelled call is an isError
// result) before the server closes the connection — in the handshake era,
// where a dropped client does not cancel a request, too.
func TestShutdownAnswersAHandlerThatWaitsOnItsContext(t *testing.T) {
	started := make(chan struct{})
	stopped := shutDownDuringCall(t, "Waits for its context.", func(ctx context.Context, _ *mcp.Call) (*mcp.Result, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}, started)
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// A handler that ignores its context still has its request answered at
// the drain, before the connection closes; the handler keeps its
// connection until it returns, so Serve returns at the shutdown's
// timeout, having closed what remained.
func TestShutdownAnswersAHandlerThatIgnoresItsContext(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	stopped := shutDownDuringCall(t, "Ignores its context.", func(context.Context, *mcp.Call) (*mcp.Result, error) {
		close(started)
		<-release
		return mcp.TextResult("late"), nil
	}, started)
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return: the shutdown waited for the handler")
	}
}
