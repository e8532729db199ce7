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

// desk implements treasury.Handler over a fixed rate sheet: one method per
// major line, receiving the team's own type of the line's newest version
// (tools.QuoteArgs, tools.BookArgs). Every argument has been validated
// against the called version's schema before a method runs.
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

// FxQuoteV1 takes the struct 1.1.0 is declared with. It serves the callers
// pinned to 1.0.0 too (which only the estate record still holds): their
// arguments, valid for 1.0.0, are decoded as 1.1.0's, without a tenor.
func (d *desk) FxQuoteV1(ctx context.Context, call *mcp.Call, args tools.QuoteArgs) (*mcp.Result, error) {
	tenor := args.Tenor
	if tenor == "" {
		tenor = "spot"
	}
	return d.quote(args.Sell, args.Buy, args.AmountMinor, tenor), nil
}

// FxBookV1 books a deal whose settlement legs add up to the whole.
func (d *desk) FxBookV1(ctx context.Context, call *mcp.Call, args tools.BookArgs) (*mcp.Result, error) {
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
