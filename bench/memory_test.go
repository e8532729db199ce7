package bench

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// memoryCalls is how many calls the resident-memory row makes;
// memoryWarmup how many of them count as warm-up; memoryWindow how many
// calls each of the two windows whose peaks are compared spans, and
// memorySample how often the resident set is read within them.
const (
	memoryCalls  = 100000
	memoryWarmup = 10000
	memoryWindow = 20000
	memorySample = 250
)

// BenchmarkResidentMemory runs the bankpayments service as a process over
// stdio (its own binary, built from the example) and reads its resident set
// from /proc: idle after the handshake, then every memorySample calls. The
// calls alternate the traced call's corrected (valid) form and its invalid
// one (the error path allocates most). warm is the highest reading over the
// memoryWindow calls after the warm-up, after the highest over the last
// memoryWindow calls, and growth what the calls between them added. A
// window spans several of the collector's cycles, over which the heap grows
// and is collected: its peak is the service's steady size, where a single
// reading says as much about where in a cycle it fell (one reading at each
// point moved the growth between −224 and 392 KiB from run to run, the
// server unchanged). It runs the whole sequence once per iteration; run it
// with -benchtime=1x.
func BenchmarkResidentMemory(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc")
	}
	bin := buildCommand(b, "github.com/mcpgen/mcpgen/examples/bankpayments")
	var idle, warm, after float64
	for i := 0; i < b.N; i++ {
		idle, warm, after = residentMemory(b, bin)
	}
	b.ReportMetric(idle, "idle-KiB")
	b.ReportMetric(warm, "warm-KiB")
	b.ReportMetric(after, "after-KiB")
	b.ReportMetric(after-warm, "growth-KiB")
}

// residentMemory runs one service process through the sequence and returns
// its resident set (KiB) idle, and its peaks over the window after the
// warm-up and over the last one.
func residentMemory(b *testing.B, bin string) (idle, warm, after float64) {
	p := startBankService(b, bin)
	defer p.close()
	roundTrip := p.roundTrip
	pid := p.cmd.Process.Pid
	time.Sleep(100 * time.Millisecond)
	idle = rss(b, pid)

	checkMemoryCalls(b, roundTrip)
	for i := 2; i < memoryCalls; i++ {
		roundTrip(memoryCall(i))
		if (i+1)%memorySample != 0 {
			continue
		}
		switch done := i + 1; {
		case done > memoryWarmup && done <= memoryWarmup+memoryWindow:
			warm = max(warm, rss(b, pid))
		case done > memoryCalls-memoryWindow:
			after = max(after, rss(b, pid))
		}
	}
	return idle, warm, after
}

// rss reads VmRSS (KiB) of process pid.
func rss(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}

// BenchmarkHeapInUse makes the resident-memory row's calls (the traced
// call, corrected and as traced, alternately) to mcpgen served in process
// over a pipe, with a service's call log, and reads the Go heap in use
// after two forced collections, once the warm-up's memoryWarmup calls are
// made and again after memoryCalls. The resident set the row reads also
// holds what the runtime keeps for itself (stacks, spans, the collector's
// headroom); this is what the server keeps: growth-KiB and the objects say
// whether it grows with the calls. It runs the whole sequence once per
// iteration; run it with -benchtime=1x.
func BenchmarkHeapInUse(b *testing.B) {
	var warm, after runtime.MemStats
	for i := 0; i < b.N; i++ {
		warm, after = heapInUse(b)
	}
	b.ReportMetric(float64(warm.HeapInuse>>10), "warm-heap-KiB")
	b.ReportMetric(float64(after.HeapInuse>>10), "after-heap-KiB")
	b.ReportMetric(float64(after.HeapInuse>>10)-float64(warm.HeapInuse>>10), "heap-growth-KiB")
	b.ReportMetric(float64(warm.HeapObjects), "warm-objects")
	b.ReportMetric(float64(after.HeapObjects), "after-objects")
}

// heapInUse serves one connection through the sequence and returns the
// heap's statistics after the warm-up and at the end.
func heapInUse(b *testing.B) (warm, after runtime.MemStats) {
	srv := newLoggedBankServer(b, serviceLog(b))
	defer srv.Close()
	c := dial(serveMcpgen(srv, investigator))
	defer c.close()
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	roundTrip := func(line []byte) []byte {
		resp, err := c.roundTrip(line)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	settled := func(ms *runtime.MemStats) {
		runtime.GC()
		runtime.GC() // the first may leave what finalizers and pools freed
		runtime.ReadMemStats(ms)
	}
	checkMemoryCalls(b, roundTrip)
	for i := 2; i < memoryCalls; i++ {
		roundTrip(memoryCall(i))
		if i+1 == memoryWarmup {
			settled(&warm)
		}
	}
	settled(&after)
	return warm, after
}

// The memory rows' calls: the traced call, corrected (valid) and as traced
// (invalid: the error path allocates most), alternately.
var (
	memoryValid   = callRequest(1, "payments.lookup", lookupV2Valid)
	memoryInvalid = callRequest(2, "payments.lookup", lookupInvalid)
)

// memoryCall is the i-th call of the sequence.
func memoryCall(i int) []byte {
	if i%2 == 0 {
		return memoryValid
	}
	return memoryInvalid
}

// checkMemoryCalls makes the sequence's first two calls and checks their
// answers: a server that answers neither right cannot look lean.
func checkMemoryCalls(b *testing.B, roundTrip func([]byte) []byte) {
	if resp := roundTrip(memoryCall(0)); bytes.Contains(resp, []byte(`"error"`)) || bytes.Contains(resp, []byte(`"isError":true`)) {
		b.Fatalf("valid call: %s", resp)
	}
	if resp := roundTrip(memoryCall(1)); !bytes.Contains(resp, []byte(`failed schema validation`)) {
		b.Fatalf("invalid call: %s", resp)
	}
}
