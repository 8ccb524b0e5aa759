#!/usr/bin/env bash
# Debian's Chromium for the browser test; playwright-core drives it (its own browser download
# cannot reach the internet here). Needs root, as on these machines and in CI. About 15 s once.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
# One installer at a time: the browser test files (and clones) may ask at once, and a second
# apt-get fails on dpkg's lock instead of waiting. The one that waited finds it installed.
# The lock lives in this user's own cache folder, not under a fixed name in /tmp: there, another
# local user could plant a link by that name, and root would empty the file it points to.
CACHE_ROOT="${CHAT_MESSAGING_CACHE:-$HOME/.cache/n8n-nodes-chat-messaging}"
mkdir -p -m 700 "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.install-chromium.lock"
flock 9
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[install-chromium] installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
