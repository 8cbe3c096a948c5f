#!/usr/bin/env bash
# Instructions per allocator decision in the simulation (examples/simulate.rs), under
# callgrind (instruction counts repeat exactly, whatever else the machine does).
#
# After its warm-up, simulate makes each decision (each allocator call made under the
# permits' lock: request, contend, release, yield_core, tick, lapse, retire) within its
# function `measured`, and callgrind collects there only (--collect-atstart=no
# --toggle-collect='simulate::measured*'): the count is the allocator's own
# instructions and those of the thin `Simulator` call around each (the workers it
# returns, converted), without the simulation's bookkeeping and without the warm-up.
# It is divided by the decisions of the measured part (dec/s times the measured
# seconds, printed by the same run). Each decision's kind is split out from the
# inclusive counts of the `Simulator` methods (callgrind_annotate) and the calls of
# each kind (`simulate --calls on`).
#
# The simulated time of each configuration: 1 s of warm-up and 1 s measured, but
# 0.2 s and 0.1 s at 10,000 shares (a few minutes under callgrind);
# SPAN="WARM-UP MEASURED" sets the time of every configuration. The last column is the
# run's real time under callgrind, in seconds.
# Usage: bash ci/simulate_instructions.sh [CORES [SHARES [WORKLOADS [POLICIES]]]]
#   (lists with commas; default 256 10,100,1000,10000 server,request stride,lottery,multi)
set -euo pipefail
cd "$(dirname "$0")/.."
cores="${1:-256}"
shares="${2:-10,100,1000,10000}"
workloads="${3:-server,request}"
policies="${4:-stride,lottery,multi}"
cargo build --release --quiet --example simulate
bin=target/release/examples/simulate
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

span() { # shares policy -> "warm-up measured" (simulated seconds)
  if [[ -n "${SPAN:-}" ]]; then
    echo "$SPAN"
    return
  fi
  case "$1/$2" in
    10000/*) echo "0.2 0.1" ;;
    *) echo "1 1" ;;
  esac
}

echo "cores shares workload policy | simulated s: warm-up measured | decisions instr/dec | by kind: % of the decisions, % of the instructions, instructions each | s"
for workload in ${workloads//,/ }; do
  for policy in ${policies//,/ }; do
    for c in ${cores//,/ }; do
      for s in ${shares//,/ }; do
        read -r warm measured < <(span "$s" "$policy")
        if [[ "$warm" == - ]]; then
          printf '%4s %5s %6s %7s | left out (see the header)\n' "$c" "$s" "$workload" "$policy"
          continue
        fi
        seconds=$(python3 -c "print($warm + $measured)")
        start=$SECONDS
        valgrind --tool=callgrind --callgrind-out-file="$out/cg" --collect-atstart=no \
          --toggle-collect='simulate::measured*' "$bin" --cores "$c" --shares "$s" \
          --workload "$workload" --policy "$policy" --warm-up "$warm" --seconds "$seconds" \
          --calls on >"$out/log" 2>&1
        callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" >"$out/annotate" 2>/dev/null
        python3 - "$out/log" "$out/annotate" "$warm" "$measured" $((SECONDS - start)) <<'EOF'
import re, sys
log, annotate = open(sys.argv[1]).read(), open(sys.argv[2]).read()
warm, span, measured = sys.argv[3], sys.argv[4], float(sys.argv[4])
instructions = int(re.search(r"Collected : (\d+)", log).group(1))
row = next(l for l in log.splitlines() if re.match(r"^ *\d+ +\d+ +\w+ +\w+ \|", l))
name = row.split("|")[0].rstrip()
per_second = float(row.split("|")[-1].split()[0])
decisions = round(per_second * measured)
calls = {k: float(n) * measured for k, n in re.findall(r"(\w+) ([\d.]+) \(\d+ ns\)", log)}
inclusive = {k: int(n.replace(",", "")) for n, k in re.findall(
    r"^\s*([\d,]+) \([^)]*\)\s+\S*Simulator::(\w+) ", annotate, re.M)}
kinds = []
for kind, n in sorted(calls.items(), key=lambda kv: -inclusive.get(kv[0], 0)):
    if kind in inclusive:
        ins = inclusive[kind]
        kinds.append(f"{kind} {100 * n / decisions:.0f}% {100 * ins / instructions:.0f}% {ins / n:,.0f}")
    else:
        kinds.append(f"{kind} {100 * n / decisions:.0f}% ?")
print(f"{name} | {warm:>5} {span:>6} | {decisions:>9} {instructions / decisions:>10,.0f} | {', '.join(kinds)} | {sys.argv[5]}")
EOF
      done
    done
  done
done
