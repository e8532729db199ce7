package schemacorpus

import (
	"reflect"
	"testing"
)

// TestCorpus checks the generator itself: it is deterministic, every schema
// it writes parses, every value it calls valid is valid, and its mutations
// usually are not.
func TestCorpus(t *testing.T) {
	schemas := 300
	if testing.Short() {
		schemas = 60
	}
	var valid, mutated, invalid int
	Pairs(1, schemas, 4, func(p Pair) {
		errs := p.Schema.Validate(p.Value)
		if !p.Mutated {
			valid++
			if errs != nil {
				t.Fatalf("seed %d: generated valid value %s fails %s: %v", p.Seed, JSON(p.Value), JSON(p.Doc), errs)
			}
			return
		}
		mutated++
		if errs != nil {
			invalid++
		}
	})
	if 2*invalid < mutated {
		t.Errorf("only %d of %d mutated values are invalid", invalid, mutated)
	}
	t.Logf("%d valid values, %d mutated values of which %d invalid", valid, mutated, invalid)

	a, b := New(7), New(7)
	for range 20 {
		da, db := a.Schema(0), b.Schema(0)
		if !reflect.DeepEqual(da, db) {
			t.Fatalf("same seed, different schemas:\n%s\n%s", JSON(da), JSON(db))
		}
		sa := MustParse(da)
		if va, vb := a.Valid(sa, 0), b.Valid(sa, 0); !reflect.DeepEqual(va, vb) {
			t.Fatalf("same seed, different values: %s, %s", JSON(va), JSON(vb))
		}
	}
}

// TestPairs checks what Pairs promises: each schema comes from its seed, and
// valid values alternate with their mutations.
func TestPairs(t *testing.T) {
	var pairs []Pair
	Pairs(40, 10, 3, func(p Pair) { pairs = append(pairs, p) })
	if len(pairs) != 10*3*2 {
		t.Fatalf("%d pairs, want 60", len(pairs))
	}
	for i, p := range pairs {
		if want := uint64(40 + i/6); p.Seed != want {
			t.Fatalf("pair %d has seed %d, want %d", i, p.Seed, want)
		}
		if doc := New(p.Seed).Schema(0); !reflect.DeepEqual(doc, p.Doc) {
			t.Fatalf("seed %d writes %s, the pair holds %s", p.Seed, JSON(doc), JSON(p.Doc))
		}
		if p.Mutated != (i%2 == 1) || (p.Defaults == nil) != !p.Mutated {
			t.Fatalf("pair %d: mutated %v, defaults %v", i, p.Mutated, p.Defaults)
		}
	}
}

// TestClone checks that a clone shares nothing mutable with its original.
func TestClone(t *testing.T) {
	v := map[string]any{"a": []any{map[string]any{"b": "c"}}, "n": nil}
	c := Clone(v).(map[string]any)
	c["a"].([]any)[0].(map[string]any)["b"] = "changed"
	c["n"] = "set"
	if !reflect.DeepEqual(v, map[string]any{"a": []any{map[string]any{"b": "c"}}, "n": nil}) {
		t.Errorf("changing the clone changed the original: %s", JSON(v))
	}
	var nilMap map[string]any
	if got := Clone(nilMap); got.(map[string]any) != nil {
		t.Errorf("Clone of a nil map = %#v, want a nil map", got)
	}
}
