package decode_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/decode"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// payment is written the way the generator writes a decoder, for
//
//	{"type": "object", "additionalProperties": false, "required": ["ref"],
//	 "properties": {"ref": {"type": "string", "minLength": 3},
//	                "amount": {"type": "integer", "minimum": 1},
//	                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 2},
//	                "method": {"oneOf": [card, iban] told apart by "kind"}}}
//
// so that the Reader's pieces are tested together, as generated code
// uses them.
type payment struct {
	Ref    string
	Amount int64
	Tags   []string
	Method any
}

func (v *payment) DecodeFrom(r *decode.Reader, at *decode.Loc) {
	var seen [4]bool
	o := r.Object(at, decode.Object)
	for o.Next() {
		switch string(o.Name()) {
		case "amount":
			loc := o.Field(&seen[0], "amount", "$.amount")
			if x, ok := r.Int(loc, decode.Integer); ok {
				r.Minimum(loc, float64(x), 1)
				v.Amount = x
			}
		case "method":
			loc := o.Field(&seen[1], "method", "$.method")
			tag, raw, ok := r.Tagged(loc, "kind")
			switch {
			case !ok:
			case tag == "card":
				var x card
				q := r.On(raw)
				x.DecodeFrom(q, loc)
				r.Off(q)
				v.Method = x
			case tag == "iban":
				var x iban
				q := r.On(raw)
				x.DecodeFrom(q, loc)
				r.Off(q)
				v.Method = x
			default:
				r.FailProp(loc, "kind", schema.MsgEnum([]any{"card", "iban"}))
				r.Skipped(raw)
			}
		case "ref":
			loc := o.Field(&seen[2], "ref", "$.ref")
			if x, ok := r.Str(loc, decode.String); ok {
				r.MinLength(loc, x, 3)
				v.Ref = x
			}
		case "tags":
			loc := o.Field(&seen[3], "tags", "$.tags")
			a := r.UniqueArray(loc, decode.Array)
			for a.Next() {
				x, _ := r.Str(a.Loc(), decode.String)
				v.Tags = append(v.Tags, x)
			}
			a.MaxItems(2)
			decode.Unique(&a, v.Tags)
		default:
			o.Additional()
		}
	}
	o.Required(seen[2], "ref")
}

type card struct{ Last4 string }

func (v *card) DecodeFrom(r *decode.Reader, at *decode.Loc) {
	var seen [2]bool
	o := r.Object(at, decode.Object)
	for o.Next() {
		switch string(o.Name()) {
		case "kind":
			o.Field(&seen[0], "kind", "")
			r.Skip()
		case "last4":
			loc := o.Field(&seen[1], "last4", "")
			v.Last4, _ = r.Str(loc, decode.String)
		default:
			o.Additional()
		}
	}
	o.Required(seen[1], "last4")
}

type iban struct{ IBAN string }

func (v *iban) DecodeFrom(r *decode.Reader, at *decode.Loc) {
	var seen [2]bool
	o := r.Object(at, decode.Object)
	for o.Next() {
		switch string(o.Name()) {
		case "kind":
			o.Field(&seen[0], "kind", "")
			r.Skip()
		case "iban":
			loc := o.Field(&seen[1], "iban", "")
			v.IBAN, _ = r.Str(loc, decode.String)
		default:
			o.Additional()
		}
	}
	o.Required(seen[1], "iban")
}

func decodePayment(data string) (payment, []string, error) {
	v, errs, err := decode.Run[payment]([]byte(data))
	return v, errs.Strings(), err
}

func TestAValidValueIsDecodedWithoutErrors(t *testing.T) {
	v, errs, err := decodePayment(`{"ref":"PMT-1","amount":5,"tags":["a","b"],"method":{"kind":"iban","iban":"DE00"}}`)
	if err != nil || len(errs) != 0 {
		t.Fatalf("errs %q, err %v", errs, err)
	}
	if v.Ref != "PMT-1" || v.Amount != 5 || !slices.Equal(v.Tags, []string{"a", "b"}) || v.Method != (iban{IBAN: "DE00"}) {
		t.Fatalf("decoded %+v", v)
	}
}

