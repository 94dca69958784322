# Shared helpers of bench/real-servers (sourced by run.sh and the server files).
# Not run in CI: it installs Debian and npm packages and starts real servers.

RS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${REPO:-$(cd "$RS_DIR/../.." && pwd)}
CONFORM=${CONFORM:-$REPO/build/conform}
OUT=${OUT:-/tmp/conform-real-servers}
WORK=${WORK:-/tmp/conform-real-servers-work}   # servers' data and installs
ST=${ST:-$WORK/schemathesis/st}                  # Schemathesis 3.x launcher (schemathesis.sh)
SEEDS=${SEEDS:-1 2 3}
# Schemathesis: examples per operation and request timeout; Conform: timeout.
ST_EXAMPLES=${ST_EXAMPLES:-50}
REQUEST_TIMEOUT=${REQUEST_TIMEOUT:-5}

say() { printf '[real-servers] %s\n' "$*" >&2; }

# wait_http URL [seconds]: until URL answers anything (even 401/404).
wait_http() {
  local url=$1 n=${2:-60} i
  for ((i = 0; i < n * 4; i++)); do
    if curl -s -o /dev/null --max-time 2 "$url"; then return 0; fi
    sleep 0.25
  done
  say "no answer from $url after ${n}s"; return 1
}

# stop_pid FILE: stop the process whose id FILE holds (a process this script started).
stop_pid() {
  local f=$1 pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# run_conform SERVER_OUT SEED [PREFIX] ARGS...: one Conform run, console and JSON
# report kept as SERVER_OUT/PREFIX-SEED.{txt,json} (PREFIX default conform).
run_conform() {
  local d=$1 seed=$2 prefix=conform; shift 2
  case ${1:-} in conform*) prefix=$1; shift ;; esac
  mkdir -p "$d"
  say "$prefix seed $seed -> $d/$prefix-$seed.json"
  ( set -x; "$CONFORM" run --url "$BASE_URL" --spec "$SPEC" --seed "$seed" \
      --timeout "$REQUEST_TIMEOUT" --no-progress \
      --report "json=$d/$prefix-$seed.json" "$@" ) >"$d/$prefix-$seed.txt" 2>&1
  echo "exit $?" >>"$d/$prefix-$seed.txt"
}

# run_schemathesis SERVER_OUT SEED ARGS...: one Schemathesis 3.x run, all checks,
# positive and negative data, the links' stateful phase, every exchange in a cassette.
run_schemathesis() {
  local d=$1 seed=$2; shift 2
  mkdir -p "$d"
  say "schemathesis seed $seed -> $d/schemathesis-$seed.txt"
  rm -f "$d/schemathesis-$seed.cassette.yaml"
  ( set -x; SCHEMATHESIS_TELEMETRY=false "$ST" run "$SPEC" --base-url "$BASE_URL" \
      -c all -D all --stateful=links --hypothesis-seed "$seed" \
      --hypothesis-max-examples "$ST_EXAMPLES" --hypothesis-database=none \
      --request-timeout "$((REQUEST_TIMEOUT * 1000))" --show-errors-tracebacks \
      --code-sample-style curl --no-color --schemathesis-io-telemetry=false \
      --junit-xml "$d/schemathesis-$seed.xml" \
      --cassette-path "$d/schemathesis-$seed.cassette.yaml" "$@" ) \
      >"$d/schemathesis-$seed.txt" 2>&1
  echo "exit $?" >>"$d/schemathesis-$seed.txt"
}
