#!/usr/bin/env bash
# Configures and builds one preset (default: dev). Usage: scripts/build.sh [preset] [target...]
# Says what it is doing, a line per stage, on stderr. With CONFORM_BUILD_LOG=FILE
# the compiler's progress goes to FILE (its end is shown if the build fails).
# Uses every core, and ccache when the machine has it (scripts/deps.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
shift || true
say() { echo "conform: $*" >&2; }

# The program preset builds `conform` alone: it needs no test packages.
# The others need the test and benchmark libraries to configure, but not
# what only running the tests needs (a browser: scripts/test.sh installs it).
deps=build
[ "$preset" = program ] && deps=program
[ "$preset" = asan ] && deps=asan
[ "$preset" = tidy ] && deps=tidy
say "checking the Debian packages (scripts/deps.sh $deps)"
bash scripts/deps.sh "$deps"

configure=(cmake --preset "$preset")
if command -v ccache >/dev/null 2>&1; then
  # The tests' precompiled header is cacheable only with this sloppiness
  # (ccache's manual, "Precompiled headers"); no source uses __DATE__/__TIME__.
  configure+=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache")
  launcher=", through ccache"
else
  configure+=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
  launcher=""
fi
# A build folder made before the presets chose Ninja keeps its old generator,
# which CMake refuses to switch: start that folder's configuration afresh.
dir=build-$preset
[ "$preset" = dev ] && dir=build
if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
  say "$dir/ was configured for another generator; configuring it afresh for Ninja"
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
fi
# Likewise a build-asan/ made before clang built that preset: on a compiler
# change CMake deletes its cache itself, and with it the preset's other
# settings, so the folder would build as no preset says.
if [ "$preset" = asan ] && [ -f "$dir/CMakeCache.txt" ] &&
  ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++$' "$dir/CMakeCache.txt"; then
  say "$dir/ was configured for another compiler; configuring it afresh for clang"
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
fi
say "configuring the $preset preset"
"${configure[@]}" >/dev/null

jobs=$(nproc 2>/dev/null || echo 2)
build=(cmake --build --preset "$preset" -j "$jobs")
[ $# -gt 0 ] && build+=(--target "$@")
what=${*:-everything}
say "building $what with $jobs cores$launcher (how long a first build takes: docs/performance.md, \"Building\")"
start=$SECONDS
if [ -n "${CONFORM_BUILD_LOG:-}" ]; then
  mkdir -p "$(dirname "$CONFORM_BUILD_LOG")"
  if ! "${build[@]}" >"$CONFORM_BUILD_LOG" 2>&1; then
    tail -n 40 "$CONFORM_BUILD_LOG" >&2
    say "build failed; the whole log is $CONFORM_BUILD_LOG"
    exit 1
  fi
else
  "${build[@]}"
fi
say "built in $((SECONDS - start)) s"
