#!/usr/bin/env bash
# The crate as it would be published: `cargo package` builds the packaged sources on their
# own (what `cargo publish --dry-run` checks, without needing to upload), and the .crate
# file must stay under 1 MiB and hold no scratch (proptest regressions, traces, targets).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo package --locked
crate="$(ls target/package/prorata-*.crate | head -1)"
size="$(stat -c %s "$crate")"
echo "package: $crate, $size bytes, $(cargo package --list --locked | wc -l) files"
if [ "$size" -ge 1048576 ]; then
  echo "package: over 1 MiB" >&2
  exit 1
fi
if cargo package --list --locked | grep -E '^(proptest-regressions|target|shims|\.ci|ci)/|^docs/.*\.json$|^timeline\.(json|svg)$'; then
  echo "package: holds files a user does not need" >&2
  exit 1
fi
