#!/usr/bin/env bash
# The shim crates `rayon` and `rayon-core` (shims/): a workspace whose library uses Rayon,
# with indexmap's and hashbrown's `rayon` features, is patched onto prorata. Its tests
# must pass (the library's parallel work runs on prorata's pools, with std's results),
# every path of Rayon's API must resolve through the shims, and `cargo tree` must hold no
# `rayon` or `rayon-core` but the shims.
set -euo pipefail
cd "$(dirname "$0")/../shims/check"
cargo test --locked
tree="$(cargo tree --locked -e normal,build,dev --prefix none)"
if grep -E '^rayon(-core)? v' <<<"$tree" | grep -v '/shims/rayon'; then
  echo "shims: a rayon crate from outside the shims is in the tree" >&2
  exit 1
fi
grep -qE '^rayon v[0-9.]+ \(.*/shims/rayon\)' <<<"$tree"
grep -qE '^rayon-core v[0-9.]+ \(.*/shims/rayon-core\)' <<<"$tree"
echo "shims: the workspace builds and passes on prorata; no rayon from crates.io"
