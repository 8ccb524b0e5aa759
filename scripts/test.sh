#!/usr/bin/env bash
# npm test: build the package (the end-to-end suite loads dist/ into a real n8n), lint it as the
# community-node scanner would (and the sandbox, scripts and tests with typescript-eslint) and with
# the rules of n8n's own `n8n-node lint` (@n8n/node-cli's exported config), check
# that every file is formatted as prettier writes it,
# typecheck the whole tree (the build compiles only nodes/ and credentials/, and jest's ts-jest
# only the files a test imports), then every jest project, with jest's JSON report kept for CI.
set -euo pipefail
cd "$(dirname "$0")/.."
# Before `npm install` the build fails with a bare "sh: tsc: not found": say what to do instead.
for tool in tsc jest; do
  if [ ! -x "node_modules/.bin/$tool" ]; then
    echo "[test] this project's dependencies are not installed (no node_modules/.bin/$tool): run npm install first, then npm test" >&2
    exit 1
  fi
done
npm run --silent build
npm run --silent lint
npm run --silent lint:n8n-node
npm run --silent format:check
npm run --silent typecheck
# Node 24 for the engine test that runs n8n's vm expression engine (seconds; cached after). Without
# it (offline on a first run) that one test fails, saying so; every other result is still reported.
N8N_NODE_ONLY=1 bash scripts/install-n8n.sh >/dev/null ||
  echo "[test] Node.js 24 is not installed (see above): the engine test that needs it will fail; the rest run" >&2
mkdir -p test-output
exec npx jest --json --outputFile=test-output/jest-report.json "$@"
