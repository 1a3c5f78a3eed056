#!/usr/bin/env bash
# Quick local gate before a commit: lint, types, unit tests (what .ci/run does, minus install/e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
# n8n-node lint exits 0 on warnings; verification wants none.
lint=$(npm run lint --silent 2>&1) || { echo "$lint"; exit 1; }
if grep -q "problem" <<<"$lint"; then echo "$lint"; exit 1; fi
npx tsc --noEmit -p tsconfig.json
npx tsc -p test/tsconfig.json
npx jest --silent "$@"
