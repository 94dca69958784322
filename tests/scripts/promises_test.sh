#!/usr/bin/env bash
# docs/promises.md names the test that holds each promise of the docs: every
# `suite.test` in backticks there must be a GoogleTest of tests/ (TEST,
# TEST_F, TEST_P or a RapidCheck property of that suite and name), so that
# a test renamed or removed does not leave a promise held by nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
doc="$root/docs/promises.md"
known=$(mktemp)
trap 'rm -f "$known"' EXIT
# Every test's suite.name, a declaration wrapped over lines included.
find "$root/tests" -name '*.cpp' -print0 | xargs -0 perl -0777 -ne \
  'while (/\b(?:TEST|TEST_F|TEST_P|RC_GTEST_PROP|RC_GTEST_FIXTURE_PROP)\(\s*(\w+),\s*(\w+)/g) { print "$1.$2\n" }' |
  sort -u >"$known"
names=$(grep -oE '`[a-z_0-9]+\.[a-z_0-9]+`' "$doc" | tr -d '`' | sort -u)
[ -n "$names" ] || { echo "promises: no test named in $doc"; exit 1; }
missing=0
count=0
for n in $names; do
  count=$((count + 1))
  if ! grep -qxF "$n" "$known"; then
    echo "docs/promises.md names $n, which is no test of tests/"
    missing=$((missing + 1))
  fi
done
[ "$missing" -eq 0 ] || exit 1
echo "promises: $count tests named, each one a test of tests/"
