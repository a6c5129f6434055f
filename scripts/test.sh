#!/usr/bin/env bash
# make test: every check CI runs, stage by stage, with each stage's time.
# Stages: vet, gofmt, the test suite under the race detector, and a
# bounded fuzz run of every parser (scripts/fuzz.sh, execution budgets).
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

all_start=$(date +%s)
stage vet "$GO" vet ./...
stage gofmt gofmt_check
stage test "$GO" test -race -count=1 ./...
stage fuzz env FUZZTIME= scripts/fuzz.sh
summary
printf '  %-10s %4ds\n' total "$(( $(date +%s) - all_start ))"
