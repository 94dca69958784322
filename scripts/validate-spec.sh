#!/usr/bin/env bash
# Validates specs/voice-api.yaml with openapi-spec-validator when the machine
# has it, and says so when it does not (never a silent pass).
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v openapi-spec-validator >/dev/null 2>&1; then
  openapi-spec-validator specs/voice-api.yaml
elif python3 -c 'import openapi_spec_validator' >/dev/null 2>&1; then
  python3 -m openapi_spec_validator specs/voice-api.yaml
else
  echo "openapi-spec-validator: not run: not installed on this machine (pip install openapi-spec-validator)"
fi
