#!/usr/bin/env bash
# Runs a command inside a minimal Debian 12 tree (debootstrap's minbase),
# with the project checkout at the same path, so that the outside programs
# the tests run (node, python3, chromium, curl, npm's validator) are Debian
# 12's own, installed by scripts/deps.sh in that tree, and nothing this
# machine installed by hand can hide a missing install step. .ci/run uses it
# for the tests that run outside programs (issue 36: Node 18's fetch sent a
# multipart body that CI's hand-installed Node 20 did not).
#
#   bash scripts/in-debian12.sh COMMAND [ARGS...]
#
# The tree is kept between runs (CONFORM_DEBIAN12_ROOT, default
# /var/cache/conform/debian12): made once (docs/performance.md, "The Debian
# 12 tree"), then only brought up to date by scripts/deps.sh inside it.
# Builds made in the checkout on this machine run there unchanged: the tree
# has the same Debian 12 libraries.
# Needs root (debootstrap, chroot, bind mounts). Exit status: COMMAND's, or
# 2 when the tree cannot be made or entered (said on stderr, never a pass).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$(pwd -P)
root=${CONFORM_DEBIAN12_ROOT:-/var/cache/conform/debian12}
say() { echo "conform: $*" >&2; }
[ $# -gt 0 ] || { say "usage: scripts/in-debian12.sh COMMAND [ARGS...]"; exit 2; }
if [ "$(id -u)" -ne 0 ]; then
  say "not run: a Debian 12 tree needs root (debootstrap, chroot)"
  exit 2
fi

if [ ! -x "$root/usr/bin/apt-get" ] || [ ! -f "$root/.conform-tree" ]; then
  command -v debootstrap >/dev/null 2>&1 || {
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap \
      >/dev/null
  }
  mirror=$(grep -m1 '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null |
    awk '{print $2}' || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  say "making a Debian 12 minbase tree in $root (kept for later runs)"
  rm -rf "$root"
  mkdir -p "$root"
  if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1; then
    say "not run: debootstrap failed; its log is $root.debootstrap.log"
    exit 2
  fi
  touch "$root/.conform-tree"
fi

# The same package sources and network settings as this machine.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
  rm -f "$root/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/* "$root/usr/local/share/ca-certificates/"
fi

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || true; done
}
trap unmount_all EXIT
bind() {
  mkdir -p "$root$2"
  if ! mountpoint -q "$root$2"; then
    mount --bind "$1" "$root$2" || { say "not run: cannot bind-mount $1 into $root"; exit 2; }
    mounted+=("$root$2")
  fi
}
bind /proc /proc
bind /sys /sys
bind /dev /dev
bind /dev/pts /dev/pts
bind "$checkout" "$checkout"
ccache_dir=${CCACHE_DIR:-$HOME/.cache/ccache}
if [ -d "$ccache_dir" ]; then bind "$ccache_dir" /root/.cache/ccache; fi

quoted=$(printf '%q ' "$@")
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 CI="${CI:-}" DEBIAN_FRONTEND=noninteractive \
  bash -c "cd $(printf '%q' "$checkout") && $quoted"
