GO ?= go
PKGS := ./...

.PHONY: build test vet fmt-check lint bench demo fuzz

build:
	$(GO) build -o bin/fabricgen ./cmd/fabricgen

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# golangci-lint with .golangci.yml (installed by .ci/run at a pinned version).
lint:
	PATH="$$($(GO) env GOPATH)/bin:$$PATH" golangci-lint run ./...

# vet, gofmt, golangci-lint, go test -race ./..., and every fuzz target with an execution
# budget; prints each stage's time (scripts/test.sh).
test:
	GO=$(GO) scripts/test.sh

# Long fuzzing: every fuzz target (found with go test -list) for FUZZTIME
# each, e.g. make fuzz FUZZTIME=5m; FUZZ_TARGETS="./schema:FuzzLoad" for one.
FUZZTIME ?= 30s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

demo:
	$(GO) run ./cmd/fabricgen demo
