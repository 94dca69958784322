#!/usr/bin/env bash
# Builds conform and runs it; with no arguments, `conform run` against the
# in-process reference server. Any arguments are passed to conform. Installs
# only what building needs (scripts/deps.sh build): no browser, no test tools.
# The build says what it is doing on stderr; the compiler's own output goes
# to build/build.log (shown when the build fails).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFORM_BUILD_LOG=build/build.log bash scripts/build.sh dev conform
if [ $# -eq 0 ]; then
  set -- run
fi
echo "conform: running build/conform $*" >&2
exec ./build/conform "$@"
