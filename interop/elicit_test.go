package interop

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A release cannot be undone, so bankpayments confirms it with the user
// through elicitation before it acts: the official Go SDK client's
// ElicitationHandler answers the question, in every revision the SDK
// speaks. On 2026-07-28 the question comes back as an input_required
// result and the SDK calls again with the answer and the requestState.

// operatorFlags is a principal who may release payments.
var operatorFlags = []string{"-agent", "payments-operator", "-tenant", "wholesale", "-scopes", "payments.read,payments.release", "-clearance", "restricted"}

func (i *issuer) operator(t *testing.T) string {
	return i.token(t, "payments-operator", "wholesale", "payments.read payments.release", "restricted")
}

// confirmer answers every elicitation with answer, counting the questions
// that name the payment; nil answer declares no elicitation capability.
func confirmer(answer *sdk.ElicitResult, asked *atomic.Int64) *sdk.Client {
	opts := &sdk.ClientOptions{}
	if answer != nil {
		opts.ElicitationHandler = func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			if strings.Contains(req.Params.Message, "Release PMT-771: 250000 AED") {
				asked.Add(1)
			}
			return answer, nil
		}
	}
	return sdk.NewClient(&sdk.Implementation{Name: "interop", Version: "1.0.0"}, opts)
}

var (
	confirm = &sdk.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
	decline = &sdk.ElicitResult{Action: "decline"}
)

// confirmRelease calls payments.release through sessions opened by connect
// for a client that confirms, one that declines and one that cannot be
// asked, and checks what each one's call came to.
func confirmRelease(t *testing.T, ctx context.Context, connect func(*sdk.Client) *sdk.ClientSession) {
	for _, tc := range []struct {
		name    string
		answer  *sdk.ElicitResult
		isError bool
		text    string
		asked   int64
	}{
		{"confirmed", confirm, false, "PMT-771 released", 1},
		{"declined", decline, true, "PMT-771 was not released: the user did not confirm (decline)", 1},
		{"no elicitation", nil, true, "PMT-771 was not released: a release needs the user's confirmation, and this client cannot ask for it", 0},
	} {
		var asked atomic.Int64
		cs := connect(confirmer(tc.answer, &asked))
		// Params of their own: on 2026-07-28 the SDK writes the client's
		// capabilities into the params' _meta.
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.release",
			Arguments: map[string]any{"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"}})
		if err != nil || res.IsError != tc.isError || text(t, res.Content) != tc.text || asked.Load() != tc.asked {
			t.Errorf("%s: %+v %v (asked %d)", tc.name, res, err, asked.Load())
		}
	}
}

func TestGoSDKConfirmsReleaseOverStdio(t *testing.T) {
	for _, rev := range sdkRevisions {
		t.Run(rev, func(t *testing.T) {
			ctx := timeout(t)
			confirmRelease(t, ctx, func(c *sdk.Client) *sdk.ClientSession {
				cmd := exec.Command(binary, append(operatorFlags, "-snapshot-date", snapshotDate)...)
				logs := &logBuffer{}
				cmd.Stderr = logs
				cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: rev})
				if err != nil {
					t.Fatalf("connect over stdio (%s): %v\n%s", rev, err, logs)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			})
		})
	}
}

func TestGoSDKConfirmsReleaseOverHTTP(t *testing.T) {
	iss := newIssuer(t)
	for _, rev := range sdkRevisions {
		t.Run(rev, func(t *testing.T) {
			ctx := timeout(t)
			svc := startHTTP(t, iss.args()...)
			token := iss.operator(t)
			confirmRelease(t, ctx, func(c *sdk.Client) *sdk.ClientSession {
				transport := &sdk.StreamableClientTransport{Endpoint: svc.url, HTTPClient: &http.Client{Transport: bearer{token: token}}, MaxRetries: -1}
				cs, err := c.Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: rev})
				if err != nil {
					t.Fatalf("connect over HTTP (%s): %v", rev, err)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			})
		})
	}
}

// TestGoSDKConfirmsReleaseAcrossReplicas: two stateless replicas behind a
// load balancer that alternates between them, so that the SDK's retry with
// the user's answer lands on the replica that did not ask. Sharing
// -request-state-key-file, it continues the call; with keys of their own,
// it refuses the state as not its own, which shows the retry did cross.
func TestGoSDKConfirmsReleaseAcrossReplicas(t *testing.T) {
	iss := newIssuer(t)
	keyFile := filepath.Join(t.TempDir(), "request-state.key")
	key := make([]byte, 32)
	rand.Read(key)
	if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flags []string
		want  string // the error, "" for a release
	}{
		{"shared key", []string{"-request-state-key-file", keyFile}, ""},
		{"own keys", nil, "requestState was not issued by this service or has been altered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var backends []*url.URL
			for range 2 {
				svc := startHTTP(t, append(append(iss.args(), "-stateless"), tc.flags...)...)
				u, _ := url.Parse(svc.url)
				backends = append(backends, u)
			}
			var next atomic.Int64
			balancer := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(backends[next.Add(1)%2])
				r.Out.URL.Path = r.Out.URL.Path[:len(r.Out.URL.Path)-len("/mcp")]
			}})
			t.Cleanup(balancer.Close)

			ctx := timeout(t)
			var asked atomic.Int64
			transport := &sdk.StreamableClientTransport{Endpoint: balancer.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{token: iss.operator(t)}}, MaxRetries: -1}
			cs, err := confirmer(confirm, &asked).Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "payments.release",
				Arguments: map[string]any{"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"}})
			if tc.want == "" {
				if err != nil || res.IsError || text(t, res.Content) != "PMT-771 released" || asked.Load() != 1 {
					t.Fatalf("release: %+v %v (asked %d)", res, err, asked.Load())
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("release: %+v %v, want %q", res, err, tc.want)
			}
		})
	}
}
