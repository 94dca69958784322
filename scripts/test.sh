#!/usr/bin/env bash
# Builds every target of a preset (default: dev) and runs every test.
# This is the README's test command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
bash scripts/build.sh "$preset"
# Every core (the preset says 2, the least a machine has).
ctest --preset "$preset" -j "$(nproc 2>/dev/null || echo 2)"
