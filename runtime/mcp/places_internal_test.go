package mcp

import (
	"sync"
	"testing"
	"time"
)

// A stream's places: take gives as many as are free, up to what is
// wanted, waits at the bound until one is given back, and gives up when
// the stream ends.
func TestPlacesTakeAndWait(t *testing.T) {
	p := newPlaces(3)
	never := make(chan struct{})
	if n, ok := p.take(2, never); n != 2 || !ok {
		t.Fatalf("took %d of 2 wanted, 3 free", n)
	}
	if n, ok := p.take(5, never); n != 1 || !ok || p.free() {
		t.Fatalf("took %d of 5 wanted, 1 free (free after: %v)", n, p.free())
	}
	took := make(chan int)
	go func() { n, _ := p.take(4, never); took <- n }()
	select {
	case n := <-took:
		t.Fatalf("took %d places at the bound", n)
	case <-time.After(20 * time.Millisecond):
	}
	p.give(2)
	if n := <-took; n != 2 {
		t.Fatalf("the waiting take took %d once 2 were given back", n)
	}
	done := make(chan struct{})
	go func() { _, ok := p.take(1, done); took <- map[bool]int{true: 1}[ok] }()
	close(done)
	if <-took != 0 {
		t.Fatal("a take at the bound succeeded once its stream ended")
	}
}

// One taker (the goroutine reading) against the writer giving places back
// a few at a time as it writes: the bound holds, and no give is missed (a
// missed one leaves the taker waiting for good).
func TestPlacesRace(t *testing.T) {
	const bound, takes = 4, 20000
	p := newPlaces(bound)
	never := make(chan struct{})
	taken := make(chan int, takes)
	var wg sync.WaitGroup
	wg.Go(func() {
		for left := takes; left > 0; {
			n, ok := p.take(min(3, left), never)
			if !ok {
				t.Error("take failed with no end")
				return
			}
			if h := p.held.Load(); h > bound {
				t.Errorf("%d places held, bound %d", h, bound)
			}
			left -= n
			for range n {
				taken <- 1
			}
		}
	})
	wg.Go(func() {
		for given := 0; given < takes; {
			n := <-taken
			for len(taken) > 0 && n < 3 {
				n += <-taken
			}
			p.give(n)
			given += n
		}
	})
	wg.Wait()
	if h := p.held.Load(); h != 0 {
		t.Errorf("%d places held after every one was given back", h)
	}
}