func TestEveryErrorIsReportedSortedAtItsPath(t *testing.T) {
	_, errs, err := decodePayment(`{"tags":["a","a","b"],"amount":0,"colour":"red","method":{"kind":"card"}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"$.amount: below minimum 1",
		"$.colour: additional property is not allowed",
		"$.method.last4: required property is missing",
		"$.ref: required property is missing",
		"$.tags: items must be unique",
		"$.tags: more than maxItems 2",
	}
	if !slices.Equal(errs, want) {
		t.Fatalf("errors\n got %q\nwant %q", errs, want)
	}
}

func TestTypeErrorsAndTheIntegerRule(t *testing.T) {
	_, errs, err := decodePayment(`{"ref":7,"amount":1.0,"tags":"x","method":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"$.amount: expected type integer, got number",
		"$.method: expected type object, got array",
		"$.ref: expected type string, got integer",
		"$.tags: expected type array, got string",
	}
	if !slices.Equal(errs, want) {
		t.Fatalf("errors\n got %q\nwant %q", errs, want)
	}
	_, errs, _ = decodePayment(`{"ref":"abc","amount":9223372036854775808}`)
	if !slices.Equal(errs, []string{"$.amount: " + schema.MsgIntegerRange}) {
		t.Fatalf("an integer past int64: %q", errs)
	}
}

// The tag is found wherever it is in the object: first (read in one pass)
// or later (the object is read whole, then decoded as its variant).
func TestATaggedUnionFindsItsTagAnywhere(t *testing.T) {
	for _, in := range []string{
		`{"ref":"abc","method":{"kind":"card","last4":"1234"}}`,
		`{"ref":"abc","method":{"last4":"1234","kind":"card"}}`,
	} {
		v, errs, err := decodePayment(in)
		if err != nil || len(errs) != 0 || v.Method != (card{Last4: "1234"}) {
			t.Errorf("%s: %+v %q %v", in, v, errs, err)
		}
	}
	cases := map[string]string{
		`{"ref":"abc","method":{"last4":"1234"}}`:                "$.method.kind: required property is missing",
		`{"ref":"abc","method":{"last4":"1","kind":"cash"}}`:     "$.method.kind: must be one of ['card', 'iban']",
		`{"ref":"abc","method":{"kind":"cash","x":[1,{"y":2}]}}`: "$.method.kind: must be one of ['card', 'iban']",
		`{"ref":"abc","method":{"kind":5}}`:                      "$.method.kind: must be one of ['card', 'iban']",
	}
	for in, want := range cases {
		_, errs, err := decodePayment(in)
		if err != nil || !slices.Equal(errs, []string{want}) {
			t.Errorf("%s: %q %v, want %q", in, errs, err, want)
		}
	}
}

func TestMalformedInputIsAnErrorNotAViolation(t *testing.T) {
	for _, in := range []string{
		``,
		`{"ref":"abc"`,
		`{"ref":"abc"} {}`,
		`{"ref":"abc","ref":"abd"}`,
		`{"ref":"abc","method":{"kind":"card","last4":"1","last4":"2"}}`,
		`{"ref":"abc","method":{"last4":"1","kind":"card","kind":"card"}}`,
		"{\"ref\":\"a\xffc\"}",
		`{"ref":"\ud800x"}`,
		`{"ref":"abc","colour":{"a":1,"a":2}}`,
		`{"ref":"abc","tags":["a",]}`,
	} {
		_, errs, err := decodePayment(in)
		if err == nil {
			t.Errorf("%q: accepted, with errors %q", in, errs)
		}
	}
	// A repeated name is reported as one, naming it and its object, whether
	// the schema declares it or not, at any depth.
	for in, want := range map[string]string{
		`{"ref":"abc","ref":"abd"}`:                                        `duplicate object member name "ref"`,
		`{"ref":"abc","method":{"kind":"card","last4":"1","last4":"2"}}`:   `duplicate object member name "last4" within "/method"`,
		`{"ref":"abc","colour":{"a":1,"a":2}}`:                             `duplicate object member name "a" within "/colour"`,
		`{"ref":"abc","colour":[{"a":[{"b":1,"c":2,"b":3}]}],"x":1,"x":2}`: `duplicate object member name "b" within "/colour/0/a/0"`,
	} {
		_, _, err := decodePayment(in)
		if !errors.Is(err, decode.ErrDuplicateName) || err.Error() != want {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
	}
}

// Types carries what a value's schemas say of a value of another type:
// the declared list, or an enum's message when no type is declared.
func TestMismatchMessages(t *testing.T) {
	cases := []struct {
		t    *decode.Types
		want []string
	}{
		{decode.TypesOf(schema.KindString, schema.KindNull), []string{"$: expected type string|null, got integer"}},
		{decode.Values("must be 'x'"), []string{"$: must be 'x'"}},
		{decode.All(decode.TypesOf(schema.KindString), decode.Values("must be one of ['a', 'b']")),
			[]string{"$: expected type string, got integer", "$: must be one of ['a', 'b']"}},
	}
	for _, c := range cases {
		r := decode.Begin([]byte(`5`))
		r.Mismatch(nil, c.t)
		errs, err := r.Finish()
		if err != nil || !slices.Equal(errs.Strings(), c.want) {
			t.Errorf("got %q %v, want %q", errs.Strings(), err, c.want)
		}
	}
}

// A Quiet reader fills values and reports nothing: the reference validator
// has already reported on the value.
func TestQuietReportsNothing(t *testing.T) {
	r := decode.Begin([]byte(`{"v":{"ref":5,"amount":0,"extra":1}}`))
	o := r.Object(nil, decode.Object)
	var got payment
	for o.Next() {
		raw := r.Raw()
		q := r.Quiet(raw)
		got.DecodeFrom(q, nil)
		r.Off(q)
	}
	errs, err := r.Finish()
	if err != nil || len(errs) != 0 {
		t.Fatalf("quiet reader reported %q %v", errs.Strings(), err)
	}
	if got.Amount != 0 || got.Ref != "" {
		t.Fatalf("filled %+v", got)
	}
}

func TestTheErrorListIsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"ref":"abc"`)
	for i := range 500 {
		b.WriteString(`,"x`)
		b.WriteString(strings.Repeat("a", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(strings.Repeat("b", i/26))
		b.WriteString(`":1`)
	}
	b.WriteString(`}`)
	_, errs, err := decode.Run[payment]([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != schema.MaxErrors+1 || errs.Truncated() != 400 {
		t.Fatalf("%d errors, %d truncated; want %d and a note of 400 more", len(errs), errs.Truncated(), schema.MaxErrors)
	}
	if last := errs[len(errs)-1].String(); last != schema.MsgMoreErrors(400) {
		t.Fatalf("the list ends with %q", last)
	}
}

// A Reader from BeginChecked trusts the reader before it for distinct
// member names (the server's envelope reader refuses repeated ones); one
// from Begin refuses them itself.
func TestCheckedInputIsNotCheckedAgain(t *testing.T) {
	in := []byte(`{"ref":"abc","x":1,"x":2}`)
	if _, _, err := decode.Run[payment](in); err == nil {
		t.Fatal("Begin took a repeated undeclared name")
	}
	_, errs, err := decode.RunChecked[payment](in)
	if err != nil || !slices.Equal(errs.Strings(), []string{"$.x: additional property is not allowed"}) {
		t.Fatalf("BeginChecked: %q %v, want the additional-property error, once", errs.Strings(), err)
	}
}

// A Validator's value is the *T the reading filled, so that a call costs
// the allocations of the reading alone: a T put into the any was copied
// to the heap once more, every call. The handler gets its T either way
// (mcp.TypedTool).
func TestValidatorAllocatesNothingAboveTheReading(t *testing.T) {
	in := []byte(`{"ref":"PMT-1","amount":5,"method":{"kind":"iban","iban":"DE00"}}`)
	validate := decode.Validator[payment]()
	v, errs := validate(in)
	if p, ok := v.(*payment); !ok || len(errs) != 0 || p.Ref != "PMT-1" || p.Amount != 5 {
		t.Fatalf("validated %#v, %q; want a *payment of PMT-1", v, errs.Strings())
	}
	if testenv.RaceEnabled {
		t.Skip("allocations through the Reader pool are counted without the race detector")
	}
	var sink any
	reading := testing.AllocsPerRun(100, func() {
		r := decode.BeginChecked(in)
		p := new(payment)
		p.DecodeFrom(r, nil)
		r.Finish()
		sink = p
	})
	if got := testing.AllocsPerRun(100, func() { sink, _ = validate(in) }); got > reading {
		t.Errorf("a validation allocates %v times, the reading into a *payment %v", got, reading)
	}
	_ = sink
}

// Checker reports a structured output's violations as its Decode function
// finds them, reads it strictly (a repeated name, which a type's own
// MarshalJSON could write, is refused), and reports text that is not one
// JSON value as one violation at "$", never as a conforming output.
func TestCheckerReportsAnOutputsViolations(t *testing.T) {
	check := decode.Checker(func(r *decode.Reader) {
		var v payment
		v.DecodeFrom(r, nil)
	})
	if errs := check([]byte(`{"ref":"PMT-1","amount":5,"method":{"kind":"iban","iban":"DE00"}}`)); len(errs) != 0 {
		t.Errorf("a conforming output: %q", errs.Strings())
	}
	if got, want := check([]byte(`{"ref":"PMT-1","amount":0,"method":{"kind":"iban","iban":"DE00"}}`)).Strings(), []string{"$.amount: below minimum 1"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, in := range []string{`{"ref":"PMT-1","ref":"PMT-2","amount":5,"method":{"kind":"iban","iban":"DE00"}}`, `{"ref":`, ``} {
		errs := check([]byte(in))
		if len(errs) != 1 || errs[0].Path != "$" {
			t.Errorf("%q: %q, want one violation at $", in, errs.Strings())
		}
	}
}

// Checker reads a value it drops: its violations are those the Decode
// function finds in the same text, and the text is left as it was, though
// the undeclared member's path is written over a copy of it (see
// memberPath) and the value's strings are its own bytes.
func TestCheckerLeavesTheContentAsItWas(t *testing.T) {
	check := decode.Checker(func(r *decode.Reader) {
		var v payment
		v.DecodeFrom(r, nil)
	})
	for _, in := range []string{
		`{"ref":"PMT-1","amount":5,"method":{"kind":"iban","iban":"DE00"}}`,
		`{"ref":"PMT-1","amount":5,"method":{"kind":"iban","iban":"DE00"},"urgent":true}`,
		// Enough undeclared members that their paths are written over the
		// input's copy rather than given strings of their own.
		`{"ref":"PMT-1","amount":5,"method":{"kind":"iban","iban":"DE00"},"urgent":1,"express":2,"priority":3,"cutoff":4,"channel":5}`,
		`{"ref":"PMT-\u0031","amount":0,"method":{"kind":"card","pan":"41"},"x":1}`,
		`{"ref":"","amount":-1,"method":{"kind":"iban","iban":"DE00"},"note":"` + strings.Repeat("n", 300) + `"}`,
	} {
		text := []byte(in)
		_, want, err := decode.Run[payment](text)
		if err != nil {
			t.Fatal(err)
		}
		if got := check(text); !slices.Equal(got.Strings(), want.Strings()) {
			t.Errorf("%s: checker %q, Decode %q", in, got.Strings(), want.Strings())
		}
		if string(text) != in {
			t.Errorf("the check changed its text:\n%s\nwas\n%s", text, in)
		}
	}
}
