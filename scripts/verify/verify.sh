#!/usr/bin/env bash
# npm run verify: build, then pack the package and check the tarball as n8n's community package
# scanner would (scripts/verify/verify.mjs), and lint the GitHub workflows with actionlint.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent build
exec node scripts/verify/verify.mjs
