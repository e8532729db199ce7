# mcpgen — the README's two commands are `make demo` and `make test`.
GO ?= go

.PHONY: test vet fmtcheck demo generate build fuzz

# test runs every test of the module with the race detector, after vet and
# a gofmt check. It includes the check that the committed generated code is
# what the generator writes today (examples/bankpayments, internal/difftest).
test: vet fmtcheck
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

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
# runs the seed's worked session against the built binary over stdio.
demo: build
	$(GO) run ./examples/bankpayments/demo -server bin/bankpayments

# fuzz runs each fuzz target for FUZZTIME (their seed corpora run in `make test`).
FUZZTIME ?= 30s
FUZZ_TARGETS = \
	./runtime/schema:FuzzValidate ./runtime/schema:FuzzParse ./runtime/schema:FuzzRepair \
	./runtime/schema:FuzzCanonical ./runtime/jsonrpc:FuzzDecode ./runtime/mcp:FuzzSessionHandle \
	./gen/manifest:FuzzLoad ./runtime/mcp:FuzzSessionAnswers ./internal/difftest:FuzzDecoders
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME); \
	done

.PHONY: conformance

# conformance runs the official MCP conformance suite (npm
# @modelcontextprotocol/conformance, on a Node.js 22 that npm installs into
# .cache/conformance) against the example services over Streamable HTTP, and
# the official TypeScript SDK client against bankpayments. A scenario listed
# in interop/conformance/<service>.yml as a known failure does not fail it;
# any other failure does, and so does a listed scenario that now passes.
conformance:
	bash interop/conformance/run.sh
