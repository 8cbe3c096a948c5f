#!/usr/bin/env bash
# The test command from README.md (keep the two identical): every test, doctest and
# example build, with every cargo feature (`progress`) on. ci/msrv.sh checks that the
# library also builds with no feature.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --all-features
