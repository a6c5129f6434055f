GO ?= go
PKGS := ./...

.PHONY: build test vet fmt-check bench demo fuzz

build:
	$(GO) build -o bin/fabricgen ./cmd/fabricgen

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

test: vet fmt-check
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

demo:
	$(GO) run ./cmd/fabricgen demo
