#!/usr/bin/env bash
# The harness's own cost per request against a target that costs almost
# nothing: nginx answering every /api/v1/* with the success envelope
# (bench/wire/nginx.conf), described by bench/wire/api.yaml (10 operations),
# judged by the five schema checks. Prints wrk's rate on the same nginx and
# its own CPU per request (the floor this machine's kernel sets), then for
# each worker setting Conform's rate, its ratio to wrk's, its CPU per request
# (user + sys of the whole process over the requests it sent), and its peak
# RSS. A setting is W (--workers W) or W/T (--workers W --threads T).
# Needs nginx, wrk and /usr/bin/time (scripts/deps.sh bench).
#   bash bench/wire.sh [--examples N] [--workers "1 16/1 16"] [--runs R] [--wrk-seconds S]
#                      [-- extra conform run options]
# Uses build-release/conform when built, else build/conform; CONFORM_BIN overrides.
# The machine's load (uptime) is printed beside each figure: on a shared
# machine compare CPU per request, which load disturbs less than the rate.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CONFORM_BIN:-build-release/conform}
[ -x "$bin" ] || bin=build/conform
examples=5000
workers="1 16/1 16"
runs=1
wrk_seconds=5
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --examples) examples=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --wrk-seconds) wrk_seconds=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "bench/wire.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for tool in nginx wrk /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench/wire.sh: needs $tool (scripts/deps.sh bench)" >&2; exit 2; }
done

dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
sed -e "s|@DIR@|$dir|g" -e "s|@PORT@|$port|g" bench/wire/nginx.conf >"$dir/nginx.conf"
stop() {
  [ -f "$dir/nginx.pid" ] && kill -QUIT "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  sleep 0.2
  rm -rf "$dir"
}
trap stop EXIT
nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log"
url=http://127.0.0.1:$port
for _ in $(seq 50); do curl -sf -o /dev/null "$url/api/v1/campaigns" && break; sleep 0.1; done
load() { cut -d' ' -f1-3 /proc/loadavg; }

checks=response_received,not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
echo "binary: $bin, target: nginx $(nginx -v 2>&1 | sed 's|.*/||') at $url, examples $examples"
for run in $(seq "$runs"); do
  wrk_rate=$(wrk -t2 -c16 -d"${wrk_seconds}s" "$url/api/v1/campaigns" | awk '/Requests\/sec/ {print $2}')
  wrk1_rate=$(wrk -t1 -c1 -d"${wrk_seconds}s" "$url/api/v1/campaigns" | awk '/Requests\/sec/ {print $2}')
  # wrk's own CPU per request on one thread and 16 connections: what the
  # kernel alone costs a client here, with nothing generated or checked.
  wrk_cpu=$( { /usr/bin/time -f 'time %U %S' wrk -t1 -c16 -d"${wrk_seconds}s" "$url/api/v1/campaigns"; } 2>&1 |
    awk '/Requests\/sec/ {r = $2} /^time/ {u = $2; s = $3} END {
      printf "%.1f us/request (%.1f user + %.1f sys) at %.0f requests/s", (u + s) / (r * d) * 1e6, u / (r * d) * 1e6, s / (r * d) * 1e6, r }' d="$wrk_seconds")
  echo "run $run: wrk -t2 -c16: $wrk_rate requests/s; wrk -t1 -c1: $wrk1_rate requests/s (load $(load))"
  echo "  wrk -t1 -c16 CPU: $wrk_cpu"
  for setting in $workers; do
    w=${setting%%/*}
    threads=()
    [ "$setting" != "$w" ] && threads=(--threads "${setting#*/}")
    report="$dir/report.json"
    times=$(/usr/bin/time -f '%U %S %M' "$bin" run --spec bench/wire/api.yaml --url "$url" \
      --checks "$checks" --examples "$examples" --workers "$w" ${threads[@]+"${threads[@]}"} --seed 1 --no-stateful \
      --no-progress --json "$report" ${extra[@]+"${extra[@]}"} 2>&1 >/dev/null | tail -1)
    python3 - "$report" "$setting" "$wrk_rate" "$wrk1_rate" "$times" "$(load)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w, wrk, wrk1 = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
user, sys_, rss = sys.argv[5].split()
c, t = r["counts"], r["timings"]
n = max(c["requests"], 1)
rate = n / t["wall_seconds"]
cpu = (float(user) + float(sys_)) / n * 1e6
print(f"  conform --workers {w.replace('/', ' --threads ')}: {n} requests, {rate:.0f} requests/s, "
      f"{rate / wrk:.2f} of wrk -t2 -c16 ({rate / wrk1:.2f} of -c1), "
      f"CPU {cpu:.1f} us/request ({float(user) / n * 1e6:.1f} user + {float(sys_) / n * 1e6:.1f} sys), "
      f"max RSS {int(rss) / 1024:.1f} MB, failures {c['failures']}, exit {r['exit_code']} "
      f"(load {sys.argv[6]})")
print(f"    summed over workers, per request: generation {t['generation_seconds'] / n * 1e6:.1f} us, "
      f"transport {t['transport_seconds'] / n * 1e6:.1f} us, checking {t['checking_seconds'] / n * 1e6:.1f} us")
PY
  done
done
