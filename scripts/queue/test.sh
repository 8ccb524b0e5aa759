#!/usr/bin/env bash
# npm run test:queue: build the package (every n8n process installs dist/), then the jest project
# 'queue', which exists only with JEST_QUEUE_PROJECT=1 so a plain `npx jest` or `npm test` skips it.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent build
mkdir -p test-output
export JEST_QUEUE_PROJECT=1
exec npx jest --selectProjects queue --runInBand --json --outputFile=test-output/jest-queue-report.json "$@"
