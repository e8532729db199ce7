package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/examples/structs/tools"
	"github.com/mcpgen/mcpgen/examples/structs/treasury"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// desk implements treasury.Handler over a fixed rate sheet. The versions
// declared by structs receive the team's own types (tools.QuoteArgs,
// tools.BookArgs); fx.quote 1.0.0, which only the estate record still
// holds, receives its generated type. Every argument has been validated
// against its version's schema before a method runs.
type desk struct {
	// rates are units of the quote currency per unit of USD.
	rates map[string]float64

	mu    sync.Mutex
	deals int
}

func newDesk() *desk {
	return &desk{rates: map[string]float64{"USD": 1, "AED": 3.6725, "EUR": 0.92, "GBP": 0.79}}
}

var _ treasury.Handler = (*desk)(nil)

// quote prices amountMinor of sell in buy.
func (d *desk) quote(sell, buy string, amountMinor int64, tenor string) *mcp.Result {
	if sell == buy {
		return mcp.ErrorResult(fmt.Sprintf("%s for %s is not a trade", sell, buy))
	}
	rate := d.rates[buy] / d.rates[sell]
	return mcp.TextResult(fmt.Sprintf("Q-%06d: %s %s at %.4f buys %s %.2f, settling %s",
		amountMinor%1000000, sell, minor(amountMinor), rate, buy, float64(amountMinor)/100*rate, tenor))
}

func minor(amount int64) string { return fmt.Sprintf("%d.%02d", amount/100, amount%100) }

// FxQuoteV1_0_0 serves callers pinned to 1.0.0, which had no tenor.
func (d *desk) FxQuoteV1_0_0(ctx context.Context, call *mcp.Call, args treasury.FxQuoteV1_0_0Args) (*mcp.Result, error) {
	return d.quote(string(args.Sell), string(args.Buy), args.AmountMinor, "spot"), nil
}

// FxQuoteV1_1_0 takes the struct the version is declared with.
func (d *desk) FxQuoteV1_1_0(ctx context.Context, call *mcp.Call, args tools.QuoteArgs) (*mcp.Result, error) {
	tenor := args.Tenor
	if tenor == "" {
		tenor = "spot"
	}
	return d.quote(args.Sell, args.Buy, args.AmountMinor, tenor), nil
}

// FxBookV1_0_0 books a deal whose settlement legs add up to the whole.
func (d *desk) FxBookV1_0_0(ctx context.Context, call *mcp.Call, args tools.BookArgs) (*mcp.Result, error) {
	total := 0
	var legs []string
	for _, l := range args.Settlement {
		total += int(l.Percent)
		legs = append(legs, fmt.Sprintf("%d%% to %s", l.Percent, l.Account))
	}
	if total != 100 {
		return mcp.ErrorResult(fmt.Sprintf("the settlement legs add up to %d%%, not 100%%", total)), nil
	}
	d.mu.Lock()
	d.deals++
	n := d.deals
	d.mu.Unlock()
	return mcp.TextResult(fmt.Sprintf("deal D-%04d booked at %s: %s", n, args.QuoteID, strings.Join(legs, ", "))), nil
}
