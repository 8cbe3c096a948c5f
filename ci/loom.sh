#!/usr/bin/env bash
# Model-checks the concurrency protocols with loom: latches, sleep/wake, join frames (and
# a thief that gives its claim up when the kernel refuses the barrier), retiring workers,
# core permits, the list of stalled starts and its timer, the hand-over of spare threads
# (unit tests named `loom_*` in
# src/pool/loom_tests.rs, src/pool/shares/ and src/shares/tests/, where each layer's sync.rs
# maps the protocols' atomics, mutexes and condvars to loom's), the BWoS deque and its robbers
# (src/deque/bwos/loom_tests.rs) and the trace feature's per-worker rings
# (src/trace/loom_tests.rs), and par_bridge's pulling loops, whose workers may leave
# a crowded lock (src/iter/sources/bridge/loom_tests.rs). The models compile only with
# `--cfg loom`.
# Builds into its own target directory because `--cfg loom` changes every crate; in
# release (loom explores tens of thousands of executions) with debug assertions on, so
# that the protocols' own checks (a BWoS thief finding a block not started yet, ...)
# fail a model too.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
  RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="${LOOM_TARGET_DIR:-target/loom}" \
  LOOM_MAX_PREEMPTIONS="${LOOM_MAX_PREEMPTIONS:-3}" \
  cargo test --release --lib loom
