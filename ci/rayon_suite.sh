#!/usr/bin/env bash
# Rayon's own test suite, run against prorata: the integration tests (tests/*.rs) and the
# doc examples (src/**/*.rs, `compile_fail` ones included) of the published rayon and
# rayon-core, at the versions in Cargo.lock, with `rayon::` and `rayon_core::` renamed to
# `prorata::` (ci/rayon_suite.py). A behaviour of Rayon that prorata loses, such as a sort
# that stops being panic-safe, fails here the day it happens.
#
# Nothing of Rayon is kept in the repository: the sources come from the registry (cargo
# metadata downloads them) and the package that runs them is generated under
# target/rayon-suite, with the tests' dev-dependencies (rand, rand_xorshift, ...) at the
# versions rayon's and rayon-core's Cargo.toml ask. The unit tests inside Rayon's src/
# (`#[cfg(test)]` modules, src/**/test.rs) use the crates' internals and cannot run
# against another crate; they are left out.
#
# Unoptimised, as Rayon runs its suite: so prorata's debug assertions and overflow checks
# run too (every other step is --release), and the build takes a third of the time
# (tests/clones.rs alone: 5 s of CPU instead of 35 s).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/rayon-suite

# The sources of the locked rayon and rayon-core (only this platform's packages fetched).
host="$(rustc -vV | sed -n 's/^host: //p')"
metadata="$(cargo metadata --locked --format-version 1 --filter-platform "$host")"
dirs="$(python3 ci/rayon_suite.py sources <<<"$metadata")"
read -r rayon core <<<"$dirs"

python3 ci/rayon_suite.py manifest "$out/Cargo.toml" "$rayon/Cargo.toml" "$core/Cargo.toml"
python3 ci/rayon_suite.py tests "$out/tests" "$rayon" "$core"
python3 ci/rayon_suite.py docs "$out/src" "$rayon" "$core"
# prorata's own dependencies at the versions it is tested with; cargo adds the rest.
[ -f "$out/Cargo.lock" ] || cp Cargo.lock "$out/"

# The tests left out, each by its exact name with the reason; none today: every test and
# doc example of rayon 1.12 and rayon-core 1.13 uses only what both crates make public.
#   --skip NAME   # why
# (The closing line's "skipped" also counts the two #[ignore] tests of rayon-core's
# tests/stack_overflow_crash.rs, which its stack_overflow_crash test runs in a child.)
skip=()

files="$(ls "$out/tests" | wc -l)"
echo "rayon_suite: $files test files of $(basename "$rayon") and $(basename "$core")"
status=0
(cd "$out" && CARGO_TARGET_DIR=.. cargo test --no-fail-fast -- --exact "${skip[@]}") 2>&1 |
  tee "$out/test.log" || status=$?
awk '/^test result:/ { p += $4; f += $6; s += $8 + $12 }
  END { printf "rayon_suite: %d passed, %d failed, %d skipped\n", p, f, s }' "$out/test.log"
exit "$status"
