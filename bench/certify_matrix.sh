#!/usr/bin/env bash
# The certification matrix of issues 19 and 31: the correct clients of three
# stacks (C++ examples/partner_client, Python stdlib, Node fetch) and their
# correct variants (issue 31: exit 1 after giving up, two read operations
# only, credit moves only, a form rebuilt on every attempt) certified on
# seeds 1..N (a refusal is a false refusal), and every planted defect of
# examples/partner_client --list-defects on the same seeds (a defect counts
# as caught when the rule named for it failed). Prints the false refusals
# and the mutation score (defects refused by their own rule, out of all
# defect runs), per stack and per defect; docs/certification.md keeps the
# figures. Each certification is a process of its own; they run JOBS at a
# time (they mostly wait: backoffs, Retry-After, slow answers).
#   bash bench/certify_matrix.sh [--seeds N] [--jobs N] [--build DIR] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=20
jobs=4  # each certification runs its client in four passes at once
build=build
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: bench/certify_matrix.sh [--seeds N] [--jobs N] [--build DIR] [--keep DIR]" >&2; exit 2 ;;
  esac
done
conform=$build/conform
client=$build/examples/conform-partner-client
for f in "$conform" "$client"; do
  [ -x "$f" ] || { echo "certify_matrix: $f is not built (bash scripts/build.sh dev)" >&2; exit 2; }
done
for p in python3 node; do
  command -v "$p" >/dev/null || { echo "certify_matrix: $p is not installed (scripts/deps.sh)" >&2; exit 2; }
done
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT

# One line per certification: NAME SEED RULE COMMAND... (RULE "-" for a correct client).
list=$out/jobs.txt
: >"$list"
for s in $(seq 1 "$seeds"); do
  echo "cpp $s - $client" >>"$list"
  echo "python $s - python3 examples/partner_client_py/client.py" >>"$list"
  echo "node $s - node examples/partner_client_node/client.mjs" >>"$list"
  echo "cpp+exit-on-give-up $s - $client --exit-on-give-up" >>"$list"
  for v in "exit-on-give-up:--exit-on-give-up" "sessions-only:--only sessions" \
    "credits-only:--only credits" "rebuild-multipart:--rebuild-multipart"; do
    echo "python+${v%%:*} $s - python3 examples/partner_client_py/client.py ${v#*:}" >>"$list"
    echo "node+${v%%:*} $s - node examples/partner_client_node/client.mjs ${v#*:}" >>"$list"
  done
  "$client" --list-defects | while read -r defect rule; do
    echo "defect:$defect $s $rule $client --defect $defect" >>"$list"
  done
done
start=$(date +%s)
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c '
  name=$0 seed=$1 rule=$2; shift 2
  "'"$conform"'" certify --seed "$seed" --json "'"$out"'/$name.$seed.json" -- "$@" \
    >"'"$out"'/$name.$seed.log" 2>&1
  echo "$name $seed $rule $?" >>"'"$out"'/results.txt"
' <"$list"
end=$(date +%s)
python3 - "$out" "$seeds" "$((end - start))" "$jobs" <<'PY'
import json, os, sys
from collections import defaultdict
out, seeds, secs, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
stacks = defaultdict(lambda: [0, 0])      # stack -> [runs, refused]
defects = defaultdict(lambda: [0, 0])     # defect -> [runs, caught by its rule]
refusals, misses = [], []
for line in open(os.path.join(out, "results.txt")):
    name, seed, rule, status = line.split()
    path = os.path.join(out, "%s.%s.json" % (name, seed))
    try:
        report = json.load(open(path))
    except (OSError, ValueError):
        report = None
    if rule == "-":
        stacks[name][0] += 1
        if report is None or not report["certified"]:
            stacks[name][1] += 1
            refusals.append("%s seed %s: %s" % (name, seed,
                            report["verdict"] if report else "no report (exit %s)" % status))
        continue
    defect = name.split(":", 1)[1]
    defects[defect][0] += 1
    failed = report is not None and (
        any(r["check"] == rule and r["status"] == "failed" for r in report["rules"])
        or any(f["check"] == rule for f in report["failures"]))
    if failed and not report["certified"]:
        defects[defect][1] += 1
    else:
        misses.append("%s seed %s: %s" % (defect, seed, report["verdict"] if report else "no report"))
runs = sum(r for r, _ in stacks.values()) + sum(r for r, _ in defects.values())
print("certify matrix: %d certifications, seeds 1..%d, %s at a time, %d s" % (runs, seeds, jobs, secs))
print()
print("correct clients and variants (a refusal is a false refusal):")
for s in sorted(stacks):
    print("  %-26s %2d runs, %d false refusals" % (s, stacks[s][0], stacks[s][1]))
false = sum(x for _, x in stacks.values())
print("  total    %d false refusals out of %d" % (false, sum(r for r, _ in stacks.values())))
print()
caught = sum(c for _, c in defects.values())
total = sum(r for r, _ in defects.values())
print("defects (caught: refused by the rule named for it):")
for d in sorted(defects):
    print("  %-22s %2d/%d" % (d, defects[d][1], defects[d][0]))
print("  mutation score %d/%d = %.1f %% (%d defects x %d seeds)" %
      (caught, total, 100.0 * caught / max(total, 1), len(defects), seeds))
for r in refusals:
    print("FALSE REFUSAL " + r)
for m in misses:
    print("MISSED " + m)
sys.exit(0 if false == 0 and caught == total else 1)
PY
