#!/usr/bin/env bash
# CI step: pack every publishable package (each `npm pack` runs its prepack build) and prove the
# tarballs work when installed as users install them, outside the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
node scripts/pack.mjs --out "$out" >/dev/null
node scripts/tarball-install.mjs "$out"
