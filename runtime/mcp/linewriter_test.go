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
// writes them together, in one write, and gives their places back after
// it; the goroutines that left them do not wait.
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
	}), func() { t.Error("failed called without a write error") }, func(n int) {
		if n > 0 {
			log.add("released %d", n)
		}
	})

	first := make(chan struct{})
	go func() { l.writeReply(replyOf([]byte(`{"id":1}`)), true); close(first) }()
	<-entered
	left := make(chan struct{})
	go func() {
		l.writeReply(reply{head: []byte(`{"id":2,`), body: []byte(`"shared":1`), tail: []byte(`}`)}, true)
		l.writeReply(replyOf([]byte(`{"id":3}`)), true)
		l.write([]byte(`{"method":"note"}`)) // a notification holds no place
		l.writeReply(reply{}, true)          // no answer: its place comes back at once
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
		"released 1", // the empty reply's place, at once
		"released 1", // the first answer's, once written
		`write "{\"id\":2,\"shared\":1}\n{\"id\":3}\n{\"method\":\"note\"}\n"`,
		"released 2",
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
	}), func() { failed++ }, func(n int) {
		if n > 0 {
			log.add("released %d", n)
		}
	})
	first := make(chan struct{})
	go func() { l.writeReply(replyOf([]byte("a")), true); close(first) }()
	<-entered
	l.writeReply(replyOf([]byte("b")), true)
	l.writeReply(replyOf([]byte("c")), true)
	close(release)
	<-first
	l.writeReply(replyOf([]byte("d")), true)
	want := []string{`write "a\n"`, "released 1", "released 2", "released 1"}
	if got := log.get(); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if failed != 1 || l.err() == nil {
		t.Errorf("failed called %d times, err %v", failed, l.err())
	}
}
