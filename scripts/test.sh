#!/usr/bin/env bash
# make test: every check CI runs, stage by stage, with each stage's time.
# Stages: vet, gofmt, golangci-lint (.golangci.yml), the test suite under
# the race detector, and a bounded fuzz run of every parser (scripts/fuzz.sh,
# execution budgets).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
export GO

names=()
secs=()
summary() {
  echo
  echo "make test: stage times"
  local i
  for i in "${!names[@]}"; do
    printf '  %-10s %4ds\n' "${names[$i]}" "${secs[$i]}"
  done
}
stage() {
  local name=$1 start rc=0
  shift
  echo "==> $name: $*"
  start=$(date +%s)
  "$@" || rc=$?
  names+=("$name")
  secs+=("$(( $(date +%s) - start ))")
  if [ $rc -ne 0 ]; then
    summary
    echo "make test: stage $name failed (exit $rc)" >&2
    exit $rc
  fi
}

gofmt_check() {
  local files out
  files=$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*')
  out=$(gofmt -l $files)
  if [ -n "$out" ]; then
    echo "gofmt needed:"
    echo "$out"
    return 1
  fi
}

# golangci-lint at the version .ci/run installs (scripts/golangci-lint.version,
# the one place it is pinned); a machine without it skips the stage with a
# message naming it, except in CI.
GOLANGCI_LINT_VERSION=$(cat scripts/golangci-lint.version)
golangci_lint() {
  local bin
  bin=$(command -v golangci-lint || true)
  [ -n "$bin" ] || [ ! -x "$("$GO" env GOPATH)/bin/golangci-lint" ] || bin="$("$GO" env GOPATH)/bin/golangci-lint"
  if [ -z "$bin" ]; then
    if [ "${CI:-}" = true ]; then
      echo "golangci-lint not found; .ci/run installs it (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION)" >&2
      return 1
    fi
    echo "skipping: golangci-lint not installed (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION)"
    return 0
  fi
  "$bin" run ./...
}

# The SONiC render check reads the SONiC YANG models from ../shared/yang/sonic
# (beside the checkout); say so up front rather than in a failing test.
if [ ! -d ../shared/yang/sonic ] && command -v yanglint >/dev/null 2>&1; then
  echo "note: ../shared/yang/sonic (the SONiC YANG models, beside this checkout) is missing: TestSONiCYANG will fail; see README.md, \"The two commands\"" >&2
fi

all_start=$(date +%s)
stage vet "$GO" vet ./...
stage gofmt gofmt_check
stage lint golangci_lint
stage test "$GO" test -race -count=1 ./...
stage fuzz env FUZZTIME= scripts/fuzz.sh
summary
printf '  %-10s %4ds\n' total "$(( $(date +%s) - all_start ))"
