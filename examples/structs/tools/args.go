// Package tools declares the treasury desk's MCP tools as Go structs: each
// struct is the arguments of one tool version, and the directive in its doc
// comment states the version and its place in the estate. mcpgen derives
// the input schemas from these types (see ../main.go's go:generate line).
//
// fx.quote 1.0.0 was released from an earlier QuoteArgs, without a tenor;
// the estate record of package treasury keeps it, with a generated
// argument type, for the callers that pin it.
package tools

// QuoteArgs are the arguments of fx.quote.
//
// Quote a foreign-exchange rate for converting an amount from one currency
// into another, for settlement today, tomorrow or spot. A quote holds for
// thirty seconds.
//
//mcpgen:tool fx.quote@1.1.0 sideEffect=read scopes=fx.read classification=internal owner=treasury-desk
//mcpgen:title Quote an FX rate
type QuoteArgs struct {
	// Sell is the currency the customer sells.
	Sell string `json:"sell" jsonschema:"enum=AED,enum=USD,enum=EUR,enum=GBP"`
	// Buy is the currency the customer buys.
	Buy string `json:"buy" jsonschema:"enum=AED,enum=USD,enum=EUR,enum=GBP"`
	// AmountMinor is the amount sold, in minor units of the sold currency.
	AmountMinor int64 `json:"amount_minor" jsonschema:"minimum=1,maximum=100000000000"`
	// Tenor is when the deal settles; spot when left out.
	Tenor string `json:"tenor,omitempty" jsonschema:"enum=today,enum=tomorrow,enum=spot"`
}

// BookArgs are the arguments of fx.book.
//
// Book an FX deal at a quote the customer accepted, settling into one or
// more accounts. Every call books a new deal: after a timeout, look the deal
// up before booking again.
//
//mcpgen:tool fx.book@1.0.0 sideEffect=write_non_idempotent scopes=fx.trade classification=confidential owner=treasury-desk tenants=wholesale,private
//mcpgen:title Book an FX deal
type BookArgs struct {
	// QuoteID is the quote the customer accepted, as fx.quote returned it.
	QuoteID string `json:"quote_id" jsonschema:"pattern=^Q-[0-9]{6}$"`
	// Settlement splits the bought amount across the customer's accounts.
	Settlement []SettlementLeg `json:"settlement" jsonschema:"minItems=1,maxItems=4"`
	// Reference is the customer's own reference, printed on the confirmation.
	Reference string `json:"reference,omitempty" jsonschema:"maxLength=35"`
	// Dealer is the staff member booking on the customer's behalf; it is
	// redacted from the call log.
	Dealer *Dealer `json:"dealer,omitempty" jsonschema_extras:"x-secret=true"`
}

// SettlementLeg is the part of a deal paid into one account.
type SettlementLeg struct {
	// Account is the IBAN the leg settles into.
	Account string `json:"account" jsonschema:"pattern=^[A-Z]{2}[0-9]{2}[A-Z0-9]{11\\,30}$"`
	// Percent is the share of the bought amount, in whole percent.
	Percent uint8 `json:"percent" jsonschema:"minimum=1,maximum=100"`
}

// Dealer identifies a member of the treasury desk.
type Dealer struct {
	ID   string `json:"id" jsonschema:"pattern=^D[0-9]{4}$"`
	Desk string `json:"desk,omitempty" jsonschema:"enum=spot,enum=forwards"`
}
