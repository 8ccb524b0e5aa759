#!/usr/bin/env bash
# npm start: build the package, then hand over to start.ts (stand-in service + real n8n).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-quietly.sh
build_quietly start
exec node --require ts-node/register/transpile-only scripts/start.ts
