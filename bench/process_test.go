package bench

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// goCommand is the go command of the toolchain the benchmarks were built
// with, for the rows that build code.
func goCommand() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

// buildCommand builds the main package pkg into tb's temporary directory
// and returns the binary's path.
func buildCommand(tb testing.TB, pkg string) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), filepath.Base(pkg))
	build := exec.Command(goCommand(), "build", "-o", bin, pkg)
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("building %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// stdioProcess is a server running as a process of its own, spoken to over
// its standard input and output, one line at a time.
type stdioProcess struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	in     *bufio.Writer
	out    *bufio.Reader
	tb     testing.TB
	closed bool
}

// startProcess starts bin with args; its standard error (a service's call
// log) goes to the null device, so that no goroutine of the benchmark's
// wakes to drain it.
func startProcess(tb testing.TB, bin string, args ...string) *stdioProcess {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p := &stdioProcess{cmd: cmd, stdin: stdin, in: bufio.NewWriter(stdin), out: bufio.NewReaderSize(stdout, 1<<16), tb: tb}
	tb.Cleanup(p.close)
	return p
}

// close ends the process's input and waits for it to exit.
func (p *stdioProcess) close() {
	if p.closed {
		return
	}
	p.closed = true
	p.stdin.Close()
	p.cmd.Wait()
}

// startBankService starts the bankpayments service over stdio as the row's
// principal, answering from the ledger on the date of lookupV2Valid, and
// runs the handshake.
func startBankService(tb testing.TB, bin string) *stdioProcess {
	tb.Helper()
	p := startProcess(tb, bin, "-agent", "bench", "-tenant", "wholesale",
		"-scopes", "payments.read,crm.write", "-clearance", "confidential",
		"-snapshot-date", "2026-03-12")
	if resp := p.roundTrip(append(initializeRequest(protocolVersion), '\n')); !bytes.Contains(resp, []byte(`"protocolVersion"`)) {
		tb.Fatalf("initialize: %s", resp)
	}
	p.send([]byte(initializedNotification + "\n"))
	return p
}

// send writes line (with its newline).
func (p *stdioProcess) send(line []byte) {
	if _, err := p.in.Write(line); err != nil {
		p.tb.Fatal(err)
	}
	if err := p.in.Flush(); err != nil {
		p.tb.Fatal(err)
	}
}

// roundTrip writes line and returns the next line read, which is valid
// until the next read.
func (p *stdioProcess) roundTrip(line []byte) []byte {
	p.send(line)
	resp, err := p.out.ReadSlice('\n')
	if err != nil {
		p.tb.Fatal(err)
	}
	return resp
}

// BenchmarkStdioProcess is one tools/call at a time to the bankpayments
// service running as a process, over real pipes, each call's latency
// recorded: what a client of a stdio server waits. "line-echo" is a process
// that writes each line back (cmd/lineecho): the pipes and the two
// processes' wake-ups alone. p50-ns, p90-ns and p99-ns are the latencies'
// percentiles, slow-% the share of calls over 30 µs: on a machine whose
// idle cores sleep, a share of the round trips wait for one to wake, for
// any server (compare the two rows).
func BenchmarkStdioProcess(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the service's flags and pipes are measured on linux")
	}
	line := callRequest(1, "payments.lookup", lookupV2Valid)
	run := func(b *testing.B, p *stdioProcess, check func([]byte)) {
		check(p.roundTrip(line))
		lat := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			t0 := time.Now()
			p.roundTrip(line)
			lat = append(lat, time.Since(t0))
		}
		b.StopTimer()
		slices.Sort(lat)
		slow := len(lat) - atMost(lat, 30*time.Microsecond)
		b.ReportMetric(float64(percentile(lat, 50)), "p50-ns")
		b.ReportMetric(float64(percentile(lat, 90)), "p90-ns")
		b.ReportMetric(float64(percentile(lat, 99)), "p99-ns")
		b.ReportMetric(100*float64(slow)/float64(len(lat)), "slow-%")
	}
	b.Run("impl=mcpgen", func(b *testing.B) {
		p := startBankService(b, buildCommand(b, "github.com/mcpgen/mcpgen/examples/bankpayments"))
		run(b, p, func(resp []byte) {
			if !bytes.Contains(resp, []byte(lookupText("PMT-771"))) {
				b.Fatalf("tools/call: %s", resp)
			}
		})
	})
	b.Run("impl=line-echo", func(b *testing.B) {
		p := startProcess(b, buildCommand(b, "github.com/mcpgen/mcpgen/bench/cmd/lineecho"))
		run(b, p, func(resp []byte) {
			if !bytes.Equal(resp, line) {
				b.Fatalf("echo: %s", resp)
			}
		})
	})
}

// atMost is how many of the sorted latencies are at most d.
func atMost(sorted []time.Duration, d time.Duration) int {
	n, _ := slices.BinarySearch(sorted, d+1)
	return n
}
