#!/usr/bin/env bash
# Installs the OpenAPI 3.1 validator that scripts/validate-spec.sh runs: the
# npm package @seriousme/openapi-schema-validator 2.11.0, its dependencies
# pinned by scripts/spec-validator/package-lock.json (`npm ci`), into
# scripts/spec-validator/node_modules (not committed). Installs Debian's
# nodejs and npm first when the machine lacks them (as root). Quick when the
# pinned version is already there: one `node -p`, no npm at all.
set -euo pipefail
cd "$(dirname "$0")/spec-validator"
want=2.11.0
pkg=node_modules/@seriousme/openapi-schema-validator/package.json

if command -v node >/dev/null 2>&1; then
  have=$(node -p "require('./$pkg').version" 2>/dev/null || true)
  [ "$have" = "$want" ] && exit 0
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "conform: node and npm are missing; run this script as root to install them" >&2
    exit 2
  fi
  echo "conform: installing nodejs npm" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

echo "conform: installing @seriousme/openapi-schema-validator@$want (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error >&2
