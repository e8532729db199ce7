package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/bench/instruct"
	"github.com/mcpgen/mcpgen/runtime/decode"
	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/mcp"
	"github.com/mcpgen/mcpgen/runtime/optional"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// booked is payments.booking's structured output: an instruction as the
// ledger booked it, in two legs (about 430 bytes encoded).
var booked = instruct.PaymentsBookingV1_0_0Output{
	InstructionID: "3f2b8c1e-9d4a-4e7b-8c21-5a6f0e9d1b23",
	State:         instruct.PaymentsBookingV1_0_0OutputStateAccepted,
	Amount:        instruct.PaymentsBookingV1_0_0Money{AmountMinor: 250000, Currency: instruct.PaymentsBookingV1_0_0MoneyCurrencyAED},
	ExecuteOn:     "2026-03-12",
	Legs: []instruct.PaymentsBookingV1_0_0Leg{
		{Account: "AE070331234567890123456", Amount: instruct.PaymentsBookingV1_0_0Money{AmountMinor: 250000, Currency: "AED"}, BookedAt: "2026-03-12T09:30:00Z"},
		{Account: "AE460230000001234567890", Amount: instruct.PaymentsBookingV1_0_0Money{AmountMinor: 250000, Currency: "AED"}, BookedAt: "2026-03-12T09:30:01.250Z"},
	},
	Reason: optional.Null[string](),
}

// bookingHandlers serve the instruct package: payments.booking answers
// with out, payments.instruct is not called.
type bookingHandlers struct {
	out *instruct.PaymentsBookingV1_0_0Output
}

func (h bookingHandlers) PaymentsBookingV1(context.Context, *mcp.Call, instruct.PaymentsBookingV1Args) (*mcp.Result, error) {
	return &mcp.Result{Content: []mcp.Content{mcp.TextContent("booked")}, StructuredContent: h.out}, nil
}

func (bookingHandlers) PaymentsInstructV1(context.Context, *mcp.Call, instruct.PaymentsInstructV1Args) (*mcp.Result, error) {
	return mcp.TextResult("instructed"), nil
}

