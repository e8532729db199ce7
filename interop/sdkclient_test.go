package interop

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/internal/banktest"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/client/sdkclient"
	"github.com/mcpgen/mcpgen/runtime/drift"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// sdkSession connects the official Go SDK client to srv, served as the
// investigator over in-memory stdio pipes.
func sdkSession(t *testing.T, srv *mcp.Server) *sdk.ClientSession {
	t.Helper()
	r, w := banktest.ServeStdio(srv, banktest.Investigator)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "sdk-host", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: io.NopCloser(r), Writer: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestTypedClientOverTheSDK: the generated typed client, over the official
// SDK's session, reaches the generated server's handlers, and the SDK's
// errors come back as the runtime's types (protocol error, drift). The
// server is the built bankpayments service, run by the SDK over stdio.
func TestTypedClientOverTheSDK(t *testing.T) {
	ctx := timeout(t)
	cs, _, _ := connectStdio(t, ctx, "", nil, investigatorFlags)
	typed := bank.NewClient(sdkclient.Session{Session: cs})
	res, err := typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	if err != nil || !strings.HasPrefix(res.Text(), "PMT-771: HELD") {
		t.Fatalf("typed call over the SDK: %+v %v", res, err)
	}
	// payments.release is not visible to this principal: a protocol error.
	_, err = typed.PaymentsReleaseV1_0_0(ctx, bank.PaymentsReleaseV1_0_0Args{Reference: "PMT-771", AmountMinor: 1, Currency: bank.PaymentsReleaseV1_0_0ArgsCurrencyAED})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("unentitled call over the SDK: %v", err)
	}
}

func TestDriftOverTheSDK(t *testing.T) {
	srv, spec, ran := banktest.DriftedLookup(t)
	typed := bank.NewClient(sdkclient.Session{Session: sdkSession(t, srv)})
	_, err := typed.PaymentsLookupV1_0_0(context.Background(), bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	var d *drift.Error
	if !errors.As(err, &d) || d.ObservedHash != spec.InputSchema.Hash() || ran.Load() != 0 {
		t.Fatalf("drift over the SDK: %v (handler ran %d times)", err, ran.Load())
	}
}

// TestTypedClientOverHTTP: the built service behind the Streamable HTTP
// transport, the generated typed client over the official SDK's HTTP
// client: typed calls succeed, a drifted contract is refused typed (over
// sdkclient.Connect, in the SDK's default revision, 2026-07-28).
func TestTypedClientOverHTTP(t *testing.T) {
	iss := newIssuer(t)
	good := startHTTP(t, iss.args()...)
	ctx := timeout(t)
	typed := bank.NewClient(sdkclient.Session{Session: connectHTTP(t, ctx, good.url, iss.investigator(t), "", nil)})
	res, err := typed.PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	if err != nil || !strings.HasPrefix(res.Text(), "PMT-771: HELD") {
		t.Errorf("typed call over HTTP: %+v %v", res, err)
	}

	drifted, spec, ran := banktest.DriftedLookup(t)
	h := mcphttp.NewHandler(drifted, mcphttp.Options{Authenticator: auth.Static{Principal: banktest.Investigator}})
	hs := httptest.NewServer(h)
	t.Cleanup(func() { hs.Close(); h.Close() })
	c, err := sdkclient.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, sdkclient.Options{})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	_, err = bank.NewClient(c).PaymentsLookupV1_0_0(ctx, bank.PaymentsLookupV1_0_0Args{Reference: "PMT-771"})
	var d *drift.Error
	if !errors.As(err, &d) || d.ObservedHash != spec.InputSchema.Hash() || ran.Load() != 0 {
		t.Errorf("drift over HTTP: %v (handler ran %d times)", err, ran.Load())
	}
}
