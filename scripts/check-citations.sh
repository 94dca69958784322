#!/usr/bin/env bash
# Fails when C++ outside reference/ and tests/ writes a decision id of the
# API ("D4.1", "D6"): what grounds a rule in one API's decisions is a fact
# of that API, and lives in its description (x-rule-citations, x-assumption
# sources: docs/spec-extensions.md), never in the harness. Comments count:
# a comment that cites a decision says the code encodes it. The grammar's
# placeholder, "D<n>.<m>", is no id. Usage: scripts/check-citations.sh
# [FILE...] (default: every tracked .cpp and .hpp but reference/ and tests/).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' ':!reference/' ':!tests/')
fi

bad=0
# One grep over every file (-H: the file's name even when there is one).
while IFS=: read -r file line text; do
  echo "$file:$line: cites a decision id in C++: ${text#"${text%%[![:space:]]*}"} (move it into the description: x-rule-citations)"
  bad=1
done < <(grep -HnE '(^|[^[:alnum:]_])D[0-9]+(\.[0-9]+)?([^[:alnum:]_]|$)' "${files[@]}" || true)
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "citations: ${#files[@]} files, no decision id written in C++"
