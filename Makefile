# mcpgen — the README's two commands are `make demo` and `make test`.
GO ?= go

.PHONY: test vet fmtcheck demo generate build fuzz

# TEST_MODULES are the nested modules whose tests `make test` runs after the
# main module's: they hold what needs the official Go SDK (the sdkclient
# adapter, the conformance suite's client and the interop tests) and the benchmark anchors (bench/: its
# tests check that every anchor agrees with mcpgen on each input, and
# that the rows call what they say), so that none of them enters the main
# module's requirements. bench/'s benchmarks themselves run in `make bench`.
TEST_MODULES = runtime/client/sdkclient examples/conformance-client interop bench

# test runs every test of the module and of TEST_MODULES with the race
# detector, after vet and a gofmt check. It includes the check that the
# committed generated code is what the generator writes today
# (examples/bankpayments, internal/difftest).
# TEST_TIMEOUT is a package's limit: the race detector makes the nesting
# and difftest packages take minutes on 2 busy cores, past go test's
# default of 10.
TEST_TIMEOUT ?= 30m
test: vet fmtcheck
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...
	@for m in $(TEST_MODULES); do echo "cd $$m && $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./..."; (cd $$m && $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...) || exit 1; done

vet:
	$(GO) vet ./...
	@for m in $(TEST_MODULES); do (cd $$m && $(GO) vet ./...) || exit 1; done

fmtcheck:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi

# generate regenerates every generated package from its manifests.
generate:
	$(GO) generate ./examples/... ./internal/...

build: generate
	$(GO) build -o bin/mcpgen ./cmd/mcpgen
	$(GO) build -o bin/bankpayments ./examples/bankpayments

# demo generates the bank's package from manifests/, builds the service and
# runs a worked session against the built binary over stdio.
demo: build
	$(GO) run ./examples/bankpayments/demo -server bin/bankpayments

# fuzz runs each fuzz target for FUZZTIME (the inputs they start from, f.Add's and
# testdata/fuzz's, run in `make test`).
# Every target runs to its end whatever the others found, and each is
# reported; the run fails when any target did. A failing input is kept in
# the target's testdata/fuzz, so `make test` replays it from then on.
# FUZZMINIMIZETIME bounds the shrinking of each input that reaches new
# code: go test's default, a minute, is longer than FUZZTIME, and a target
# whose inputs are slow to run (a stream served whole, a server made per
# input) spent most of its run shrinking one input at 0 execs/s. With 5 s,
# FuzzServeStreamAnswers ran 52,824 inputs in 30 s and found 17 that reach
# new code, against 39,513 and 1 (an empty fuzz cache each time: `go test
# ./runtime/mcp -run '^$' -fuzz '^FuzzServeStreamAnswers$' -fuzztime 30s
# [-fuzzminimizetime 5s]`). A failing input is shrunk for as long.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s
FUZZ_TARGETS = \
	./runtime/schema:FuzzValidate ./runtime/schema:FuzzParse ./runtime/schema:FuzzRepair \
	./runtime/schema:FuzzCanonical ./runtime/schema:FuzzClassify ./runtime/schema:FuzzCompilePattern ./runtime/schema:FuzzFixedShape \
	./runtime/schema:FuzzFormats ./runtime/jsonrpc:FuzzDecode \
	./runtime/mcp:FuzzSessionHandle ./runtime/internal/textdec:FuzzValidate \
	./gen/manifest:FuzzLoad ./runtime/mcp:FuzzSessionAnswers ./runtime/mcp:FuzzRequestSizes ./runtime/mcp:FuzzOpenRequestState \
	./runtime/mcp:FuzzServeStreamAnswers ./runtime/internal/textdec:FuzzValidUTF8 ./runtime/internal/textdec:FuzzQuote \
	./runtime/internal/textdec:FuzzCodePoints ./runtime/internal/textdec:FuzzScanText ./runtime/decode:FuzzSkip \
	./internal/difftest:FuzzDecoders ./internal/structfill:FuzzCopy \
	./runtime/encode:FuzzFloat ./gen/emit:FuzzGenerate
