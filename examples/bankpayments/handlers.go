package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/mcp"
)

// payment is one entry of the service's ledger.
type payment struct {
	Status, Amount, Currency, Beneficiary string
	Legs                                  []string
}

// handlers implements bank.Handler over an in-memory ledger: the
// worked session (docs/concepts.md#the-estate) talks to these. A real service would call the payments
// system of record here; the generated code has already decoded and
// validated every argument, so the handlers only do the work.
type handlers struct {
	ledger map[string]payment
	// snapshotDate is the date of the ledger; an as_of lookup of any other
	// date needs core banking's history, which this service reports as
	// unreachable (a tool failure the model sees, not a protocol error).
	snapshotDate string
}

func newHandlers(snapshotDate string) *handlers {
	return &handlers{
		snapshotDate: snapshotDate,
		ledger: map[string]payment{
			"PMT-771": {Status: "HELD", Amount: "250000", Currency: "AED", Beneficiary: "Acme Trading FZE",
				Legs: []string{"debit ACC-1001 250000 AED", "credit ACC-7781 250000 AED"}},
			"PMT-772": {Status: "SETTLED", Amount: "1200", Currency: "USD", Beneficiary: "Blue Dhow LLC"},
		},
	}
}

var _ bank.Handler = (*handlers)(nil)

func (h *handlers) describe(reference string, legs bool) (*mcp.Result, error) {
	p, ok := h.ledger[reference]
	if !ok {
		return mcp.ErrorResult(fmt.Sprintf("%s: no such payment", reference)), nil
	}
	text := fmt.Sprintf("%s: %s, %s %s, beneficiary '%s'", reference, p.Status, p.Amount, p.Currency, p.Beneficiary)
	if legs {
		for _, l := range p.Legs {
			text += "\n  leg: " + l
		}
	}
	return mcp.TextResult(text), nil
}

// PaymentsLookupV1 answers from the ledger.
func (h *handlers) PaymentsLookupV1(ctx context.Context, call *mcp.Call, args bank.PaymentsLookupV1Args) (*mcp.Result, error) {
	return h.describe(args.Reference, args.IncludeLegs.Or(false))
}

// PaymentsLookupV2 answers as of a date: the ledger's own date from the
// ledger, any other from core banking's history, which is unreachable here.
func (h *handlers) PaymentsLookupV2(ctx context.Context, call *mcp.Call, args bank.PaymentsLookupV2Args) (*mcp.Result, error) {
	if args.AsOf != h.snapshotDate {
		return mcp.ErrorResult("core banking timeout"), nil
	}
	return h.describe(args.Reference, args.IncludeLegs.Or(false))
}

// PaymentsLookupV3 is 2.0.0 with as_of a date the validator has checked:
// a caller can no longer send "last Tuesday".
func (h *handlers) PaymentsLookupV3(ctx context.Context, call *mcp.Call, args bank.PaymentsLookupV3Args) (*mcp.Result, error) {
	return h.PaymentsLookupV2(ctx, call, bank.PaymentsLookupV2Args(args))
}

// releaseForm is what the user confirms a release with.
var releaseForm = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"confirm": map[string]any{"type": "boolean", "title": "Release the payment", "description": "A release cannot be undone."},
	},
	"required": []any{"confirm"},
}

// PaymentsReleaseV1 releases a held payment once the user has confirmed
// it: a release cannot be undone, so a model's decision alone is not
// enough. The question goes to the user through the client (an
// elicitation request in the handshake era; in the stateless era the call
// is answered with the question and runs again with the answer), and a
// client that cannot ask its user cannot release.
func (h *handlers) PaymentsReleaseV1(ctx context.Context, call *mcp.Call, args bank.PaymentsReleaseV1Args) (*mcp.Result, error) {
	p, ok := h.ledger[args.Reference]
	if !ok || p.Status != "HELD" {
		return mcp.ErrorResult(fmt.Sprintf("%s is not a held payment", args.Reference)), nil
	}
	answer, err := call.Elicit(ctx, mcp.ElicitRequest{
		Name: "confirm",
		Message: fmt.Sprintf("Release %s: %d %s (minor units) to '%s'? This cannot be undone.",
			args.Reference, args.AmountMinor, args.Currency, p.Beneficiary),
		RequestedSchema: releaseForm,
	})
	switch {
	case errors.Is(err, mcp.ErrUnavailable):
		return mcp.ErrorResult(fmt.Sprintf("%s was not released: a release needs the user's confirmation, and this client cannot ask for it", args.Reference)), nil
	case err != nil:
		return nil, err
	case answer.Action != mcp.ElicitAccept || answer.Content["confirm"] != true:
		return mcp.ErrorResult(fmt.Sprintf("%s was not released: the user did not confirm (%s)", args.Reference, answer.Action)), nil
	}
	return mcp.TextResult(fmt.Sprintf("%s released", args.Reference)), nil
}

// CrmNotesAppendV1 appends a note.
func (h *handlers) CrmNotesAppendV1(ctx context.Context, call *mcp.Call, args bank.CrmNotesAppendV1Args) (*mcp.Result, error) {
	return mcp.TextResult("note appended"), nil
}
