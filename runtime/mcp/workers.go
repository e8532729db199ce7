package mcp

import "time"

// workers runs functions on goroutines that are kept and reused. A request
// served on a fresh goroutine grows its stack anew on every call
// (runtime.copystack was a tenth of a tools/call's profile), and starting
// one costs more than handing work to one that waits.
//
// A stream's workers live as long as the stream (close ends them); the
// server's shared workers, which serve sessions without a stream of their
// own (HTTP requests, Session.Handle), each end after idle time without
// work, so a burst's goroutines do not outlive it for long.
type workers struct {
	jobs chan job // unbuffered: a send succeeds only when a worker waits
	stop chan struct{}
	idle time.Duration // 0: wait for work until stop
}

// job is work for a worker. Jobs are the structs that carry their own
// inputs, so that handing one over allocates no closure. do must not panic.
type job interface{ do() }

// workerIdle is how long a shared worker waits for work before it ends.
const workerIdle = time.Second

func newWorkers(idle time.Duration) *workers {
	return &workers{jobs: make(chan job), stop: make(chan struct{}), idle: idle}
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
	var idle *time.Timer
	var expired <-chan time.Time // nil, never ready, for a stream's workers
	if w.idle > 0 {
		idle = time.NewTimer(w.idle)
		defer idle.Stop()
		expired = idle.C
	}
	for {
		j.do()
		j = nil // not kept alive while waiting
		if idle != nil {
			idle.Reset(w.idle)
		}
		select {
		case j = <-w.jobs:
		case <-expired:
			return
		case <-w.stop:
			return
		}
	}
}

// close ends the workers once they finish what they are running.
func (w *workers) close() { close(w.stop) }
