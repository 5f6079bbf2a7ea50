#!/usr/bin/env bash
# Prints the path of a real Node 22 binary (the node@22 npm package, installed once into
# scripts/node22 from its lockfile) for the suites that need Node 22: the AI SDK's and the Restate
# SDK's. It stays out of the workspace: a root `node` bin would shadow Node 20 for every npm script.
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/node22"
node22="$dir/node_modules/node/bin/node"
if [ ! -x "$node22" ]; then
  npm ci --prefix "$dir" --no-audit --no-fund >&2
fi
echo "$node22"
