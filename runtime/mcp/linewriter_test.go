package mcp

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// writerFunc is an io.Writer that is a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// eventLog is what a lineWriter did, in order.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (e *eventLog) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.events = append(e.events, fmt.Sprintf(format, args...))
}

func (e *eventLog) get() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.events)
}

// TestLineWriterBatchesWhatIsLeftDuringAWrite: messages answered while
// another is being written are left for the goroutine writing, which
// writes them together, in one write, and gives back their places and
// the lines they answer after it; the goroutines that left them do not
// wait.
func TestLineWriterBatchesWhatIsLeftDuringAWrite(t *testing.T) {
	var log eventLog
	entered, release := make(chan struct{}), make(chan struct{})
	writes := 0
	l := newLineWriter(writerFunc(func(p []byte) (int, error) {
		log.add("write %q", p)
		if writes++; writes == 1 {
			close(entered)
			<-release
		}
		return len(p), nil
	}), func() { t.Error("failed called without a write error") }, func(h hold) {
		log.add("released %d places, %d lines", h.places, h.lines)
	})

	first := make(chan struct{})
	answer := hold{places: 1, lines: 1}
	go func() { l.writeReply(replyOf([]byte(`{"id":1}`)), answer); close(first) }()
	<-entered
	left := make(chan struct{})
	go func() {
		l.writeReply(reply{head: []byte(`{"id":2,`), body: []byte(`"shared":1`), tail: []byte(`}`)}, answer)
		l.writeReply(replyOf([]byte(`{"id":3}`)), hold{lines: 1}) // an answer that holds no place
		l.write([]byte(`{"method":"note"}`))                      // the server's own message holds nothing
		l.writeReply(reply{}, answer)                             // no answer: what it holds comes back at once
		close(left)
	}()
	select {
	case <-left:
	case <-time.After(time.Minute):
		t.Fatal("messages answered during a write waited for it")
	}
	close(release)
	<-first
	l.close()
	want := []string{
		`write "{\"id\":1}\n"`,
		"released 1 places, 1 lines", // the empty reply's, at once
		"released 1 places, 1 lines", // the first answer's, once written
		`write "{\"id\":2,\"shared\":1}\n{\"id\":3}\n{\"method\":\"note\"}\n"`,
		"released 1 places, 2 lines",
	}
	if got := log.get(); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestLineWriterWriteErrorDropsTheRest: after a write error nothing more
// is written, failed is called once, and every place is given back,
// those of the messages left for the failed write included.
func TestLineWriterWriteErrorDropsTheRest(t *testing.T) {
	var log eventLog
	entered, release := make(chan struct{}), make(chan struct{})
	failed := 0
	l := newLineWriter(writerFunc(func(p []byte) (int, error) {
		log.add("write %q", p)
		close(entered)
		<-release
		return 0, errors.New("broken pipe")
	}), func() { failed++ }, func(h hold) {
		log.add("released %d places, %d lines", h.places, h.lines)
	})
	first := make(chan struct{})
	answer := hold{places: 1, lines: 1}
	go func() { l.writeReply(replyOf([]byte("a")), answer); close(first) }()
	<-entered
	l.writeReply(replyOf([]byte("b")), answer)
	l.writeReply(replyOf([]byte("c")), answer)
	close(release)
	<-first
	l.writeReply(replyOf([]byte("d")), answer)
	want := []string{`write "a\n"`, "released 1 places, 1 lines", "released 2 places, 2 lines", "released 1 places, 1 lines"}
	if got := log.get(); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if failed != 1 || l.err() == nil {
		t.Errorf("failed called %d times, err %v", failed, l.err())
	}
}
