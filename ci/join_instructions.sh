#!/usr/bin/env bash
# Instructions per `join` on one worker, beyond the sequential call, under callgrind
# (instruction counts repeat exactly, whatever else the machine does).
#
# fib(n) makes fib(n+1)-1 joins. Each mode runs at two sizes; the difference between
# them cancels start-up, and the sequential difference is subtracted.
# Usage: bash ci/join_instructions.sh [N_SMALL N_LARGE]
set -euo pipefail
cd "$(dirname "$0")/.."
small="${1:-18}"
large="${2:-22}"
cargo build --release --quiet --example join_instructions
bin=target/release/examples/join_instructions

instructions() { # mode n
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
joins() { # n -> fib(n+1) - 1
  python3 -c "a,b=0,1
for _ in range($1+1): a,b=b,a+b
print(a-1)"
}

dj=$(( $(joins "$large") - $(joins "$small") ))
seq=$(( $(instructions seq "$large") - $(instructions seq "$small") ))
for mode in prorata rayon; do
  total=$(( $(instructions "$mode" "$large") - $(instructions "$mode" "$small") ))
  python3 -c "print(f'$mode: {($total - $seq) / $dj:.1f} instructions per join beyond the sequential call ({$total / $dj:.1f} in all; sequential {$seq / $dj:.1f})')"
done
