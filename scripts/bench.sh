#!/usr/bin/env bash
# npm run bench: build the package (the bench installs dist/ into a real n8n and times the built
# code), then run every measurement of issue 6 in one go. Not part of npm test: it takes minutes
# and its figures are read side by side, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
exec node --require ts-node/register/transpile-only scripts/bench/run.ts "$@"
