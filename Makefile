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
	$(MAKE) fuzz FUZZTIME=5s

# Every parser's fuzz target, a short run each (go test -fuzz takes one target at a time).
FUZZTIME ?= 30s
FUZZ_TARGETS := ./schema:FuzzLoad ./lint:FuzzParseSuppressions ./lint:FuzzParseConfig \
	./push/config:FuzzParse ./push/config:FuzzParseHostScript ./lab:FuzzShell \
	./lab:FuzzEOSConfig ./lab:FuzzJunosStatement ./lab:FuzzJSONPatch

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

demo:
	$(GO) run ./cmd/fabricgen demo
