#!/usr/bin/env bash
# Quick local gate before a commit: lint, types, unit tests (what .ci/run does, minus install/e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run lint --silent
npx tsc --noEmit -p tsconfig.json
npx tsc -p test/tsconfig.json
npx jest --silent "$@"
