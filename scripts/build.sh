#!/usr/bin/env bash
# Configures and builds one preset (default: dev). Usage: scripts/build.sh [preset] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
shift || true
bash scripts/deps.sh
cmake --preset "$preset" >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" -j "$jobs" --target "$@"
else
  cmake --build --preset "$preset" -j "$jobs"
fi
