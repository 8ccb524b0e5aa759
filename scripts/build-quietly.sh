# Sourced by dev.sh (start.ts builds for npm start): builds the package, the compiler's and gulp's lines going to a log,
# so the console keeps one line per step. $1 names the caller in that line.
build_quietly() {
  mkdir -p .n8n-local
  echo "[$1] building the package (about 40-50 s; output in .n8n-local/build.log)"
  npm run --silent build > .n8n-local/build.log 2>&1 || { tail -n 40 .n8n-local/build.log; exit 1; }
}
