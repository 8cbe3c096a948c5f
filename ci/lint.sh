#!/usr/bin/env bash
# Formatting, lints and documentation, all with warnings denied, with every cargo feature
# on (the features only add code), and the docs once more without features (what a user's
# `cargo doc` builds, so no link may need a feature); then the check that every public item has an example.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check
cargo clippy --all-targets --all-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --all-features
bash ci/doc_examples.sh
