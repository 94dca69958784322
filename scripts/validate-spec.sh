#!/usr/bin/env bash
# Validates specs/voice-api.yaml with validators that are not Conform's own:
#  - required: the OpenAPI 3.1 JSON meta-schema and JSON Schema 2020-12 for
#    every Schema Object (scripts/spec-validator/validate.mjs, on the npm
#    package @seriousme/openapi-schema-validator that scripts/spec-tools.sh
#    installs, pinned). If it cannot run, this prints "not run: why" and fails.
#  - optional: openapi-spec-validator, when the machine happens to have it
#    (it is not installable here: no pip); says "not run" when absent.
# Exit status: 0 valid, 1 invalid, 2 the required validator could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
spec=specs/voice-api.yaml

if ! bash scripts/spec-tools.sh; then
  echo "openapi 3.1 meta-schema: not run: installing the validator failed (bash scripts/spec-tools.sh)"
  exit 2
fi
status=0
node scripts/spec-validator/validate.mjs "$spec" || status=$?
if [ "$status" -ne 0 ]; then
  exit "$status"
fi

if command -v openapi-spec-validator >/dev/null 2>&1; then
  openapi-spec-validator "$spec"
else
  echo "openapi-spec-validator: not run: not installed on this machine (optional second opinion; the required check above ran)"
fi
