#!/usr/bin/env bash
# The harness's own cost per request against a target that costs almost
# nothing, beside wrk on the same target in the same run: nginx answering
# every /api/v1/* with the success envelope (bench/wire/nginx.conf),
# described by bench/wire/api.yaml (10 operations), judged by the five schema
# checks. It prints, each against its mark (docs/performance.md, "Wire
# speed"):
#   rate       Conform's best rate (--workers 16, a thread per core) over wrk
#              -t2 -c16's                                       (mark: >= 0.75)
#   cpu        Conform's CPU per request at --workers 1 over wrk -t1 -c1's,
#              user + sys of each whole process over the requests it sent
#                                                               (mark: <= 1.10)
#   user       Conform's user CPU per request at --workers 1     (mark: <= 7 us)
#   record     what --record (HAR) adds to the CPU per request of --workers 16
#              --threads 1                                      (mark: <= 25 %)
#   memory     peak RSS at about 10k, 100k and 1M requests (--workers 16); the
#              1M figure within 10 % of the 100k one
# With --runs R each figure is the median of R runs; the machine's load is
# printed beside each, since a shared machine moves rates most.
#
#   bash bench/wire.sh [--runs R] [--examples N] [--wrk-seconds S] [--no-memory]
#                      [--history FILE] [-- extra conform run options]
# --history FILE appends the run's row to FILE's table of wire speed by
# commit (docs/performance.md), above the line "<!-- wire history -->"; the
# commit is the tree's (with "+" when it has changes), or WIRE_COMMIT's when
# CONFORM_BIN was built from another.
# Uses build-release/conform when built, else build/conform; CONFORM_BIN
# overrides. Needs nginx, wrk and /usr/bin/time (scripts/deps.sh bench).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CONFORM_BIN:-build-release/conform}
[ -x "$bin" ] || bin=build/conform
examples=5000
runs=1
wrk_seconds=5
memory=1
history=
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --examples) examples=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --wrk-seconds) wrk_seconds=$2; shift 2 ;;
    --no-memory) memory=0; shift ;;
    --history) history=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "bench/wire.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for tool in nginx wrk /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "bench/wire.sh: needs $tool (scripts/deps.sh bench)" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "bench/wire.sh: no conform binary at $bin (scripts/build.sh dev conform)" >&2; exit 2; }
if [ -n "$history" ] && ! grep -q '^<!-- wire history -->$' "$history"; then
  echo "bench/wire.sh: $history has no line '<!-- wire history -->' to add the row above" >&2
  exit 2
fi

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
load() { cut -d' ' -f1 /proc/loadavg; }
figures="$dir/figures.tsv"  # name, run, value, load: one line per figure measured
: >"$figures"
note() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(load)" >>"$figures"; }

# wrk's rate, and its CPU per request (user, sys) from /usr/bin/time.
wrk_measure() {  # threads connections -> "rate user_us sys_us"
  { /usr/bin/time -f 'time %U %S' wrk -t"$1" -c"$2" -d"${wrk_seconds}s" "$url/api/v1/campaigns"; } 2>&1 |
    awk -v d="$wrk_seconds" '/Requests\/sec/ {r = $2} /^time / {u = $2; s = $3} END {
      printf "%.0f %.2f %.2f\n", r, u / (r * d) * 1e6, s / (r * d) * 1e6 }'
}
checks=response_received,not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
# One Conform run -> "requests rate user_us sys_us rss_mb failures"
conform_measure() {  # examples workers threads [extra options]
  local ex=$1 w=$2 t=$3
  shift 3
  local report="$dir/report.json" times
  times=$(/usr/bin/time -f 'time %U %S %M' "$bin" run --spec bench/wire/api.yaml --url "$url" \
    --checks "$checks" --examples "$ex" --workers "$w" --threads "$t" --seed 1 --no-stateful \
    --no-progress --json "$report" "$@" ${extra[@]+"${extra[@]}"} 2>&1 >/dev/null | grep '^time ' | tail -1)
  python3 - "$report" "$times" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
_, user, sys_, rss = sys.argv[2].split()
c, t = r["counts"], r["timings"]
n = max(c["requests"], 1)
print(n, round(n / t["wall_seconds"]), round(float(user) / n * 1e6, 2), round(float(sys_) / n * 1e6, 2),
      round(int(rss) / 1024, 1), c["failures"])
PY
}

echo "binary: $bin ($(git rev-parse --short HEAD 2>/dev/null || echo '?')), target: nginx $(nginx -v 2>&1 | sed 's|.*/||') at $url"
echo "examples $examples per cell, runs $runs, wrk ${wrk_seconds} s each, cores $(nproc)"
cores=$(nproc)
for run in $(seq "$runs"); do
  read -r rate _ _ <<<"$(wrk_measure 2 16)"
  note wrk_rate "$run" "$rate"
  read -r rate1 u1 s1 <<<"$(wrk_measure 1 1)"
  note wrk1_rate "$run" "$rate1"
  note wrk1_cpu "$run" "$(echo "$u1 $s1" | awk '{print $1 + $2}')"
  read -r n r u s rss f <<<"$(conform_measure "$examples" 16 "$cores")"
  note conform_rate "$run" "$r"
  note conform16_failures "$run" "$f"
  read -r n r u s rss f <<<"$(conform_measure "$examples" 1 1)"
  note conform1_rate "$run" "$r"
  note conform1_cpu "$run" "$(echo "$u $s" | awk '{print $1 + $2}')"
  note conform1_user "$run" "$u"
  note conform1_failures "$run" "$f"
  read -r n r u s rss f <<<"$(conform_measure "$examples" 16 1)"
  note plain_cpu "$run" "$(echo "$u $s" | awk '{print $1 + $2}')"
  read -r n r u s rss f <<<"$(conform_measure "$examples" 16 1 --record "$dir/run.har")"
  note record_cpu "$run" "$(echo "$u $s" | awk '{print $1 + $2}')"
  rm -f "$dir/run.har"
  echo "run $run done (load $(load))" >&2
