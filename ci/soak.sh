#!/usr/bin/env bash
# The soak (tests/soak/): random operations of every kind from 4 threads at once, every
# result, item, panic and worker accounted for, a watchdog for deadlocks, resident
# memory checked flat. CI runs it for 20 s on pools of up to 2 workers and 20 s on
# pools of up to 8; a failure prints its seed (PRORATA_SOAK_SEED replays it).
# The long runs of the reliability report: PRORATA_SOAK_SECS=600 bash ci/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${PRORATA_SOAK_SECS:-20}"
for workers in 2 8; do
  PRORATA_SOAK_SECS="$secs" PRORATA_SOAK_WORKERS="$workers" \
    cargo test --release --all-features --test soak -- --ignored --nocapture
done
