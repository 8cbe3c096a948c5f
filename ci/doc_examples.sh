#!/usr/bin/env bash
# Every public item has a doc comment and an example (a doctest). rustdoc's coverage
# report says which lack one; it is a nightly option, so this step needs a nightly
# toolchain and is skipped (with a note) where none is installed. Its own target
# directory keeps nightly's artifacts apart from stable's.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "doc_examples: no nightly toolchain, skipped"
  exit 0
fi
CARGO_TARGET_DIR="${NIGHTLY_TARGET_DIR:-target/nightly}" \
  cargo +nightly rustdoc --lib --all-features -q -- \
  -Z unstable-options --show-coverage --output-format json |
  python3 -c '
import json, sys
report = json.load(sys.stdin)
gaps = [(f, c["total"] - c["with_docs"], c["total_examples"] - c["with_examples"])
        for f, c in sorted(report.items())
        if c["with_docs"] < c["total"] or c["with_examples"] < c["total_examples"]]
for f, docs, examples in gaps:
    print(f"{f}: {docs} item(s) without docs, {examples} without an example")
total = sum(c["total_examples"] for c in report.values())
print(f"doc_examples: {total - sum(g[2] for g in gaps)} of {total} items have an example")
sys.exit(1 if gaps else 0)
'
