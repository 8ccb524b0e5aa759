#!/usr/bin/env bash
# npm run test:compat [-- VERSION… [-- JEST ARGS…]]: build the package, then run the end-to-end suite
# against every n8n version in scripts/compat/versions.json (scripts/compat/run.ts). Long: each
# version not cached yet installs first (3-7 minutes), and each e2e run takes 1-3 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
# CHAT_MESSAGING_TARBALL=path/to.tgz tests that tarball (a release candidate) instead of a fresh build.
if [ -z "${CHAT_MESSAGING_TARBALL:-}" ]; then npm run --silent build; fi
exec node --require ts-node/register/transpile-only scripts/compat/run.ts "$@"
