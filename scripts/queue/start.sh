#!/usr/bin/env bash
# npm run start:queue: build the package, then hand over to start.ts (Postgres, Redis, the stand-in
# service and n8n in queue mode: one main, one worker, one webhook processor; `-- --scaled`: two workers
# and two webhook processors behind nginx).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent build
exec node --require ts-node/register/transpile-only scripts/queue/start.ts "$@"
