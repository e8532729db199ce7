package mcp

// workers runs functions on goroutines that are reused for as long as the
// stream they serve is open: the goroutines that take turns at a stream's
// reading and run the requests they read (see streamReader). A
// request served on a fresh goroutine grows its stack anew (runtime.copystack
// was a tenth of a tools/call's profile); a reused one has grown it already.
type workers struct {
	jobs chan job // unbuffered: a send succeeds only when a worker waits
	stop chan struct{}
}

// job is work for a worker. Jobs are the structs that carry their own
// inputs, so that handing one over allocates no closure. do must not panic.
type job interface{ do() }

func newWorkers() *workers {
	return &workers{jobs: make(chan job), stop: make(chan struct{})}
}

// run runs j on a waiting worker, or on a new one when none is waiting: it
// never queues j behind other work.
func (w *workers) run(j job) {
	select {
	case w.jobs <- j:
	default:
		go w.work(j)
	}
}

func (w *workers) work(j job) {
	for {
		j.do()
		j = nil // not kept alive while waiting
		select {
		case j = <-w.jobs:
		case <-w.stop:
			return
		}
	}
}

// close ends the workers once they finish what they are running.
func (w *workers) close() { close(w.stop) }
