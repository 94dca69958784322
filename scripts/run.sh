#!/usr/bin/env bash
# Builds conform and runs it; with no arguments, `conform run` against the
# in-process reference server. Any arguments are passed to conform.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dev conform >/dev/null
if [ $# -eq 0 ]; then
  set -- run
fi
exec ./build/conform "$@"
