// Command conformance-client is the client the MCP conformance suite's
// client mode runs: the runtime's typed layer (sdkclient: the tools/list
// cache, calls that come back as the runtime's types) over the official Go
// SDK's Streamable HTTP transport and OAuth handlers. The suite starts a
// server for one scenario and runs
//
//	conformance-client URL
//
// with the scenario's name in MCP_CONFORMANCE_SCENARIO and what the
// scenario gives the client (pre-registered credentials, calls to make) as
// a JSON object in MCP_CONFORMANCE_CONTEXT. The program does what the
// scenario asks of a client and exits non-zero when a step fails; the
// suite judges the traffic.
//
// It is a module of its own because it needs the SDK, which the main
// module never requires.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/client/sdkclient"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("conformance-client: ")
	if len(os.Args) != 2 {
		log.Fatal("usage: conformance-client URL (the scenario in MCP_CONFORMANCE_SCENARIO)")
	}
	var sc scenario
	sc.url = os.Args[1]
	sc.name = os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc.context); err != nil {
			log.Fatalf("MCP_CONFORMANCE_CONTEXT: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := sc.run(ctx); err != nil {
		log.Fatalf("%s: %v", sc.name, err)
	}
}

// scenario is one run: the server's URL, the scenario's name, and the
// context the suite passed.
type scenario struct {
	url, name string
	context   struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
}

func (sc *scenario) run(ctx context.Context) error {
	switch {
	case sc.name == "initialize":
		return sc.session(ctx, nil, sdk.ClientOptions{}, func(c *sdkclient.Client) error {
			_, err := c.ListTools(ctx, false)
			return err
		})
	case sc.name == "tools_call":
		return sc.listAndCall(ctx, nil, sdk.ClientOptions{}, "add_numbers", map[string]any{"a": 5, "b": 3})
	case sc.name == "sse-retry":
		return sc.listAndCall(ctx, nil, sdk.ClientOptions{}, "test_reconnection", nil)
	case sc.name == "elicitation-sep1034-client-defaults":
		// Accept with nothing filled in: the SDK fills in the schema's
		// defaults, which is what the scenario checks.
		accept := sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		}}
		return sc.listAndCall(ctx, nil, accept, "test_client_elicitation_defaults", nil)
	case strings.HasPrefix(sc.name, "auth/client-credentials-"):
		h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: sc.context.ClientID,
				ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: sc.context.ClientSecret}},
		})
		if err != nil {
			return err
		}
		return sc.listAndCall(ctx, h, sdk.ClientOptions{}, "test-tool", nil)
	case strings.HasPrefix(sc.name, "auth/"):
		h, err := sc.authorizationCode()
		if err != nil {
			return err
		}
		return sc.listAndCall(ctx, h, sdk.ClientOptions{}, "test-tool", nil)
	}
	return fmt.Errorf("not a scenario this client knows")
}

// session connects (through oauth when it is not nil), runs use, and
// closes.
func (sc *scenario) session(ctx context.Context, oauth auth.OAuthHandler, opts sdk.ClientOptions, use func(*sdkclient.Client) error) error {
	c, err := sdkclient.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: sc.url, OAuthHandler: oauth},
		sdkclient.Options{Info: &sdk.Implementation{Name: "mcpgen-conformance-client", Version: "1.0.0"}, SDK: opts})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	return use(c)
}

// listAndCall lists the tools, checks that tool is among them, and calls it.
func (sc *scenario) listAndCall(ctx context.Context, oauth auth.OAuthHandler, opts sdk.ClientOptions, tool string, args map[string]any) error {
	return sc.session(ctx, oauth, opts, func(c *sdkclient.Client) error {
		tools, err := c.ListTools(ctx, false)
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		if !slices.ContainsFunc(tools, func(t client.Tool) bool { return t.Name == tool }) {
			return fmt.Errorf("the server lists no tool %q", tool)
		}
		if args == nil {
			args = map[string]any{}
		}
		res, err := c.CallTool(ctx, tool, args)
		if err != nil {
			return fmt.Errorf("tools/call %s: %w", tool, err)
		}
		if res.IsError {
			return fmt.Errorf("tools/call %s: the tool failed: %s", tool, res.Text())
		}
		return nil
	})
}

// redirectURL is where the authorization server sends the code. Nothing
// listens there: the suite's server approves at once, so the code is read
// from the redirect without following it (sdkclient.CodeFromRedirect).
const redirectURL = "http://localhost:3000/callback"

// authorizationCode is the SDK's authorization code handler (PKCE
// always), registering the client by the first of: a client ID metadata
// document, the credentials the scenario pre-registered, dynamic
// registration, that the authorization server supports.
func (sc *scenario) authorizationCode() (auth.OAuthHandler, error) {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:                    redirectURL,
		AuthorizationCodeFetcher:       sdkclient.CodeFromRedirect,
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: "https://conformance-test.local/client-metadata.json"},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURL}, ClientName: "mcpgen-conformance-client"},
		},
	}
	if sc.context.ClientID != "" && sc.context.ClientSecret != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: sc.context.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: sc.context.ClientSecret}}
	}
	return auth.NewAuthorizationCodeHandler(cfg)
}
