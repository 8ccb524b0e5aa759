#!/usr/bin/env bash
# npm start: build the package, then hand over to start.ts (stand-in service + real n8n).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
exec node --require ts-node/register/transpile-only scripts/start.ts
