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
# Two tests per core (the preset says 2, the least a machine has): many
# tests wait on sockets, timeouts and a partner client's backoff, and one
# per core leaves the CPU half idle (the measurements: docs/performance.md,
# "One test executable per folder").
ctest --preset "$preset" -j "$((2 * $(nproc 2>/dev/null || echo 2)))"
