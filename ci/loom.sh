#!/usr/bin/env bash
# Model-checks the concurrency protocols (latches, sleep/wake, retiring workers, core
# permits, the trace feature's per-worker rings) with loom. The models are
# unit tests named `loom_*` in src/pool/loom_tests.rs (and beside them in shares/ and
# trace/), compiled only with `--cfg loom`, where each layer's sync.rs maps the
# protocols' atomics, mutexes and condvars to loom's.
# Builds into its own target directory because `--cfg loom` changes every crate.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="${LOOM_TARGET_DIR:-target/loom}" \
  LOOM_MAX_PREEMPTIONS="${LOOM_MAX_PREEMPTIONS:-3}" \
  cargo test --release --lib loom
