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
# The floors' files, then one grep over all of them (-H: the file's name
# even when there is one).
files=()
while IFS= read -r file; do
  [ -n "${floor_of[${file%%/*}]+x}" ] && files+=("$file")
done < <(git ls-files '*.cpp' '*.hpp')
checked=${#files[@]}
while IFS=: read -r file line; do
  from=${file%%/*}
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
done < <(grep -HE '^#include "' "${files[@]}" || true)

if [ "$bad" -ne 0 ]; then exit 1; fi
echo "layers: $checked files include only lower floors"
