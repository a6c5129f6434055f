GO ?= go
PKGS := ./...

.PHONY: build install tag release docs test vet fmt-check lint bench demo fuzz

# VERSION, when set, is stamped into the binary (fabricgen version);
# without it the version comes from the build info (module version and
# git commit).
VERSION ?=
LDFLAGS := $(if $(VERSION),-X main.releaseVersion=$(VERSION))
# -buildvcs=auto stamps the git commit even where GOFLAGS says
# -buildvcs=false, and builds without it outside a git checkout.
BUILDFLAGS := -buildvcs=auto

build:
	$(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" -o bin/fabricgen ./cmd/fabricgen

install:
	$(GO) install $(BUILDFLAGS) -ldflags "$(LDFLAGS)" ./cmd/fabricgen

# A release tag: make tag VERSION=v0.3.0 (scripts/release.sh tag: clean
# tree, above the latest tag, pre-commit `rev:` pins moved to it, annotated tag).
tag:
	scripts/release.sh tag $(VERSION)

# Release archives for a tag: make release VERSION=v0.2.0 (scripts/release.sh;
# the tag must exist and point at HEAD).
release:
	GO=$(GO) scripts/release.sh $(VERSION)

# docs/cli/*.md and docs/man/*.1 from the commands (cobra/doc); a test
# fails when they are out of date.
docs:
	$(GO) test ./cmd/fabricgen -run '^TestCLIDocs$$' -count=1 -update

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

# Long fuzzing: every fuzz target (found in the test files, scripts/fuzz.sh) for FUZZTIME
# each, e.g. make fuzz FUZZTIME=5m; FUZZ_TARGETS="./schema:FuzzLoad" for one.
FUZZTIME ?= 30s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

demo:
	$(GO) run ./cmd/fabricgen demo
