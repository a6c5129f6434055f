#!/usr/bin/env bash
# Fuzzes every parser, one target at a time (go test -fuzz takes one).
#
# The targets are found in the test files (list_targets), so a new fuzz
# target is fuzzed without being listed anywhere.
#
# Two modes:
#   FUZZTIME unset or empty  an execution budget per target (-fuzztime Nx),
#                            sized below to about four seconds each on a
#                            2-core machine. This is what `make test` runs.
#                            A count budget sets no deadline, so Go 1.26's
#                            fuzzing-coordinator shutdown race at the
#                            -fuzztime deadline (golang/go#75804) cannot fire:
#                            a slow machine takes longer, it never fails.
#   FUZZTIME=30s, 5m, …      a time budget per target, for long local runs
#                            (`make fuzz`). A target that fails with only a
#                            bare "context deadline exceeded" — no reproducer
#                            written under testdata/fuzz/, no panic, no test
#                            error — is that race, and is run once more;
#                            anything else fails at once.
# FUZZ_TARGETS="./pkg:FuzzName …" restricts the run to those targets.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-}

# Execution budgets: about four seconds of fuzzing each on this project's
# 2-core machine (rates measured with -fuzztime 20000x). FuzzLoad first
# replays its ~700 seeds (the examples and bad inputs, about 10 s: every
# execution writes a fabric to a temporary directory), so it gets fewer
# executions. The printed "building" time is the instrumented compile,
# not the budget. Unlisted targets get default_budget.
default_budget=20000x
budget() {
  case "$1" in
    FuzzLoad) echo 1000x ;;
    FuzzVarValue|FuzzVarFile) echo 2000x ;;
    FuzzJunosStatement|FuzzShell|FuzzEOSConfig|FuzzEOSRunningConfig) echo 10000x ;;
    FuzzJSONPatch|FuzzParseSuppressions|FuzzHostQuoting) echo 25000x ;;
    FuzzParseConfig|FuzzParse) echo 25000x ;;
    FuzzParseHostScript|FuzzCompareConfigDB) echo 50000x ;;
    FuzzRead) echo 80000x ;;
    FuzzParseEOS|FuzzParseNXOS|FuzzParseJunos|FuzzParseNVUE|FuzzParseSONiC|FuzzParseHost) echo 5000x ;;
    FuzzReadQoS|FuzzParseFault|FuzzReadHost|FuzzReadSnapshots) echo 5000x ;;
    *) echo "$default_budget" ;;
  esac
}

# list_targets prints pkg:FuzzName for every fuzz target of the module,
# read from the test files `go list` names for each package (so build
# constraints count as they do for go test). A fuzz target is a top-level
# func FuzzXxx(f *testing.F) of a _test.go file, which gofmt puts at the
# start of a line. Unlike `go test -list '^Fuzz'`, this compiles nothing:
# under make test, whose test stage builds with -race, -list rebuilt every
# test binary without it (13-50 s). scripts/fuzz_test.go checks the list
# against a parse of every test file.
list_targets() {
  local line fields pkg dir file
  while IFS= read -r line; do
    IFS=$'\t' read -r -a fields <<<"$line"
    pkg=${fields[0]} dir=${fields[1]}
    for file in "${fields[@]:2}"; do
      grep -E '^func Fuzz[[:alnum:]_]*\([[:alnum:]_]+ \*testing\.F\)' "$dir/$file" |
        sed -E "s|^func (Fuzz[[:alnum:]_]*).*|$pkg:\\1|" || true
    done
  done < <("$GO" list -f '{{.ImportPath}}{{"\t"}}{{.Dir}}{{range .TestGoFiles}}{{"\t"}}{{.}}{{end}}{{range .XTestGoFiles}}{{"\t"}}{{.}}{{end}}' ./...)
}

if [ -n "${FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
else
  mapfile -t targets < <(list_targets)
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no fuzz targets found (no func FuzzXxx(*testing.F) in the test files go list names)" >&2
  exit 1
fi
# FUZZ_LIST=1 prints the targets and stops (scripts/fuzz_test.go).
if [ -n "${FUZZ_LIST:-}" ]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi

# corpus_files lists the fuzz inputs saved under the package's testdata.
corpus_files() {
  local dir=$1 fn=$2
  find "$dir/testdata/fuzz/$fn" -type f 2>/dev/null | sort || true
}

run_one() {
  local pkg=$1 fn=$2 ft=$3 log=$4
  "$GO" test -run '^$' -fuzz "^${fn}\$" -fuzztime "$ft" "$pkg" >"$log" 2>&1
}

total_start=$(date +%s)
for t in "${targets[@]}"; do
  pkg=${t%%:*}; fn=${t##*:}
  ft=${FUZZTIME:-$(budget "$fn")}
  dir=$("$GO" list -f '{{.Dir}}' "$pkg")
  log=$(mktemp)
  before=$(corpus_files "$dir" "$fn")
  start=$(date +%s)
  echo "fuzz $pkg $fn (-fuzztime $ft)"
  attempt=1
  while :; do
    if run_one "$pkg" "$fn" "$ft" "$log"; then
      tail -n 1 "$log"
      break
    fi
    after=$(corpus_files "$dir" "$fn")
    # A bare coordinator deadline: the only failure line is the deadline
    # error, no input was written and nothing panicked.
    if [[ $ft != *x ]] && [ $attempt -eq 1 ] && [ "$before" = "$after" ] &&
       grep -q '^    context deadline exceeded$' "$log" &&
       ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"; then
      echo "fuzz $fn: bare 'context deadline exceeded' with no input written (golang/go#75804); running it once more"
      attempt=2
      continue
    fi
    cat "$log"
    rm -f "$log"
    echo "fuzz $pkg $fn failed" >&2
    exit 1
  done
  # Go's own clock of the fuzzing (baseline coverage of the seeds and
  # cached corpus, then the executions); the rest is building the
  # instrumented test binary, which the first target of a changed package
  # tree pays for its dependencies.
  fuzzed=$(grep -oE '^fuzz: elapsed: [0-9]+s' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  rm -f "$log"
  wall=$(( $(date +%s) - start ))
  echo "fuzz $fn: ${wall}s (fuzzing ${fuzzed}s, building $(( wall > fuzzed ? wall - fuzzed : 0 ))s)"
done
echo "fuzz: ${#targets[@]} targets in $(( $(date +%s) - total_start ))s"
