#!/usr/bin/env bash
# Runs the Restate runner's tests: the real restate-server from npm, real worker processes.
# The Restate SDK needs Node 22 (Promise.withResolvers), so the workers run on the node@22 npm
# package, installed once into restate/.node22 (kept out of the workspace: its `node` bin would
# shadow Node 20 for every npm script). The tests themselves run on the machine's Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22_DIR=restate/.node22
NODE22="$NODE22_DIR/node_modules/node/bin/node"
if [ ! -x "$NODE22" ]; then
  mkdir -p "$NODE22_DIR"
  npm install --prefix "$NODE22_DIR" --no-audit --no-fund --no-save node@22.23.3 >/dev/null
fi
export WEFT_NODE22="$PWD/$NODE22"
echo "ci-restate: workers on $("$WEFT_NODE22" --version)"
npx vitest run --config restate/vitest.config.ts "$@"
