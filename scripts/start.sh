#!/usr/bin/env bash
# npm start: build the package, then hand over to start.ts (stand-in service + real n8n).
set -euo pipefail
cd "$(dirname "$0")/.."
# The compiler's and gulp's lines go to a log: the console keeps one line per step.
mkdir -p .n8n-local
echo "[start] building the package (about 30 s; output in .n8n-local/build.log)"
npm run --silent build > .n8n-local/build.log 2>&1 || { tail -n 40 .n8n-local/build.log; exit 1; }
exec node --require ts-node/register/transpile-only scripts/start.ts
