#!/usr/bin/env bash
# Builds every target of a preset (default: dev), validates the description
# with a validator other than Conform's (scripts/validate-spec.sh: fails,
# never passes silently, when it cannot run) and runs every test.
# This is the README's test command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
# What the tests need beyond the build's packages (a browser, clang-format).
bash scripts/deps.sh all
bash scripts/build.sh "$preset"
echo "== description (OpenAPI 3.1 meta-schema)"
bash scripts/validate-spec.sh
# Every core (the preset says 2, the least a machine has).
ctest --preset "$preset" -j "$(nproc 2>/dev/null || echo 2)"
