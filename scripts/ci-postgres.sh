#!/usr/bin/env bash
# Runs a command (default: the session store tests) against a throwaway PostgreSQL cluster:
# installs Debian's postgresql package (and openssl, for the TLS tests) when missing, starts a cluster in a temp
# folder on a free port of 127.0.0.1 (as the postgres user: initdb refuses root), exports
# WEFT_TEST_POSTGRES_URL for the tests, and stops the cluster afterwards, whatever the outcome.
set -euo pipefail

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

BIN="$(find_bin)"
missing=()
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then missing+=(postgresql); fi
# The main suite's TLS tests (sdk provider-fetch) make their certificate with openssl.
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "ci-postgres: ${missing[*]} not installed and installing needs root (apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  BIN="$(find_bin)"
fi

DIR="$(mktemp -d /tmp/weft-ci-pg.XXXXXX)"
AS=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$DIR"
  AS=(runuser -u postgres --)
fi
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"

stop() {
  "${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT

"${AS[@]}" "$BIN/initdb" -D "$DIR/data" -U weft --auth=trust --no-sync -E UTF8 >/dev/null
"${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1" start >/dev/null

export WEFT_TEST_POSTGRES_URL="postgres://weft@127.0.0.1:$PORT/postgres"
echo "ci-postgres: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"

if [ "$#" -eq 0 ]; then set -- npx vitest run sessions; fi
"$@"
