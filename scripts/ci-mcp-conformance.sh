#!/usr/bin/env bash
# The official MCP conformance harness (@modelcontextprotocol/conformance 0.1.16, installed once into
# scripts/mcp-conformance from its lockfile) against weft's MCP client: the harness runs on
# scripts/node22.sh's binary, weft's client (plugins/mcp's conformance driver) on this Node. Needs the
# workspace built (the driver imports the built @weft packages). Extra arguments go to vitest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node22="$("$root/scripts/node22.sh")"
harness="$root/scripts/mcp-conformance"
if [ ! -f "$harness/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  npm ci --prefix "$harness" --no-audit --no-fund >&2
fi
echo "ci-mcp-conformance: harness on $("$node22" --version), weft's client on $(node --version)"
cd "$root/plugins/mcp"
WEFT_NODE22="$node22" exec node "$root/node_modules/vitest/vitest.mjs" run --config vitest.conformance.config.ts "$@"