done

if [ "$memory" = 1 ]; then
  # Requests grow with --examples as cells * examples + coverage: two small
  # runs give both, then each size gets the examples that reach it.
  read -r n1 _ <<<"$(conform_measure 1 16 "$cores")"
  read -r n2 _ <<<"$(conform_measure 2 16 "$cores")"
  cells=$((n2 - n1))
  coverage=$((n1 - cells))
  for size in 10000 100000 1000000; do
    ex=$(( (size - coverage + cells - 1) / cells ))
    read -r n r u s rss f <<<"$(conform_measure "$ex" 16 "$cores")"
    note "memory_$size" 1 "$rss"
    note "memory_${size}_requests" 1 "$n"
  done
fi

python3 - "$figures" "$history" "$bin" "$memory" <<'PY'
import datetime, os, statistics, subprocess, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
fig, loads = {}, {}
for name, run, value, load in rows:
    fig.setdefault(name, []).append(float(value))
    loads.setdefault(name, []).append(load)
med = {k: statistics.median(v) for k, v in fig.items()}
def spread(k):
    v = fig[k]
    return "" if len(v) < 2 else f" (runs: {', '.join(f'{x:g}' for x in v)})"
rate = med["conform_rate"] / med["wrk_rate"]
cpu = med["conform1_cpu"] / med["wrk1_cpu"]
user = med["conform1_user"]
record = med["record_cpu"] / med["plain_cpu"] - 1
mark = lambda ok: "meets" if ok else "MISSES"
print()
print(f"wrk -t2 -c16: {med['wrk_rate']:.0f} requests/s; wrk -t1 -c1: {med['wrk1_rate']:.0f} requests/s, "
      f"CPU {med['wrk1_cpu']:.1f} us/request")
print(f"conform --workers 16: {med['conform_rate']:.0f} requests/s; --workers 1: {med['conform1_rate']:.0f} "
      f"requests/s, CPU {med['conform1_cpu']:.1f} us/request ({user:.1f} user)")
print(f"  rate:   {rate:.2f} of wrk -t2 -c16             {mark(rate >= 0.75)} >= 0.75{spread('conform_rate')}")
print(f"  cpu:    {cpu:.2f} times wrk -t1 -c1's per request  {mark(cpu <= 1.10)} <= 1.10{spread('conform1_cpu')}")
print(f"  user:   {user:.1f} us per request at 1 worker     {mark(user <= 7)} <= 7 us{spread('conform1_user')}")
print(f"  record: +{record * 100:.0f} % CPU per request with --record  {mark(record <= 0.25)} <= 25 %"
      f" ({med['plain_cpu']:.1f} -> {med['record_cpu']:.1f} us)")
failures = sum(fig["conform16_failures"]) + sum(fig["conform1_failures"])
if failures:
    print(f"  failures: {failures:g} (nginx answers every request alike: a failure here is a harness fault)")
mem = ""
if sys.argv[4] == "1":
    m = {s: med[f"memory_{s}"] for s in (10000, 100000, 1000000)}
    growth = m[1000000] / m[100000] - 1
    print(f"  memory: {m[10000]:.1f} / {m[100000]:.1f} / {m[1000000]:.1f} MB at "
          f"{med['memory_10000_requests']:.0f} / {med['memory_100000_requests']:.0f} / "
          f"{med['memory_1000000_requests']:.0f} requests; 1M is {growth * 100:+.1f} % of 100k  "
          f"{mark(abs(growth) <= 0.10)} within 10 %")
    mem = f"{m[10000]:.1f} / {m[100000]:.1f} / {m[1000000]:.1f} MB"
print(f"  load during the runs: {', '.join(sorted(set(l for v in loads.values() for l in v)))}")
if sys.argv[2]:
    commit = os.environ.get("WIRE_COMMIT", "")  # the binary's commit, when not the tree's
    dirty = ""
    if not commit:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    row = (f"| {when} | {commit}{'+' if dirty else ''} | {sys.argv[3]} | {len(fig['wrk_rate'])} | "
           f"{rate:.2f} | {cpu:.2f} | {user:.1f} us | +{record * 100:.0f} % | {mem or 'not run'} |\n")
    path = sys.argv[2]
    text = open(path).read()
    marker = "<!-- wire history -->\n"
    open(path, "w").write(text.replace(marker, row + marker, 1))
    print(f"  history: a row added to {path}")
PY
