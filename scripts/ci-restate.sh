#!/usr/bin/env bash
# Runs the Restate runner's tests: the real restate-server from npm, real worker processes.
# The Restate SDK needs Node 22 (Promise.withResolvers), so the workers run on scripts/node22.sh's
# binary; the tests themselves run on the machine's Node 20. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
WEFT_NODE22="$(scripts/node22.sh)"
export WEFT_NODE22
echo "ci-restate: workers on $("$WEFT_NODE22" --version)"
npx vitest run --config restate/vitest.config.ts "$@"
