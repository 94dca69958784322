#!/usr/bin/env bash
# Fails when a function of the floors says "this can fail" through an error
# string it writes into a parameter instead of returning core::outcome<T>
# (core/outcome.hpp) or core::status: `optional<T> f(..., std::string&
# why)`, `optional<T> f(..., std::string* why)`, `bool f(..., std::string&
# error)`. One shape keeps call sites alike and an error impossible to
# ignore without saying so. A result with positioned diagnostics is the
# other, legitimate shape and is not touched here. Caught: a parameter
# (after '(' or ',', or starting a continued line) of type std::string& or
# std::string* named for an error (why, error, err, reason, problem,
# message, msg). A const one is input, and passes.
# Usage: scripts/check-outcome.sh [FILE...] (default: the tracked sources of
# the floors).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/floors.sh  # the floors: cmake/floors.txt
floors=("${floor_folders[@]}")
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- "${floors[@]/%//*.cpp}" "${floors[@]/%//*.hpp}")
fi

names='(why|error|err|reason|problem|message|msg)'
pattern="(^|[(,])[[:space:]]*std::string[[:space:]]*[&*][[:space:]]*${names}[[:space:]]*([,)]|=[[:space:]]*nullptr)"
bad=0
# One grep over every file (-H: the file's name even when there is one).
while IFS=: read -r file line text; do
  echo "$file:$line: $text (an error written into a parameter; return core::outcome<T> or core::status, core/outcome.hpp)"
  bad=1
done < <(grep -HnE "$pattern" "${files[@]}" | grep -vE '^[^:]*:[0-9]+:[[:space:]]*//' || true)
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "outcome: ${#files[@]} files, no error written into a parameter"