// newBookingServer serves the instruct package with h. check says how a
// result's structured content is checked against payments.booking's output
// schema: "generated", by the generated decoder of its output type, as
// the package's Register binds it; "reference", by the server's reference
// validator (the same tool bound without the generated checker).
func newBookingServer(tb testing.TB, h bookingHandlers, check string) *mcp.Server {
	tb.Helper()
	srv, err := mcp.NewServer(instruct.Options())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	if check == "generated" {
		err = instruct.Register(srv, h)
	} else {
		for _, spec := range instruct.Specs() {
			if spec.Name == "payments.booking" {
				err = srv.Bind(spec, mcp.TypedTool(h.PaymentsBookingV1, decode.Validator[instruct.PaymentsBookingV1_0_0Args]()))
			}
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	return srv
}

var bookingRequest = callRequest(1, "payments.booking", []byte(`{"instruction_id":"3f2b8c1e-9d4a-4e7b-8c21-5a6f0e9d1b23"}`))

// BenchmarkStructuredOutput is a tools/call whose tool declares an output
// schema, through Session.Handle: the handler's structured content is
// encoded and checked on every call, by the generated decoder of the
// version's output type (check=generated) or by the reference validator
// over the JSON value model (check=reference). Not a row of the table: the
// anchors check no output; docs/benchmarks.md quotes it.
func BenchmarkStructuredOutput(b *testing.B) {
	for _, check := range []string{"generated", "reference"} {
		b.Run("check="+check, func(b *testing.B) {
			out := booked
			sess := initializedSession(b, newBookingServer(b, bookingHandlers{out: &out}, check), investigator)
			resp := sess.Handle(context.Background(), bookingRequest)
			mustContain(b, "tools/call", resp, `"structuredContent":{"amount":{"amount_minor":250000`)
			mustLack(b, "tools/call", resp, `"isError":true`)
			b.ReportAllocs()
			for b.Loop() {
				sess.Handle(context.Background(), bookingRequest)
			}
		})
	}
}

// bookingChecker is payments.booking's output checker as the generated
// package binds it: decode.Checker reading its output type into a value it
// drops.
var bookingChecker = decode.Checker(func(r *decode.Reader) {
	var out instruct.PaymentsBookingV1_0_0Output
	out.DecodeFrom(r, nil)
})

// BenchmarkOutputCheck is the check alone of BenchmarkStructuredOutput:
// bookingChecker on booked's encoding.
func BenchmarkOutputCheck(b *testing.B) {
	out := booked
	enc, err := json.Marshal(&out)
	if err != nil {
		b.Fatal(err)
	}
	check := bookingChecker
	if errs := check(enc); len(errs) > 0 {
		b.Fatalf("booked breaks its schema: %v", errs)
	}
	b.ReportAllocs()
	for b.Loop() {
		check(enc)
	}
}

// BenchmarkOutputEncode is the encoding alone of BenchmarkStructuredOutput:
// booked as the server encodes a handler's structured content, by the
// generated AppendJSON into a buffer kept from call to call, as a request
// of a stream keeps it (impl=generated), and by encoding/json
// (impl=encoding-json: encode.Reflect, the server's encoding of a value
// that does not write itself, as every output was before). The two must be
// the same bytes.
func BenchmarkOutputEncode(b *testing.B) {
	out := booked
	buf := make([]byte, 0, 512)
	generated, err := out.AppendJSON(buf)
	if err != nil {
		b.Fatal(err)
	}
	reflected, err := encode.Reflect(&out)
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Equal(generated, reflected) {
		b.Fatalf("AppendJSON wrote\n%s\nencoding/json\n%s", generated, reflected)
	}
	b.Run("impl=generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := out.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encode.Reflect(&out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestStructuredOutputChecked: through either check, a conforming output
// is answered and one that breaks the output schema is replaced by a
// failure; and the generated checker reports each output's violations as
// the reference validator does.
func TestStructuredOutputChecked(t *testing.T) {
	outputs := map[string]func(o *instruct.PaymentsBookingV1_0_0Output){
		"conforming": func(*instruct.PaymentsBookingV1_0_0Output) {},
		"a reason":   func(o *instruct.PaymentsBookingV1_0_0Output) { o.Reason = optional.NotNull("cut-off passed") },
		"no legs":    func(o *instruct.PaymentsBookingV1_0_0Output) { o.Legs = nil },
		"a bad account": func(o *instruct.PaymentsBookingV1_0_0Output) {
			o.Legs = []instruct.PaymentsBookingV1_0_0Leg{{Account: "ae07", Amount: o.Amount, BookedAt: "2026-03-12T09:30:00Z"}}
		},
		"a bad time": func(o *instruct.PaymentsBookingV1_0_0Output) {
			o.Legs = []instruct.PaymentsBookingV1_0_0Leg{{Account: "AE070331234567890123456", Amount: o.Amount, BookedAt: "12/03/2026"}}
		},
		"an unknown state and no amount": func(o *instruct.PaymentsBookingV1_0_0Output) {
			o.State, o.Amount = "lost", instruct.PaymentsBookingV1_0_0Money{}
		},
		"a long reason": func(o *instruct.PaymentsBookingV1_0_0Output) {
			o.Reason = optional.NotNull(string(make([]byte, 141)))
		},
	}
	var spec estate.ToolSpec
	for _, s := range instruct.Specs() {
		if s.Name == "payments.booking" {
			spec = s
		}
	}
	generated := bookingChecker
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		t.Run(name, func(t *testing.T) {
			out := booked
			outputs[name](&out)
			enc, err := json.Marshal(&out)
			if err != nil {
				t.Fatal(err)
			}
			v, err := schema.DecodeJSON(enc)
			if err != nil {
				t.Fatal(err)
			}
			want := spec.OutputSchema.Validate(v).Strings()
			if got := generated(enc).Strings(); !slices.Equal(got, want) {
				t.Fatalf("generated checker: %q\nreference validator: %q", got, want)
			}
			conforming := len(want) == 0
			if conforming != (name == "conforming" || name == "a reason") {
				t.Fatalf("violations %q", want)
			}
			for _, check := range []string{"generated", "reference"} {
				sess := initializedSession(t, newBookingServer(t, bookingHandlers{out: &out}, check), investigator)
				resp := sess.Handle(context.Background(), bookingRequest)
				if conforming {
					mustContain(t, check, resp, `"structuredContent":`)
					mustLack(t, check, resp, `"isError":true`)
				} else {
					mustContain(t, check, resp, `"isError":true`, "does not match the declared output schema")
					mustLack(t, check, resp, `"structuredContent"`)
				}
			}
		})
	}
}
