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

	valid := callRequest(1, "payments.lookup", lookupV2Valid)
	invalid := callRequest(2, "payments.lookup", lookupInvalid)
	if resp := roundTrip(valid); bytes.Contains(resp, []byte(`"error"`)) || bytes.Contains(resp, []byte(`"isError":true`)) {
		b.Fatalf("valid call: %s", resp)
	}
	if resp := roundTrip(invalid); !bytes.Contains(resp, []byte(`failed schema validation`)) {
		b.Fatalf("invalid call: %s", resp)
	}
	for i := 2; i < memoryCalls; i++ {
		if i%2 == 0 {
			roundTrip(valid)
		} else {
			roundTrip(invalid)
		}
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
