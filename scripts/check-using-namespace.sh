#!/usr/bin/env bash
# Fails when a source file of the floors has a `using namespace` outside a
# function or class body. The floors compile in unity batches
# (docs/performance.md, "Building"), where such a directive reaches every
# file batched after it: a name one file pulls in can then clash with, or
# quietly change the meaning of, a name in its neighbour. Inside a function
# it stays there. clang-format indents function bodies and not namespace
# bodies (.clang-format), so a directive that starts its line is at file or
# namespace scope. The literal namespaces (std::literals and its parts) are
# allowed: they bring in operators like 5ms, no names that can clash.
# Usage: scripts/check-using-namespace.sh [FILE...] (default: the tracked
# sources of the floors and of tests/, whose files batch too; benchmarks are
# programs of their own, never batched).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/floors.sh  # the floors: cmake/floors.txt
floors=("${floor_folders[@]}" tests)
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- "${floors[@]/%//*.cpp}" "${floors[@]/%//*.hpp}")
fi

bad=0
# One grep over every file (-H: the file's name even when there is one).
while IFS=: read -r file line text; do
  echo "$file:$line: $text (a using-directive at file or namespace scope leaks into the files batched after it; qualify the names, or move it into the function)"
  bad=1
done < <(grep -HnE '^using[[:space:]]+namespace[[:space:]]' "${files[@]}" |
  grep -vE 'namespace[[:space:]]+std::([a-z_]+_)?literals;' || true)
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "using-namespace: ${#files[@]} files, none at file or namespace scope"
