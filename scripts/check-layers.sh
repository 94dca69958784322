#!/usr/bin/env bash
# Fails when a source file includes a folder of a higher floor than its own
# (the floor plan is docs/architecture.md), or when that plan's table of
# floors says other than their one list, cmake/floors.txt (read through
# scripts/floors.sh). Folders on one floor are beside each other and may
# not include each other either, except as `allowed` says.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/floors.sh

# The docs' table: its floor, folder and target columns, row by row, are
# the list's lines.
want=$(for folder in "${floor_folders[@]}"; do
  echo "${floor_of[$folder]} $folder ${floor_targets[$folder]}"
done)
got=$(grep -E '^\| [0-9]+ \|' docs/architecture.md |
  awk -F'|' '{ gsub(/[`,\/]/, "", $3); gsub(/[`,]/, "", $4); print $2, $3, $4 }' |
  tr -s ' ' | sed 's/^ //; s/ $//')
if [ "$got" != "$want" ]; then
  echo "docs/architecture.md: the table of floors (floor, folder, target) differs from cmake/floors.txt:"
  diff <(echo "$want") <(echo "$got") | sed -n 's/^</  the list: /p; s/^>/  the table:/p'
  exit 1
fi

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
