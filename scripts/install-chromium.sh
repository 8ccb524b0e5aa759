#!/usr/bin/env bash
# Debian's Chromium for the browser test; playwright-core drives it (its own browser download
# cannot reach the internet here). Needs root, as on these machines and in CI. About 15 s once.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
# One installer at a time: the browser test files (and clones) may ask at once, and a second
# apt-get fails on dpkg's lock instead of waiting. The one that waited finds it installed.
exec 9>"${TMPDIR:-/tmp}/n8n-nodes-chat-messaging-install-chromium.lock"
flock 9
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[install-chromium] installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
