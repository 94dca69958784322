#!/usr/bin/env bash
# Builds Conform's Debian package, conform_<version>_amd64.deb (issue 34):
# the packages it needs (scripts/deps.sh package), the `program` preset
# (the program, the example C++ client, the man page and the bash
# completion, cmake/Packaging.cmake), then CPack's DEB generator, then
# lintian, which must find no error. Prints the package's path on stdout,
# and what it is doing on stderr.
#
#   bash scripts/package.sh          # build-program/package/conform_<version>_amd64.deb
#   sudo apt install ./build-program/package/conform_*.deb
#
# scripts/package-test.sh installs it on a fresh Debian 12 tree and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "conform: $*" >&2; }
start=$SECONDS

bash scripts/deps.sh package >&2
# The same sources make the same package: the changelog's and the man
# page's dates are the last commit's.
if [ -z "${SOURCE_DATE_EPOCH:-}" ] && git rev-parse --git-dir >/dev/null 2>&1; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
  export SOURCE_DATE_EPOCH
fi
bash scripts/build.sh program >&2   # its progress too: stdout is the path alone

say "making the Debian package (cpack -G DEB)"
rm -f build-program/package/conform_*.deb
(cd build-program && cpack -G DEB >/dev/null)
debs=(build-program/package/conform_*.deb)
[ -f "${debs[0]}" ] || {
  say "cpack made no package in build-program/package/"
  exit 1
}
deb=${debs[0]}

say "checking it with lintian (errors fail; warnings are listed)"
if ! lintian --fail-on error --allow-root "$deb" >&2; then
  say "lintian found an error in $deb"
  exit 1
fi
say "$deb: $(du -k "$deb" | cut -f1) KiB, made in $((SECONDS - start)) s"
echo "$deb"
