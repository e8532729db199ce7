# mcpgen — the README's two commands are `make demo` and `make test`.
GO ?= go

.PHONY: test vet demo fuzz

# test runs every test of the module, with the race detector, after vet and
# a gofmt check.
test: vet
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

# demo runs the seed's worked example end to end.
demo:
	$(GO) run ./examples/worked

# fuzz runs each fuzz target for FUZZTIME (the seed corpora run in `make test`).
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./runtime/schema -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/schema -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/schema -run '^$$' -fuzz '^FuzzRepair$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/schema -run '^$$' -fuzz '^FuzzCanonical$$' -fuzztime $(FUZZTIME)
