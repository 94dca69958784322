#!/usr/bin/env bash
# Installs the Debian 12 packages Conform builds with, only those missing.
# Quick when everything is present: one dpkg-query, no apt-get at all.
# Usage: scripts/deps.sh [all|build|asan|tidy|program|package|bench]:
#   program  what the `conform` program needs (the `program` preset, the Dockerfile)
#   package  the program's set and what making its Debian package needs
#            (scripts/package.sh: dpkg-shlibdeps, file, lintian)
#   build    what building any preset needs: the program's, and the test and
#            benchmark libraries that configuring the dev preset finds
#            (scripts/build.sh, scripts/run.sh)
#   asan     the build set and clang, which builds the sanitizer preset
#            (scripts/build.sh asan)
#   tidy     the build set and clang-tidy, which the tidy preset runs on
#            every file (scripts/build.sh tidy, CI's tidy stage)
#   all      what running the tests needs too: git, clang-format and a
#            browser for the HTML reports (scripts/test.sh)
#   bench    what bench/wire.sh needs beside the build set: nginx, wrk and
#            /usr/bin/time (never part of the default set)
set -euo pipefail
set_name=${1:-all}

packages=(
  g++ cmake ninja-build pkg-config
  libboost1.81-dev libboost-json1.81-dev
  libboost-context1.81-dev  # many exchanges in flight per thread (http/cooperative.hpp)
  librapidcheck-dev libcpp-httplib-dev libyaml-cpp-dev
  libssl-dev
  libpcre2-dev       # `pattern` keywords, with match and depth limits
  libtcmalloc-minimal4  # the program's allocator (CONFORM_TCMALLOC, docs/performance.md)
  ca-certificates    # https:// targets: the system's trusted CAs (absent on a minimal image)
  ccache             # scripts/build.sh compiles through it when present: rebuilds in seconds
)
build_packages=(
  libgtest-dev
  libbenchmark-dev   # bench/: Google Benchmark, Debian's package
)
test_packages=(
  git
  clang-format
  chromium           # tests/certify/html_browser_test: the HTML reports in a real browser
  python3 nodejs     # tests/certify: the example clients of the other two stacks
  curl               # tests/certify: a reproduction command run as a user would
)
# The asan preset is built by clang and linked by lld: it compiles this code
# under the sanitizers in about 60 % of GCC's time, and its tests run in 60 %
# of theirs (docs/performance.md, "The sanitizer build on clang"); CI then
# builds with both compilers. The sanitizers' runtime is a package of its
# own, which clang only recommends; llvm-14 holds llvm-symbolizer, without
# which a sanitizer's report gives addresses instead of file:line (seen on a
# fresh Debian 12 tree: "invalid path to external symbolizer").
sanitizer_packages=(
  clang libclang-rt-14-dev lld llvm-14
)
tidy_packages=(
  clang-tidy
)
# CPack's DEB generator finds the binaries with `file` and their Depends
# with dpkg-shlibdeps (dpkg-dev); lintian checks the package it made.
package_packages=(
  dpkg-dev file lintian
)
bench_packages=(
  nginx wrk time     # bench/wire.sh: a target that costs almost nothing, wrk's rate beside ours
)
case "$set_name" in
  program) ;;
  package) packages+=("${package_packages[@]}") ;;
  bench) packages+=("${build_packages[@]}" "${bench_packages[@]}") ;;
  build) packages+=("${build_packages[@]}") ;;
  asan) packages+=("${build_packages[@]}" "${sanitizer_packages[@]}") ;;
  tidy) packages+=("${build_packages[@]}" "${tidy_packages[@]}") ;;
  all) packages+=("${build_packages[@]}" "${test_packages[@]}") ;;
  *)
    echo "conform: scripts/deps.sh takes 'all', 'build', 'asan', 'tidy', 'program', 'package' or 'bench', not '$set_name'" >&2
    exit 2
    ;;
esac

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "conform: missing packages: ${missing[*]}; run this script as root to install them" >&2
  exit 2
fi

echo "conform: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
