#!/usr/bin/env bash
# Installs Conform's Debian package on a fresh Debian 12 system with no
# compiler and runs it there (issue 34): `apt-get install ./conform_*.deb`
# (so its Depends are resolved by apt, as a user's would be), then
# `conform version`, `conform run --seed 1` against the built-in reference
# (from a directory without specs/, so the installed description is the one
# found), `conform spec lint` of the shipped description, `conform certify`
# of the packaged example C++ client, and `conform serve` answering
# /api/v1/health. .ci/run runs it after scripts/package.sh.
#
#   bash scripts/package-test.sh [DEB]   # default: build-program/package/conform_*.deb
#
# The fresh system is a copy of a kept, untouched minbase tree
# (CONFORM_DEBIAN12_MINBASE, default /var/cache/conform/debian12-minbase;
# made once with debootstrap through scripts/in-debian12.sh, never entered
# by anything that installs into it), thrown away after the test. It is not
# scripts/in-debian12.sh's own kept tree: .ci/run installs the compilers and
# test programs there. Needs root (chroot, bind mounts): without it the test
# says "skipped: why" and exits 77, never a pass. Exit status: 0 every step
# passed, 1 a step failed (said on stderr), 2 no package or no tree.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "conform: package-test: $*" >&2; }

if [ "${1:-}" = "--inside" ]; then
  # Run inside the fresh tree by the part below (through in-debian12.sh).
  deb=$2
  fail() {
    say "FAILED: $*"
    exit 1
  }
  compilers() { for c in cc gcc g++ c++ clang clang++; do command -v "$c" || true; done; }
  [ -z "$(compilers)" ] || fail "the fresh tree has a compiler: $(compilers | tr '\n' ' ')"

  seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
  say "installing $deb with apt (its Depends from Debian 12)"
  start=$(date +%s.%N)
  apt-get update -qq
  update=$(seconds_since "$start")
  start=$(date +%s.%N)
  apt-get install -y --no-install-recommends "./$deb" >/tmp/apt-install.log 2>&1 || {
    tail -n 20 /tmp/apt-install.log >&2
    fail "apt-get install ./$deb"
  }
  say "installed in $(seconds_since "$start") s, downloads included (apt-get update before" \
    "it: $update s): $(grep -E 'newly installed|^Need to get' /tmp/apt-install.log | tr '\n' ' ')"
  [ -z "$(compilers)" ] || fail "installing the package brought a compiler: $(compilers | tr '\n' ' ')"
  say "Depends: $(dpkg-query -W -f='${Depends}' conform)"

  # Nothing of the checkout (bound into the tree at its own path) may stand
  # in for what the package installed: run from an empty directory.
  work=$(mktemp -d)
  cd "$work"
  [ "$(command -v conform)" = /usr/bin/conform ] || fail "conform is not /usr/bin/conform"

  say "conform version"
  conform version | grep -qx "conform [0-9][0-9.]*" || fail "conform version"

  say "conform run --seed 1 (the built-in reference, the installed description)"
  status=0
  conform run --seed 1 --no-progress >run.log 2>&1 || status=$?
  [ "$status" -eq 0 ] || {
    tail -n 30 run.log >&2
    fail "conform run --seed 1 exited $status"
  }
  grep -q '(/usr/share/conform/specs/voice-api.yaml)' run.log ||
    fail "conform run did not use /usr/share/conform/specs/voice-api.yaml: $(head -n 1 run.log)"
  grep -E '^(PASSED|FAILED)|^[0-9]+ requests in' run.log >&2 || true

  say "conform spec lint (the shipped description and its permission matrix)"
  conform spec lint >lint.log 2>&1 || {
    tail -n 20 lint.log >&2
    fail "conform spec lint"
  }
  conform spec lint /usr/share/conform/specs/voice-api.yaml >lint.log 2>&1 ||
    fail "conform spec lint /usr/share/conform/specs/voice-api.yaml"
  tail -n 1 lint.log >&2

  say "conform certify of the packaged example client"
  status=0
  conform certify --seed 1 -- /usr/lib/conform/conform-partner-client >certify.log 2>&1 ||
    status=$?
  [ "$status" -eq 0 ] || {
    tail -n 30 certify.log >&2
    fail "conform certify -- /usr/lib/conform/conform-partner-client exited $status"
  }

  say "conform serve answering GET /api/v1/health"
  # Its output holds the reference's own throwaway keys: kept in a file, never shown.
  conform serve --port 0 >serve.log 2>&1 &
  serve=$!
  stop_serve() { kill "$serve" 2>/dev/null || true; }
  trap stop_serve EXIT
  port=""
  for _ in $(seq 1 300); do
    port=$(sed -nE 's|^conform serve: listening on http://127\.0\.0\.1:([0-9]+)/.*|\1|p' serve.log)
    [ -n "$port" ] && break
    kill -0 "$serve" 2>/dev/null || fail "conform serve stopped: $(grep '^conform serve:' serve.log | tail -n 3)"
    sleep 0.1
  done
  [ -n "$port" ] || fail "conform serve never said it was listening"
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
  answer=$(cat <&3)
  exec 3<&-
  printf '%s\n' "$answer" | head -n 1 | grep -q '^HTTP/1.1 200' ||
    fail "GET /api/v1/health: $(printf '%s\n' "$answer" | head -n 1)"
  printf '%s\n' "$answer" | grep -q '"status":"ok"' || fail "GET /api/v1/health: no status ok"
  stop_serve

  say "the man page and the bash completion"
  [ -f /usr/share/man/man1/conform.1.gz ] || fail "no /usr/share/man/man1/conform.1.gz"
  [ -f /usr/share/doc/conform/copyright ] || fail "no /usr/share/doc/conform/copyright"
  bash -c 'source /usr/share/bash-completion/completions/conform && complete -p conform' >/dev/null ||
    fail "the bash completion does not load"
  say "every step passed"
  exit 0
fi

deb=${1:-}
if [ -z "$deb" ]; then
  debs=(build-program/package/conform_*.deb)
  deb=${debs[0]}
fi
[ -f "$deb" ] || {
  say "no package at '$deb': make it with scripts/package.sh"
  exit 2
}
# The tree sees the checkout at its own path: the package must be inside it.
deb=$(realpath --relative-to=. "$deb")
case $deb in ../* | /*)
  say "the package must lie in the checkout, not at $deb"
  exit 2
  ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  say "skipped: installing into a fresh Debian 12 tree needs root (chroot, bind mounts)"
  exit 77
fi

minbase=${CONFORM_DEBIAN12_MINBASE:-/var/cache/conform/debian12-minbase}
if [ ! -f "$minbase/.conform-tree" ]; then
  say "making the untouched minbase tree $minbase (once; debootstrap)"
  CONFORM_DEBIAN12_ROOT=$minbase bash scripts/in-debian12.sh true || {
    say "skipped: no Debian 12 tree could be made (scripts/in-debian12.sh said why above)"
    exit 2
  }
fi

tree=$(mktemp -d /var/tmp/conform-package-test.XXXXXX)
remove_tree() {
  # Only when nothing is mounted in it any more (in-debian12.sh unmounts on
  # exit); never across into another file system.
  if findmnt -rn -o TARGET | grep -q "^$tree"; then
    say "left $tree in place: something is still mounted in it"
  else
    rm -rf --one-file-system "$tree"
  fi
}
trap remove_tree EXIT
say "a fresh Debian 12 minbase in $tree (a copy of $minbase)"
cp -a "$minbase/." "$tree/"
CONFORM_DEBIAN12_ROOT=$tree bash scripts/in-debian12.sh bash scripts/package-test.sh --inside "$deb"
