#!/usr/bin/env bash
# The installed layout (cmake/Packaging.cmake), without root: installs the
# build into a scratch prefix, moves the whole tree elsewhere, and checks
# that the moved bin/conform finds its description at
# ../share/conform/specs from its own folder (cli/default_spec.hpp), that
# the man page and the bash completion were generated and installed, and
# that the completion offers a command's options.
#
#   bash tests/scripts/install_test.sh BUILD_DIR
#
# ctest runs it as `installed_layout`. scripts/package-test.sh checks the
# Debian package itself, as root, on a fresh Debian 12 tree.
set -euo pipefail
build=${1:?usage: install_test.sh BUILD_DIR}
fail() {
  echo "installed_layout: FAILED: $*" >&2
  exit 1
}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build" --prefix "$scratch/first" >/dev/null
mv "$scratch/first" "$scratch/moved"
prefix=$scratch/moved
for f in bin/conform lib/conform/conform-partner-client share/conform/specs/voice-api.yaml \
  share/conform/specs/permissions.yaml share/man/man1/conform.1.gz \
  share/bash-completion/completions/conform share/doc/conform/README.md \
  share/doc/conform/copyright share/doc/conform/changelog.gz; do
  [ -e "$prefix/$f" ] || fail "nothing installed at $f"
done

# From a directory without specs/: the moved tree's own copy, not the
# source tree's (which also exists on this machine).
mkdir "$scratch/elsewhere"
cd "$scratch/elsewhere"
"$prefix/bin/conform" spec lint >lint.out 2>&1 || fail "spec lint: $(tail -n 3 lint.out)"
head -n 1 lint.out | grep -q "^$prefix/share/conform/specs/voice-api.yaml: " ||
  fail "spec lint loaded $(head -n 1 lint.out | cut -d: -f1), not the moved tree's description"

gzip -dc "$prefix/share/man/man1/conform.1.gz" | grep -q '^\.SS "conform run"' ||
  fail "the man page has no section for conform run"
gzip -dc "$prefix/share/man/man1/conform.1.gz" | grep -q '\\-\\-seed' ||
  fail "the man page does not list --seed"

completion=$prefix/share/bash-completion/completions/conform
words=$(bash -c 'source "$1"; COMP_WORDS=(conform run --se); COMP_CWORD=2; _conform; echo "${COMPREPLY[*]}"' _ "$completion")
[[ " $words " == *" --seed "* ]] || fail "completing 'conform run --se' gave '$words'"
words=$(bash -c 'source "$1"; COMP_WORDS=(conform report m); COMP_CWORD=2; _conform; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$words" = merge ] || fail "completing 'conform report m' gave '$words'"
echo "installed_layout: a moved install finds its description; man page and completion in place"
