package sdkclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// CodeFromRedirect is an auth.AuthorizationCodeFetcher for an
// authorization server that approves without showing anyone a page (the
// conformance suite's, a test's): it opens the authorization URL and reads
// the code, state and issuer from the redirect it is sent, without
// following it. A host whose user signs in shows the URL in a browser
// instead and receives the redirect on its callback.
func CodeFromRedirect(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := browser.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	to, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || to.Query().Get("code") == "" {
		return nil, fmt.Errorf("sdkclient: the authorization server answered %s, with no code in a redirect", resp.Status)
	}
	q := to.Query()
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}
