#!/usr/bin/env bash
# npm run bench:queue: build the package (every n8n process installs dist/), then time sends per
# second on the scaled queue layout with one worker and with two (bench.ts). Not part of npm test.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent build
exec node --require ts-node/register/transpile-only scripts/queue/bench.ts "$@"
