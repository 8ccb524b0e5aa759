#!/usr/bin/env bash
# npm run dev: a contributor's loop, like n8n's own `n8n-node dev`. The stand-in service and a real
# n8n as `npm start` brings them up (same .n8n-local/ state: owner, credentials and examples), but
# with this clone linked into n8n instead of a packed copy installed, n8n's own folder outside the
# clone, and n8n started with N8N_DEV_RELOAD, so it reloads the package when the clone changes.
# tsc --watch makes dist/ (its first compile is the build: n8n starts after it, not during another)
# and, with gulp's icon watch, makes it again on save; once n8n has loaded the change, this
# says to reload the editor page, which shows it then. Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/tsc ]; then
  echo "[dev] this project's dependencies are not installed (no node_modules/.bin/tsc): run npm install first, then npm run dev" >&2
  exit 1
fi
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

# n8n watches the whole linked clone: its database and log go outside it (one folder per clone).
dev_n8n="${CHAT_MESSAGING_CACHE:-$HOME/.cache/n8n-nodes-chat-messaging}/dev/$(pwd | sha1sum | cut -c1-10)/n8n"
n8n_log="$dev_n8n/n8n.log"
# What the editor reads when its page loads: n8n writes it again at the end of each reload.
node_types="$dev_n8n/.cache/n8n/public/types/nodes.json"
# Made by the first compile without errors: dist/ is whole, n8n may start.
compiled="$(dirname "$dev_n8n")/compiled"
# For this user only, as npm start keeps them (scripts/n8n/privateFiles.ts): n8n's settings hold
# the key to every stored credential. What an earlier run left wider is narrowed before anything
# writes there, by npm start's own code: a wider file becomes a new private file (a chmod would
# leave a descriptor someone opened while it was wider reading what is appended later).
(umask 077 && mkdir -p .n8n-local "$(dirname "$dev_n8n")")
chmod 700 "$(dirname "$(dirname "$dev_n8n")")"
node --require ts-node/register/transpile-only \
  -e 'require("./scripts/n8n/privateFiles").keepLocalFilesPrivate(process.argv.slice(1))' \
  .n8n-local "$(dirname "$dev_n8n")"
# A log only this user can read: created 0600, an existing one narrowed (a redirection keeps it).
private_log() { (umask 077 && : >>"$1") && chmod 600 "$1"; }
rm -f "$compiled"

