#!/usr/bin/env bash
# The sorts' soundness where the release test run cannot see it (tests/sort_soundness.rs
# runs in release in ci/test.sh, and its parallel subset under valgrind in
# ci/valgrind.sh):
# - in a build without optimisations, which reserves every buffer of a function in its
#   frame whether its path is taken or not: large elements must sort on a thread whose
#   stack holds only a few of them;
# - under Miri (nightly), the short slices with a panic at every few calls: Miri reports
#   any read of freed memory, double drop or read of uninitialised memory that a lost
#   change or a stale copy would cause, which a plain run sees only when the allocator
#   happens to notice. Tree Borrows, as crossbeam-epoch (the deques' memory reclamation)
#   breaks a Stacked Borrows rule that Tree Borrows does not have. Skipped, with a
#   warning, where no nightly toolchain with Miri can be had. Its own target directory.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --all-features --test sort_soundness -- --exact large_elements_fit_a_small_stack

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "sort_safety: WARNING: no nightly toolchain; Miri not run"
  exit 0
fi
if ! cargo +nightly miri --version >/dev/null 2>&1 &&
  ! rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1; then
  echo "sort_safety: WARNING: Miri is not installed and cannot be installed; not run"
  exit 0
fi
CARGO_TARGET_DIR="${MIRI_TARGET_DIR:-target/miri}" MIRIFLAGS="-Zmiri-tree-borrows" \
  cargo +nightly miri test --test sort_soundness -- --exact \
  short_slices_keep_every_change_with_a_panic_at_any_call
echo "sort_safety: no stack overflow; Miri found no undefined behaviour"
