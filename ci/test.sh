#!/usr/bin/env bash
# The test command from README.md (keep the two identical): every test, doctest and
# example build, with every cargo feature (`progress`) on. ci/msrv.sh checks that the
# library also builds with no feature. Then the pool, iterator and shares tests once
# more with the BWoS worker deque (every pool built without `ThreadPoolBuilder::deque`
# reads PRORATA_DEQUE), and the pool tests with plain fences instead of `membarrier` for
# the thieves (PRORATA_BARRIER=fence), with the deque that calls it most (BWoS); and the
# shares tests without wake-up preemption (PRORATA_WAKEUP_PREEMPTION=0).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --all-features
tests=()
for t in tests/pool_*.rs tests/iter_*.rs tests/shares_*.rs; do
  tests+=(--test "$(basename "$t" .rs)")
done
PRORATA_DEQUE=bwos cargo test --release --all-features "${tests[@]}"
pool_tests=()
for t in tests/pool_*.rs; do
  pool_tests+=(--test "$(basename "$t" .rs)")
done
PRORATA_BARRIER=fence PRORATA_DEQUE=bwos cargo test --release --all-features "${pool_tests[@]}"
share_tests=()
for t in tests/shares_*.rs; do
  share_tests+=(--test "$(basename "$t" .rs)")
done
PRORATA_WAKEUP_PREEMPTION=0 cargo test --release --all-features "${share_tests[@]}"
