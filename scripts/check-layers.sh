#!/usr/bin/env bash
# Fails when a source file includes a folder of a higher floor than its own
# (the floor plan is docs/architecture.md). Each line of `floors` is one floor,
# lowest first; folders on one line are beside each other and may not include
# each other either, except as `allowed` says.
set -euo pipefail
cd "$(dirname "$0")/.."

floors=(
  "core"
  "schema http reference"
  "openapi"
  "profile"
  "generators"
  "harness"
  "suites reports"
  "cli"
)

declare -A floor_of
for i in "${!floors[@]}"; do
  for folder in ${floors[$i]}; do floor_of[$folder]=$i; done
done
# reference/ stands on core/ alone: it is a server, not part of the harness.
reference_may=" core "

bad=0
checked=0
while IFS= read -r file; do
  from=${file%%/*}
  [ -n "${floor_of[$from]+x}" ] || continue
  checked=$((checked + 1))
  while IFS= read -r line; do
    inc=${line#*\"}
    inc=${inc%%\"*}
    to=${inc%%/*}
    [ -n "${floor_of[$to]+x}" ] || continue
    [ "$to" = "$from" ] && continue
    if [ "$from" = reference ]; then
      case "$reference_may" in *" $to "*) continue ;; esac
      echo "$file: reference/ includes $inc (it may include only core/)"
      bad=1
    elif [ "${floor_of[$to]}" -ge "${floor_of[$from]}" ]; then
      echo "$file: includes $inc, a floor not below $from/ (docs/architecture.md)"
      bad=1
    fi
  done < <(grep -E '^#include "' "$file" || true)
done < <(git ls-files '*.cpp' '*.hpp')

if [ "$bad" -ne 0 ]; then exit 1; fi
echo "layers: $checked files include only lower floors"
