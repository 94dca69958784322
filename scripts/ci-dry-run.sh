#!/usr/bin/env bash
# Tries the CI pipelines of docs/ci.md on this machine: `conform serve` stands
# in for the sandbox (its --profile-out file is ci/sandbox.yaml), three shard
# jobs run the documented `conform run --shard` line, and the merge job's
# `conform report merge` line runs with and without a baseline. Also checks
# what the jobs rely on: a missing shard and a shard of another seed are
# refused (exit 2), and a failure the baseline knows does not fail the merge.
# Usage: scripts/ci-dry-run.sh [CONFORM]  (default build/conform)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
conform=$(realpath "${1:-$repo/build/conform}")
scratch=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
cd "$scratch"
mkdir -p ci specs
cp -r "$repo/specs/." specs/
say() { echo "ci-dry-run: $*" >&2; }
expect() {  # expect STATUS COMMAND...: runs it, and fails unless it exits STATUS
  local want=$1 got=0
  shift
  "$@" >last.out 2>last.err || got=$?
  if [ "$got" != "$want" ]; then
    say "expected exit $want, got $got: $*"
    cat last.out last.err >&2
    exit 1
  fi
}

# The sandbox: the reference server with one fault, so that a check fails.
"$conform" serve --port 0 --profile-out ci/sandbox.yaml --fault wrong_error_code >serve.log 2>&1 &
server_pid=$!
for _ in $(seq 100); do [ -s ci/sandbox.yaml ] && break; sleep 0.1; done
[ -s ci/sandbox.yaml ] || { say "conform serve wrote no profile"; cat serve.log >&2; exit 1; }

CONFORM_SEED=4242
shard() {  # the shard job's script, as docs/ci.md has it (N=3)
  local k=$1 seed=${2:-$CONFORM_SEED} status
  set +e
  env -u GITHUB_STEP_SUMMARY "$conform" run --profile ci/sandbox.yaml --no-progress \
    --seed "$seed" --shard "$k/3" --examples 2 --json "shard-$k.json" >"shard-$k.log" 2>&1
  status=$?
  set -e
  [ "$status" -le 1 ] || { say "shard $k exited $status"; cat "shard-$k.log" >&2; exit 1; }
  grep -q "shard $k/3" "shard-$k.log" || { say "shard $k: no shard in the banner"; exit 1; }
}
for k in 1 2 3; do shard "$k"; done
say "3 shards ran"

# The merge job, first without a baseline: the fault's failures fail it.
export GITHUB_STEP_SUMMARY=$scratch/summary.md
expect 1 "$conform" report merge shard-*.json -o conform.json --junit conform.xml
grep -q "FAILED (seed $CONFORM_SEED, shards 1, 2, 3 of 3, merged)" last.out
grep -q '<failure type=' conform.xml
grep -q '## Conform: FAILED' summary.md
say "merge without a baseline: exit 1, JUnit and step summary written"

# The next run, with this one as its baseline: nothing new, so it passes.
cp conform.json conform-baseline.json
expect 0 "$conform" report merge shard-*.json -o conform.json --junit conform.xml \
  --baseline conform-baseline.json --report markdown=conform.md
grep -q "0 new, 0 fixed" last.out
[ -s conform.md ]
say "merge against the baseline: exit 0 (the failures are known)"

# What the merge refuses.
mv shard-2.json shard-2.kept
expect 2 "$conform" report merge shard-*.json -o refused.json
grep -q "no report of shard 2 of 3" last.err
cp shard-2.kept shard-2.json
shard 2 777
expect 2 "$conform" report merge shard-*.json -o refused.json
grep -q "the seeds differ" last.err
[ ! -e refused.json ]
say "a missing shard and a shard of another seed: refused, exit 2"
echo "ci-dry-run: every documented command ran as docs/ci.md says"
