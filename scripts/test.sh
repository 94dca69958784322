#!/usr/bin/env bash
# Builds every target of a preset (default: dev) and runs every test.
# This is the README's test command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
bash scripts/build.sh "$preset"
ctest --preset "$preset"
