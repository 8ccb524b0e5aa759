#!/usr/bin/env bash
# npm start: check that `npm install` ran, then hand over to start.ts, which builds the package and
# starts the stand-in service and a real n8n, and ends everything it started on every way out.
set -euo pipefail
cd "$(dirname "$0")/.."
# Before `npm install` the build fails with a bare "sh: tsc: not found": say what to do instead.
for tool in tsc ts-node; do
  if [ ! -x "node_modules/.bin/$tool" ]; then
    echo "[start] this project's dependencies are not installed (no node_modules/.bin/$tool): run npm install first, then npm start" >&2
    exit 1
  fi
done
exec node --require ts-node/register/transpile-only scripts/start.ts
