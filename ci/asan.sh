#!/usr/bin/env bash
# AddressSanitizer (nightly toolchain): the same subset as ci/valgrind.sh and a short
# soak, built with -Zsanitizer=address into its own target directory. Faster than
# valgrind and runs the threads truly in parallel, so it sees interleavings valgrind's
# one-thread-at-a-time scheduler does not; valgrind sees uninitialised reads, which
# ASan does not. Leak checking (LeakSanitizer) is on, as in valgrind.sh; Rayon's
# deliberate leak of a use_current_thread worker (see ci/valgrind.supp) is suppressed
# in ci/lsan.supp. Not part of .ci/run: the build alone takes minutes on a small
# machine. ASAN_SOAK_SECS sets the soak's length (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
target="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=address"
export RUSTDOCFLAGS="-Zsanitizer=address"
export CARGO_TARGET_DIR="${ASAN_TARGET_DIR:-target/asan}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$PWD/ci/lsan.supp:print_suppressions=0"
tests=(pool_api pool_join pool_panic pool_lifecycle shares_public iter_collect_panics sort_panic sort_soundness alloc faults)
args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done
# The two fault tests that lower a child's address-space limit cannot run under ASan,
# whose shadow memory needs terabytes of address space.
cargo +nightly test --release --target "$target" "${args[@]}" -- \
  --skip num_threads_beyond_the_os_limit --skip share_whose_workers_cannot_start
# The deques' own tests: the BWoS race tests free replaced rings and blocks while
# thieves run (through crossbeam-epoch), which ASan checks for use after free.
cargo +nightly test --release --target "$target" --lib deque::
PRORATA_SOAK_SECS="${ASAN_SOAK_SECS:-30}" PRORATA_SOAK_WORKERS=4 \
  cargo +nightly test --release --target "$target" --test soak -- --ignored --nocapture
echo "asan: no invalid access, no leak"
