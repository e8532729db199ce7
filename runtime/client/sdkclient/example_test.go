package sdkclient_test

import (
	"context"
	"errors"
	"log"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/client/sdkclient"
	"github.com/mcpgen/mcpgen/runtime/drift"
)

// The typed client over Streamable HTTP, its token obtained through the
// OAuth authorization code flow the first time the server answers 401.
// openBrowser and askUser are the host's: one shows the user the
// authorization page and returns the code from the redirect, the other
// asks the user what a server's elicitation asks.
func ExampleConnect() {
	ctx := context.Background()
	const callback = "http://127.0.0.1:8976/callback"
	oauth, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              callback,
		AuthorizationCodeFetcher: openBrowser,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{callback}},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	conn, err := sdkclient.Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: "https://payments.bank.example/mcp", OAuthHandler: oauth},
		sdkclient.Options{SDK: sdk.ClientOptions{ElicitationHandler: askUser}})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	res, err := bank.NewClient(conn).PaymentsLookupV2_0_0(ctx, bank.PaymentsLookupV2_0_0Args{Reference: "PMT-771", AsOf: "2026-03-31"})
	var moved *drift.Error
	if errors.As(err, &moved) {
		log.Fatalf("payments.lookup@2.0.0 is no longer the contract this host was built against: %v", moved)
	}
	if err != nil {
		log.Fatal(err)
	}
	log.Print(res.Text())
}

func openBrowser(context.Context, *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	return nil, errors.New("the host opens args.URL and waits for the redirect")
}

func askUser(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return &sdk.ElicitResult{Action: "decline"}, nil
}
