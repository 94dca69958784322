#!/usr/bin/env bash
# Sets up Schemathesis 3.21.2 without a Python package index: Debian 12's
# python3 packages for most dependencies, and pure-Python sources checked out
# from git for the rest. 3.21.2 is the newest 3.x whose requirements Debian 12
# meets (3.22+ want jsonschema >= 4.18 and hypothesis >= 6.84; Debian has
# 4.10.3 and 6.67.1).
#
# The sources come from GitHub repositories, as clones or bare git dirs found
# under MIRROR (default /work/.mirror/<owner>+<name>/repo, where the search
# tool's fetch puts them), at these commits:
set -euo pipefail
. "$(dirname "$0")/lib.sh"
MIRROR=${MIRROR:-/work/.mirror}
SOURCES=(
  "schemathesis/schemathesis 8ab489d12fbfc04315d9d2245cffda81734a2fac sth src"           # v3.21.2
  "python-jsonschema/hypothesis-jsonschema a20d174e60e6ebf39e1f9e6a215149cf56cbf8a8 hj src" # 0.22.1
  "Stranger6667/hypothesis-graphql 26f4f88dd206b8e1fbc7995b2d01c32ac039f392 hg src"       # v0.9.2
  "vutran1710/PyrateLimiter c4a56878e5e91775856ed3280edf04478bd276e8 pr ."                # v2.10.0
  "graphql-python/graphql-core 430ee891a52d239adadf133d873fdca2a3fe009b gq src"           # v3.2.3
  "Kludex/starlette-testclient dafbc0765925587a70182b6eb1ae5637adc3c8e8 stc ."            # 0.2.0
)
apt_install python3 python3-hypothesis python3-jsonschema python3-requests python3-yaml \
  python3-click python3-attr python3-werkzeug python3-starlette python3-tomli python3-yarl \
  python3-httpx python3-pytest python3-pytest-subtests python3-colorama python3-backoff \
  python3-junit.xml python3-tomli-w python3-typing-extensions
dest=$(dirname "$ST")
mkdir -p "$dest"
pp=()
for s in "${SOURCES[@]}"; do
  set -- $s
  git_dir=$MIRROR/${1/\//+}/repo
  [ -d "$git_dir" ] || { say "missing $git_dir: fetch github:$1 first"; exit 1; }
  if [ ! -d "$dest/$3" ]; then
    mkdir -p "$dest/$3"
    # Only the package's own folder: the tests of some hold blobs a snapshot may lack.
    git --git-dir="$git_dir" archive "$2" "$4" | tar -x -C "$dest/$3"
  fi
  pp+=("$dest/$3/$4")
done
cat >"$ST" <<LAUNCH
#!/bin/sh
export PYTHONPATH=$(IFS=:; echo "${pp[*]}")
exec /usr/bin/python3 -c 'import sys; from schemathesis.cli import schemathesis; sys.argv[0] = "st"; schemathesis()' "\$@"
LAUNCH
chmod +x "$ST"
"$ST" --help >/dev/null && say "Schemathesis 3.21.2 ready: $ST"
