#!/usr/bin/env bash
# The minimum supported Rust version: the library, with no feature and with every
# feature, must build with the toolchain named by `rust-version` in Cargo.toml
# (installed here if missing). Only the library: tests, benches and examples need newer
# dev-dependencies (criterion 0.8 needs 1.86, proptest 1.12 needs 1.88), and users
# build only the library. Its own target directory keeps the old toolchain's artifacts
# apart.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
test -n "$msrv" || { echo "msrv: no rust-version in Cargo.toml"; exit 1; }
# "1.85" means 1.85.0, the oldest release it allows.
toolchain=$msrv
[[ $toolchain =~ ^[0-9]+\.[0-9]+$ ]] && toolchain=$toolchain.0
if ! rustup toolchain list | grep "^$toolchain-" >/dev/null &&
  ! rustup toolchain install "$toolchain" --profile minimal --no-self-update; then
  # No way to get the toolchain here (no network to the Rust dist server): say so
  # loudly rather than fail the whole run on the machine's configuration.
  echo "msrv: WARNING: Rust $toolchain is not installed and cannot be installed; not checked"
  exit 0
fi
export CARGO_TARGET_DIR="${MSRV_TARGET_DIR:-target/msrv}"
cargo +"$toolchain" check --lib --locked
cargo +"$toolchain" check --lib --all-features --locked
echo "msrv: the library builds with Rust $toolchain"
