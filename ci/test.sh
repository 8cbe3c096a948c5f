#!/usr/bin/env bash
# The test command from README.md (keep the two identical).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release
