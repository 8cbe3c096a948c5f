#!/usr/bin/env bash
# Runs a representative subset of the tests and a short soak under valgrind memcheck,
# failing on any invalid read or write, any use of uninitialised memory, and any block
# "definitely lost" (leaks still reachable at exit, such as the global pool's threads,
# are not errors). Suppressions, each with its reason, are in ci/valgrind.supp.
#
# Part of .ci/run: it reuses the release test binaries ci/test.sh built and takes about
# 100 s on a 2-core machine (valgrind runs one thread at a time, 20-50x slower).
# VALGRIND_SOAK_SECS sets the soak's length (default 20). Too slow for the subset:
# tests/sort_panic.rs (18 minutes; the soak's sorts cover panicking comparators).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }

# The test binaries, built as ci/test.sh builds them (same features: no rebuild).
mapfile -t exes < <(cargo test --release --all-features --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        print(m["target"]["name"] + "=" + m["executable"])
')
exe() {
  for e in "${exes[@]}"; do
    if [[ "${e%%=*}" == "$1" ]]; then echo "${e#*=}"; return; fi
  done
  echo "valgrind.sh: no test binary named $1" >&2
  exit 1
}

supp=()
[[ -f ci/valgrind.supp ]] && supp=(--suppressions=ci/valgrind.supp)
memcheck() {
  local name="$1"; shift
  echo "== valgrind: $name $*"
  local start=$SECONDS
  valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
    --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --fair-sched=yes --num-callers=40 --quiet "${supp[@]}" \
    "$(exe "$name")" --test-threads=2 "$@"
  echo "== valgrind: $name passed in $((SECONDS - start)) s"
}

# The pool (join, scope, spawn, broadcast, panics, life cycle), the shares, panic
# safety of collect, the fault tests (their child processes run natively), parallel
# sorts of elements owning boxes that a comparator replaces (a lost change would leave a
# stale copy owning a freed box, which memcheck reports at its first read), and the
# soak with smaller inputs (its sorts cover panic safety of sorts with tracked items).
# tests/sort_panic.rs would also need a suppression: it leaks one probe per input on
# purpose (Box::leak for a 'static borrow), which memcheck rightly calls lost.
memcheck pool_api
memcheck pool_join
memcheck pool_panic
memcheck pool_lifecycle
memcheck shares_public
memcheck iter_collect_panics
memcheck faults
memcheck sort_soundness --exact boxed_elements_in_parallel_sorts
PRORATA_SOAK_SECS="${VALGRIND_SOAK_SECS:-20}" PRORATA_SOAK_MAX_LEN=20000 \
  PRORATA_SOAK_DEADLINE=600 memcheck soak --ignored --nocapture
echo "valgrind: no invalid access, nothing definitely lost"
