#!/usr/bin/env bash
# Model-checks the concurrency protocols (latches, sleep/wake, permits) with loom.
# Builds into its own target directory because `--cfg loom` changes every crate.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ls tests/loom*.rs >/dev/null 2>&1; then
  echo "loom: no models yet"
  exit 0
fi
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
  LOOM_MAX_PREEMPTIONS="${LOOM_MAX_PREEMPTIONS:-3}" \
  cargo test --release --lib --tests loom
