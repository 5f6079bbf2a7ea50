#!/usr/bin/env bash
# The @weft/ai-sdk tests: the AI SDK needs Node 22, so they run on scripts/node22.sh's binary,
# outside the workspace's Node 20 vitest run. Extra arguments go to vitest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node22="$("$root/scripts/node22.sh")"
echo "ci-ai-sdk: on $("$node22" --version)"
cd "$root/plugins/ai-sdk"
exec "$node22" "$root/node_modules/vitest/vitest.mjs" run --config vitest.config.ts "$@"