# The compiler's lines; the first compile without errors marks dist/ whole ($compiled); after
# every later one, word of when n8n has loaded the new dist/. n8n (N8N_DEV_RELOAD) reloads the
# package on every change in the clone, a saved source file as well as the compiled one, and
# reloads can overlap: each starts with "Hot reload triggered" in its log and ends by writing
# node_types again (or with "Hot reload failed"). The page shows the change once one has ended
# after the compile and none is under way (counted; two writes close together can count as one,
# so n8n quiet for longer than the compile took also does): under load that took 15 s after the compile,
# and a page reloaded before it still showed the old description.
# A marker given node_types' time whenever n8n is seen writing it.
types_seen="$(dirname "$dev_n8n")/types-seen"
annotate_compiler() {
  umask 077 # its marker files, in n8n's private folder
  local compiles=0 under_way=0 waiting=0 compiled_at=0 ended_since=0 writing=0
  local line status log_fd='' partial='' entry log_existed=0 started_line='' failed=0
  local change_at=0 quiet_for=3 last_activity=0
  # Polled twice a second with shell built-ins only: a fork per poll would add thousands of
  # processes over a session on a machine n8n already finds slow.
  [ -e "$n8n_log" ] && log_existed=1
  rm -f "$types_seen"
  while :; do
    status=0
    IFS= read -r -t 0.5 line || status=$?
    if [ "$status" -gt 128 ]; then
      started_line="$started_line$line" # timed out part-way through a line: kept for the rest
    elif [ "$status" = 0 ]; then
      line="$started_line$line"
      started_line=''
      echo "[dev:tsc] $line"
      case "$line" in
        *"File change detected"*) change_at=$SECONDS ;;
        *"Found 0 errors"*)
          compiles=$((compiles + 1))
          if [ "$compiles" = 1 ]; then
            : >"$compiled"
          else
            say "rebuilt: n8n is loading the package again; wait for \"reload the editor page\""
            waiting=1
            compiled_at=$SECONDS
            ended_since=0
            failed=0
            # The reload set off by the saved source and the one by the compiled file end about a
            # compile apart: quiet for longer than that, n8n has done.
            quiet_for=$((SECONDS - change_at + 2))
            if [ "$quiet_for" -lt 3 ]; then quiet_for=3; fi
          fi
          ;;
        *"Found "*" error"*)
          if [ "$compiles" = 0 ]; then
            say "the compiler found errors (above): fix them and save; n8n starts after the first compile without errors"
          fi
          ;;
      esac
    else
      break # the compiler has ended
    fi
    # Reloads started and failed, from n8n's log as it grows (an earlier run's lines skipped).
    if [ -z "$log_fd" ] && [ -e "$n8n_log" ]; then
      exec {log_fd}<"$n8n_log"
      if [ "$log_existed" = 1 ]; then
        while IFS= read -r -u "$log_fd" entry; do :; done
      fi
    fi
    if [ -n "$log_fd" ]; then
      entry=''
      while IFS= read -r -u "$log_fd" entry; do
        case "$partial$entry" in
          *"Hot reload triggered for n8n-nodes-chat-messaging"*)
            under_way=$((under_way + 1))
            last_activity=$SECONDS
            ;;
          *"Hot reload failed for n8n-nodes-chat-messaging"*)
            under_way=$((under_way - 1))
            failed=1
            ;;
        esac
        partial=''
        entry=''
      done
      partial="$partial$entry" # a line n8n is still writing
    fi
    # Reloads ended: node_types written again, and no longer being written (one poll unchanged).
    if [ -e "$node_types" ] && { [ ! -e "$types_seen" ] || [ "$node_types" -nt "$types_seen" ]; }; then
      touch -r "$node_types" "$types_seen"
      writing=1
      last_activity=$SECONDS
    elif [ "$writing" = 1 ]; then
      writing=0
      under_way=$((under_way - 1))
      ended_since=1
    fi
    # n8n's own start writes node_types without a reload: never below none.
    if [ "$under_way" -lt 0 ]; then under_way=0; fi
    if [ "$waiting" = 1 ]; then
      if [ "$failed" = 1 ]; then
        say "n8n could not load the package again (its log: $n8n_log): the editor keeps the last version that loaded"
        waiting=0
      elif [ "$ended_since" = 1 ] && [ $((SECONDS - compiled_at)) -ge 2 ] &&
        { [ "$under_way" = 0 ] || [ $((SECONDS - last_activity)) -ge "$quiet_for" ]; }; then
        say "n8n has loaded the change: reload the editor page (F5) to see it"
        waiting=0
      elif [ $((SECONDS - compiled_at)) -ge 120 ]; then
        say "n8n has not finished loading the package again 2 minutes after the build (its log: $n8n_log); reload the editor page (F5) once it has"
        waiting=0
      fi
    fi
  done
}
say "compiling the package with tsc --watch (the first compile usually 5-15 s, as npm start's build; n8n starts after it)"
"$bin/tsc" -p tsconfig.build.json --watch --preserveWatchOutput --watchFile useFsEventsOnParentDirectory > >(annotate_compiler) 2>&1 &
compiler=$!
children+=($compiler)
while [ ! -e "$compiled" ]; do
  if ! kill -0 "$compiler" 2>/dev/null; then
    say "the compiler ended before its first compile"
    exit 1
  fi
  sleep 1
done
# The icons and codex files (npm run build's second half), then kept up to date on save.
private_log .n8n-local/build.log
private_log .n8n-local/dev-icons.log
if ! "$bin/gulp" build:icons > .n8n-local/build.log 2>&1; then
  tail -n 40 .n8n-local/build.log
  exit 1
fi
"$bin/gulp" watch:icons > .n8n-local/dev-icons.log 2>&1 &
children+=($!)

say "n8n loads community packages when it starts; N8N_DEV_RELOAD makes it load this one again when dist/ changes"
say "n8n's folder for this clone: $dev_n8n"
CHAT_MESSAGING_SKIP_BUILD=1 CHAT_MESSAGING_LINK_PACKAGE=1 CHAT_MESSAGING_DEV_N8N_FOLDER="$dev_n8n" N8N_DEV_RELOAD=true \
  node --require ts-node/register/transpile-only scripts/start.ts &
children+=($!)

# Whichever ends first (n8n failing to start, Ctrl-C) ends the others.
wait -n || true
