#!/usr/bin/env bash
# npm run dev: a contributor's loop, like n8n's own `n8n-node dev`. The stand-in service and a real
# n8n as `npm start` brings them up (same .n8n-local/ folder, owner, credentials and examples), but
# with this clone linked into n8n instead of a packed copy installed, and n8n started with
# N8N_DEV_RELOAD, so it reloads the package when dist/ changes. tsc --watch and gulp's icon watch
# rebuild dist/ on save; the editor shows the change after a reload of the page. Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/tsc ]; then
  echo "[dev] this project's dependencies are not installed (no node_modules/.bin/tsc): run npm install first, then npm run dev" >&2
  exit 1
fi
source scripts/build-quietly.sh
build_quietly dev

bin=node_modules/.bin
say() { echo "[dev] $*"; }
children=()
stopping=0
stop_all() {
  [ "$stopping" = 1 ] && return
  stopping=1
  trap - INT TERM EXIT
  say "stopping n8n, the stand-in service and the watchers"
  # Started by a script, the children ignore Ctrl-C's SIGINT: each is told to stop.
  for pid in "${children[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap 'stop_all; exit 0' INT TERM
trap stop_all EXIT

# Every successful compile after the first is a change n8n picks up by itself (N8N_DEV_RELOAD).
annotate_compiler() {
  local compiles=0
  while IFS= read -r line; do
    echo "[dev:tsc] $line"
    case "$line" in
      *"Found 0 errors"*)
        compiles=$((compiles + 1))
        if [ "$compiles" -gt 1 ]; then
          say "rebuilt: n8n reloads the package by itself; reload the editor page (F5) to see the change"
        fi
        ;;
    esac
  done
}
"$bin/tsc" -p tsconfig.build.json --watch --preserveWatchOutput --watchFile useFsEventsOnParentDirectory > >(annotate_compiler) 2>&1 &
children+=($!)
"$bin/gulp" watch:icons > .n8n-local/dev-icons.log 2>&1 &
children+=($!)

say "n8n loads community packages when it starts; N8N_DEV_RELOAD makes it load this one again when dist/ changes"
# n8n watches the whole linked clone: its database and log go outside it (one folder per clone).
dev_n8n="${CHAT_MESSAGING_CACHE:-$HOME/.cache/n8n-nodes-chat-messaging}/dev/$(pwd | sha1sum | cut -c1-10)/n8n"
say "n8n's folder for this clone: $dev_n8n"
CHAT_MESSAGING_SKIP_BUILD=1 CHAT_MESSAGING_LINK_PACKAGE=1 CHAT_MESSAGING_DEV_N8N_FOLDER="$dev_n8n" N8N_DEV_RELOAD=true \
  node --require ts-node/register/transpile-only scripts/start.ts &
children+=($!)

# Whichever ends first (n8n failing to start, Ctrl-C) ends the others.
wait -n || true
