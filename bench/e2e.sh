#!/usr/bin/env bash
# End-to-end rate of `conform run`: requests per second, and the harness's
# own time per request (generation + checking, summed over workers), from
# the JSON report. Against the in-process reference by default, or a target:
#   bash bench/e2e.sh [--profile FILE] [--examples N] [--workers N]
# Uses build-release/conform when built (cmake --preset release), else build/conform.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build-release/conform
[ -x "$bin" ] || bin=build/conform
examples=20
workers=4
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --examples) examples=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    *) extra+=("$1"); shift ;;
  esac
done
report=$(mktemp)
trap 'rm -f "$report"' EXIT
start=$(date +%s.%N)
"$bin" run --seed 1 --examples "$examples" --workers "$workers" --no-progress --json "$report" \
  ${extra[@]+"${extra[@]}"} >/dev/null || true
end=$(date +%s.%N)
python3 - "$report" "$start" "$end" "$bin" "$examples" "$workers" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
start, end = float(sys.argv[2]), float(sys.argv[3])
t, c = r["timings"], r["counts"]
n = max(c["requests"], 1)
print(f"binary: {sys.argv[4]}, examples {sys.argv[5]}, workers {sys.argv[6]}")
print(f"target: {r['run']['target']['base_url']}")
print(f"requests: {c['requests']}, exit code {r['exit_code']}, failures {c['failures']}")
print(f"run wall: {t['wall_seconds']:.3f} s, process wall: {end - start:.3f} s")
print(f"rate: {c['requests'] / t['wall_seconds']:.0f} requests/s")
print(f"harness per request: generation {t['generation_seconds'] / n * 1e6:.1f} us, "
      f"checking {t['checking_seconds'] / n * 1e6:.1f} us")
print(f"transport per request (summed over workers): {t['transport_seconds'] / n * 1e6:.1f} us")
PY