fuzz:
	@failed=""; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) || failed="$$failed $$t"; \
	done; \
	echo "fuzz results:"; \
	for t in $(FUZZ_TARGETS); do \
		case " $$failed " in *" $$t "*) echo "  FAIL $$t";; *) echo "  ok   $$t";; esac; \
	done; \
	test -z "$$failed"

.PHONY: conformance

# conformance runs the official MCP conformance suite (npm
# @modelcontextprotocol/conformance, on a Node.js 22 that npm installs into
# .cache/conformance) against the example services over Streamable HTTP, and
# the official TypeScript SDK client against bankpayments. A scenario listed
# in interop/conformance/<service>.yml as a known failure does not fail it;
# any other failure does, and so does a listed scenario that now passes.
conformance:
	bash interop/conformance/run.sh

# bench measures mcpgen against its anchors, side by side in one run, in the
# bench module (its own go.mod: the anchors never enter this module's
# dependencies). The rows of the decode, call (one at a time, pipelined, and
# with the call log on and off), HTTP and list groups each run
# in a process of their own (bench/cmd/benchrun), so that no row's garbage
# lands on another's clock; each row runs BENCH_COUNT times, the rows'
# order rotating between rounds (generation and builds run fewer: each
# takes seconds; the memory row six times, about 50 seconds, since a
# process's resident set after 100,000 calls moves by hundreds of KiB from
# one process to the next); benchstat summarises every result
# and bench/cmd/benchtable prints the one table with ratios and goals that
# docs/benchmarks.md records. BENCH_BUILD_SIZES=100,1000,5000 adds the
# go builds of the 1,000- and 5,000-tool packages (2 and 11 minutes each;
# the generated package has shards past 256 versions, see
# docs/benchmarks.md); BENCH_BUILD_COUNT=1 then keeps the run under 40
# minutes. Not part of `make test`.
# The HTTP group (28 results: 6 servers; the raw client with 1, 8 and 32
# concurrent clients, the SDK client with 1 and 8) runs 6 times, the
# fewest that give benchstat an interval, for 300 ms each: with b.N's ramp
# and the sessions opened, well under a second per result, so about two
# minutes on 2 cores. 300 ms is still some
# 3,000 calls per run for mcpgen (its p99 rests on the slowest 30) and a few
# hundred for the slowest anchor, whose p50 is what mcpgen's p99 is held
# against. The HTTP handler group is that call through each handler in
# process (no connection, no client on the clock): the server's own part.
# BenchmarkPipelinedServer serves the pipelined calls from memory one
# session on both cores, on one core and two sessions, the three taking
# turns within each process (30 rounds of 20,000 calls each, six
# processes, about half a minute): the pipelined row's use of the second
# core without the client, measured to a few percent.
# BenchmarkCallLog makes calls on one session with its call log on and off
# in turn (20 rounds of 10,000 calls each way, six processes of each path,
# about half a minute): the call log rows' verdict, without the 20% to 40%
# a row's time moves by from one process to the next.
# BenchmarkCoreStalls, first, measures the machine: how much of its time
# a thread that never blocks loses to stalls, alone and with every core
# busy (the table's "stalls" line), which the two-core rows pay too.
.PHONY: bench
BENCH_COUNT ?= 10
BENCH_BUILD_SIZES ?= 100
BENCH_BUILD_COUNT ?= 3
BENCH_OUT = bench/out
BENCH_TEST = cd bench && GOFLAGS=-mod=mod $(GO) test -run '^$$' -timeout 60m
BENCH_ROWS = cd bench && GOFLAGS=-mod=mod $(GO) run ./cmd/benchrun -test out/bench.test
bench:
	@rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	cd bench && GOFLAGS=-mod=mod $(GO) test -c -o out/bench.test .
	$(BENCH_ROWS) -bench '^BenchmarkCoreStalls$$' -benchtime 300x -count 3 > out/stalls.txt || (cat out/stalls.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkDecode$$' -benchtime 100ms -count $(BENCH_COUNT) > out/decode.txt || (cat out/decode.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkCall$$' -benchtime 100ms -count $(BENCH_COUNT) > out/call.txt || (cat out/call.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkCallPipelined$$' -benchtime 100ms -count $(BENCH_COUNT) > out/pipelined.txt || (cat out/pipelined.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkPipelinedServer$$' -benchtime 600000x -count 6 > out/pipelinedserver.txt || (cat out/pipelinedserver.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkPipelinedInTurn$$' -benchtime 1000000x -count 6 > out/pipelinedturns.txt || (cat out/pipelinedturns.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkCallHandle$$' -benchtime 100ms -count $(BENCH_COUNT) > out/calllog.txt || (cat out/calllog.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkCallLog$$' -benchtime 400000x -count 6 > out/calllogturns.txt || (cat out/calllogturns.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkHTTP$$' -benchtime 300ms -count 6 > out/http.txt || (cat out/http.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkHTTPHandler$$' -benchtime 100ms -count $(BENCH_COUNT) > out/handler.txt || (cat out/handler.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkList$$' -benchtime 300ms -count $(BENCH_COUNT) > out/list.txt || (cat out/list.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkListScale$$' -benchtime 100ms -count 5 > out/scale.txt || (cat out/scale.txt; exit 1)
	$(BENCH_ROWS) -bench '^BenchmarkListPages$$' -benchtime 100ms -count $(BENCH_COUNT) > out/pages.txt || (cat out/pages.txt; exit 1)
	$(BENCH_TEST) -bench '^BenchmarkGenerate$$' -benchtime 1x -count 3 > out/generate.txt || (cat out/generate.txt; exit 1)
	$(BENCH_TEST) -bench '^BenchmarkBuild$$' -benchtime 1x -count $(BENCH_BUILD_COUNT) -args -build-sizes=$(BENCH_BUILD_SIZES) > out/build.txt || (cat out/build.txt; exit 1)
	$(BENCH_TEST) -bench '^BenchmarkResidentMemory$$' -benchtime 1x -count 6 > out/memory.txt || (cat out/memory.txt; exit 1)
	$(BENCH_TEST) -bench '^BenchmarkStdioProcess$$' -benchtime 20000x -count 3 > out/process.txt || (cat out/process.txt; exit 1)
	cd bench && GOFLAGS=-mod=mod $(GO) run golang.org/x/perf/cmd/benchstat out/*.txt > out/benchstat.txt
	cd bench && GOFLAGS=-mod=mod $(GO) run ./cmd/benchtable out/*.txt

# bench-instructions counts what one iteration of the rows that keep one
# core busy executes (bench/cmd/benchrun -instructions: valgrind's
# cachegrind, the difference of N and 5N iterations), for telling whether
# a change made a row do less where its time, on a loaded or virtual
# machine, moves by a quarter from one process to the next: run it at two
# commits and benchstat the two files. A count is not a time (see
# docs/benchmarks.md, "Counting instead of timing"). About two minutes;
# needs valgrind. Not part of `make test`.
.PHONY: bench-instructions
BENCH_INSTR_N ?= 20000
bench-instructions:
	@mkdir -p $(BENCH_OUT)
	cd bench && GOFLAGS=-mod=mod $(GO) test -c -o out/bench.test .
	$(BENCH_ROWS) -bench '^BenchmarkDecode$$/.*/^impl=mcpgen$$' -instructions $(BENCH_INSTR_N) -count 1 > out/instructions.txt
	$(BENCH_ROWS) -bench '^BenchmarkCall(Handle)?$$/^(impl=mcpgen(-logged)?|log=o(n|ff))$$' -instructions $$(( $(BENCH_INSTR_N) / 4 )) -count 1 >> out/instructions.txt
	cat $(BENCH_OUT)/instructions.txt
