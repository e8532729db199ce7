package structfill

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/structfill/fill"
	"github.com/mcpgen/mcpgen/internal/structfill/tools"
)

// valid are arguments fill.shapes accepts, each reaching another part of
// the copy: absent, null-free and present optional properties, empty and
// nested collections, the embedded struct's fields, a tree.
var valid = []string{
	`{"amount":{"minor":5,"currency":"USD"},"score":1.5,"inline":{"a":"x"}}`,
	`{"amount":{"minor":0,"currency":"AED"},"score":-2,"inline":{"a":"","b":7},"by":"ops","seq":9,
	  "fee":{"minor":1,"currency":"USD"},"small":-8,"level":65535,"flag":false,"note":"",
	  "tags":[],"counts":{},"ledger":{},"matrix":[],"pointers":[]}`,
	`{"amount":{"minor":1,"currency":"USD"},"score":0,"inline":{"a":"y"},"tags":["a","b"],"counts":{"a":1,"b":-2},
	  "ledger":{"x":{"minor":3,"currency":"AED"}},"matrix":[[1,2],[],[3]],"pointers":[{"minor":4,"currency":"USD"}],
	  "tree":{"name":"root","children":[{"name":"a","next":{"name":"b"}},{"name":"c","children":[]}]}}`,
}

// decodeBoth reads data with the generated decoder and, when it accepts
// it, with encoding/json into the same struct.
func decodeBoth(t *testing.T, data []byte) (got, want tools.ShapesArgs, ok bool) {
	got, errs, err := fill.DecodeFillShapesV1_0_0Args(data)
	if err != nil || len(errs) > 0 {
		return got, want, false
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: the generated decoder accepts what encoding/json refuses: %v", data, err)
	}
	return got, want, true
}

// TestCopyIsWhatEncodingJSONMakes: for arguments the generated decoder
// accepts, the struct its copy fills is the one encoding/json fills from
// the same text.
func TestCopyIsWhatEncodingJSONMakes(t *testing.T) {
	for _, text := range valid {
		got, want, ok := decodeBoth(t, []byte(text))
		if !ok {
			t.Fatalf("%s: refused", text)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n copied  %+v\n decoded %+v", text, got, want)
		}
	}
}

// TestGeneratedCodeCopies: the struct of fill.shapes is filled by the
// copy, without encoding/json; that of fill.loose, which holds a value of
// any type and a float32, by encoding/json.
func TestGeneratedCodeCopies(t *testing.T) {
	src, err := os.ReadFile("fill/args.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	body := func(fn string) string {
		s := string(src)
		i := strings.Index(s, "func "+fn+"(")
		if i < 0 {
			t.Fatalf("no %s in args.gen.go", fn)
		}
		end := strings.Index(s[i:], "\n}\n")
		return s[i : i+end]
	}
	if b := body("DecodeFillShapesV1_0_0Args"); strings.Contains(b, "json.Unmarshal") || !strings.Contains(b, "declared()") {
		t.Errorf("fill.shapes is not copied:\n%s", b)
	}
	if b := body("DecodeFillLooseV1_0_0Args"); !strings.Contains(b, "json.Unmarshal") {
		t.Errorf("fill.loose is not decoded by encoding/json:\n%s", b)
	}
	if v, errs, err := fill.DecodeFillLooseV1_0_0Args([]byte(`{"id":"x","extra":{"k":[1,"2"]},"ratio":0.1}`)); err != nil || len(errs) > 0 ||
		!reflect.DeepEqual(v.Extra, map[string]any{"k": []any{1.0, "2"}}) || v.Ratio != 0.1 {
		t.Errorf("fill.loose: %+v, %v, %v", v, errs, err)
	}
}

// FuzzCopy holds the copy to encoding/json on every input the generated
// decoder accepts.
func FuzzCopy(f *testing.F) {
	for _, text := range valid {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want, ok := decodeBoth(t, data)
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n copied  %+v\n decoded %+v", data, got, want)
		}
	})
}

// BenchmarkFill reads the arguments of fill.shapes into the team's struct
// the way generated code does (path=copy: validate into the wire form,
// copy it), side by side with path=copy+unmarshal, which adds the second
// reading the generated code made before, encoding/json decoding the same
// bytes: the difference is what the copy saves (the copy itself, which
// the old path did not make, is in both).
func BenchmarkFill(b *testing.B) {
	data := []byte(valid[2])
	b.Run("path=copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs, err := fill.DecodeFillShapesV1_0_0Args(data); err != nil || len(errs) > 0 {
				b.Fatal(errs, err)
			}
		}
	})
	b.Run("path=copy+unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v tools.ShapesArgs
			if _, errs, err := fill.DecodeFillShapesV1_0_0Args(data); err != nil || len(errs) > 0 {
				b.Fatal(errs, err)
			}
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
