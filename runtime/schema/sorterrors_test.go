package schema

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// SortErrors sorts a few errors by insertion and more by slices.SortFunc:
// both must give compareErrors' order, at every length around the switch.
func TestSortErrorsIsCompareErrorsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	paths := []string{"$", "$.a", "$.a.b", "$.b", "$[0]", "$[10]", "$[2]", "$.é", "$.zz", "$.e\u0301"}
	msgs := []string{"m", "n", "required property is missing"}
	for n := range 30 {
		for range 200 {
			errs := make([]ValidationError, n)
			for i := range errs {
				errs[i] = ValidationError{Path: paths[rng.IntN(len(paths))], Message: msgs[rng.IntN(len(msgs))]}
			}
			want := slices.Clone(errs)
			slices.SortStableFunc(want, compareErrors)
			SortErrors(errs)
			if !slices.Equal(errs, want) {
				t.Fatalf("%d errors sorted as %v, want %v", n, errs, want)
			}
		}
	}
}
