#!/usr/bin/env bash
# Reach on descriptions we did not write (docs/using-other-tools.md): each
# YAML example of the OpenAPI Initiative (tests/support/oai-examples, a copy
# of ../shared/openapi-examples) against a Prism mock of itself, with and
# without the stateful phase: operations answered 2xx, links followed,
# failures. Prism is the stub: it answers from the description's examples
# and schemas and keeps no state.
#   bench/reach.sh [CONFORM] [PRISM]
# PRISM defaults to `npx @stoplight/prism-cli` (the npm registry is
# reachable; nothing is installed globally).
set -uo pipefail
cd "$(dirname "$0")/.."
conform=${1:-build/conform}
prism=${2:-npx --yes @stoplight/prism-cli@5}
examples=tests/support/oai-examples
port=4321
out=$(mktemp -d)
trap 'kill $prism_pid 2>/dev/null; rm -rf "$out"' EXIT
printf '%-44s %-9s %-9s %-7s %-7s %s\n' description "2xx" "2xx(-s)" links fails "failing checks"
for spec in $examples/v2.0/yaml/*.yaml $examples/v2.0/petstore-separate/spec/swagger.yaml \
            $examples/v3.0/*.yaml $examples/v3.1/*.yaml; do
  $prism mock -p $port "$spec" > "$out/prism.log" 2>&1 &
  prism_pid=$!
  for _ in $(seq 1 120); do
    grep -q "Prism is listening" "$out/prism.log" && break
    kill -0 $prism_pid 2>/dev/null || break
    sleep 0.5
  done
  # A dummy credential for descriptions that ask for one (Prism checks presence only).
  export REACH_TOKEN=conform-reach-token
  row=()
  for mode in "" --no-stateful; do
    rm -f "$out/r.json"
    "$conform" run --spec "$spec" --ref-root "$examples" --url "http://127.0.0.1:$port" \
        --auth-env REACH_TOKEN \
        --seed 1 --examples 3 --no-progress $mode --json "$out/r.json" > "$out/run.txt" 2>&1
    # Exit 2 with nothing written: the description has no scheme for the token.
    if [ $? -eq 2 ] && [ ! -s "$out/r.json" ]; then
      "$conform" run --spec "$spec" --ref-root "$examples" --url "http://127.0.0.1:$port" --seed 1 --examples 3 \
        --no-progress $mode --json "$out/r.json" > "$out/run.txt" 2>&1
    fi
    row+=("$(node -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
      const ops = new Set(), hit = new Set();
      for (const x of r.reach || []) { ops.add(x.operation_id); if (x.reached) hit.add(x.operation_id); }
      const links = r.links || [];
      const followed = links.filter(l => l.followed > 0).length;
      const checks = [...new Set((r.failures || []).map(f => f.check))].join(",");
      console.log([hit.size + "/" + ops.size, followed + "/" + links.length,
                   (r.failures || []).length, checks || "-"].join("\t"));
    ' "$out/r.json" 2>/dev/null || echo "?	?	?	?")")
  done
  kill $prism_pid 2>/dev/null
  wait $prism_pid 2>/dev/null
  IFS=$'\t' read -r reach links fails checks <<< "${row[0]}"
  IFS=$'\t' read -r reach_off _ _ _ <<< "${row[1]}"
  printf '%-44s %-9s %-9s %-7s %-7s %s\n' "${spec#$examples/}" "$reach" "$reach_off" "$links" \
    "$fails" "$checks"
done
