#!/usr/bin/env bash
# The @weft/ai-sdk tests: the AI SDK needs Node 22, so they run on the node@22 binary from npm
# (installed into scripts/node22 from its lockfile), outside the workspace's Node 20 vitest run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node22="$root/scripts/node22/node_modules/node/bin/node"
if [ ! -x "$node22" ]; then
  npm ci --prefix "$root/scripts/node22" --no-audit --no-fund
fi
"$node22" --version
cd "$root/plugins/ai-sdk"
exec "$node22" "$root/node_modules/vitest/vitest.mjs" run --config vitest.config.ts
