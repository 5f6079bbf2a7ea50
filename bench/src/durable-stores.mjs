// Write-ahead cost per tool call: what making one tool result durable costs in each store, as a
// ratio to the file store's own write-ahead (one JSON line appended to the session's log). Runs on
// the workspace's Node 20 (better-sqlite3 is built for it). PostgreSQL needs a server:
//   bash scripts/ci-postgres.sh node bench/src/durable-stores.mjs [--json]
// (bench/src/durable.mjs runs it three times and gives ranges).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileSessionStore } from "@weft/core";
import { sqliteSessionStore } from "@weft/sessions/sqlite";
import { postgresSessionStore } from "@weft/sessions/postgres";

const CALLS = Number(process.env.CALLS ?? 300);
const MESSAGES = 40;
const dir = mkdtempSync(join(tmpdir(), "weft-bench-stores-"));
const text = "x".repeat(400);
const messages = Array.from({ length: MESSAGES }, (_, index) =>
  index % 3 === 0 ? { role: "user", content: text } : index % 3 === 1 ? { role: "assistant", content: text, toolCalls: [{ id: `c${index}`, name: "t", arguments: { a: 1 } }] } : { role: "tool", toolCallId: `c${index - 1}`, toolName: "t", content: text },
);
const record = (index) => ({ kind: "tool-result", turnId: "t1", message: { role: "tool", toolCallId: `w${index}`, toolName: "t", content: text } });

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(name, setup, once) {
  const context = await setup();
  const samples = [];
  for (let index = 0; index < CALLS; index++) {
    const started = performance.now();
    await once(context, index);
    samples.push(performance.now() - started);
  }
  await context.close?.();
  return { name, medianMs: median(samples) };
}

const rows = [];
const state = { version: 1, sessionId: "s", messages, services: {} };
rows.push(
  await measure("file append (write-ahead log line)", async () => {
    const store = fileSessionStore(join(dir, "appends"));
    await store.save("s", state);
    return { store };
  }, async ({ store }, index) => {
    await store.append("s", record(index));
  }),
);
rows.push(
  await measure("file save (whole-session rewrite)", async () => ({ store: fileSessionStore(join(dir, "files")) }), async ({ store }, index) => {
    await store.save("s", { ...state, messages: [...messages, ...Array.from({ length: index % 10 }, (_, n) => record(n).message)] });
  }),
);
const snapshot = { messages, services: {} };
const appending = (open) => async () => {
  const store = await open();
  await store.save("s", snapshot, 0);
  return { store, version: 1, close: () => store.close() };
};
const append = async (context, index) => {
  context.version = await context.store.append("s", record(index), context.version);
};
rows.push(await measure("sqlite append (WAL, synchronous FULL)", appending(() => sqliteSessionStore({ file: join(dir, "bench.db") })), append));
const url = process.env.WEFT_TEST_POSTGRES_URL;
if (url) rows.push(await measure("postgres append (local server, fsync on)", appending(() => postgresSessionStore({ url })), append));
else console.error("no WEFT_TEST_POSTGRES_URL: the postgres row is left out (run through scripts/ci-postgres.sh)");
if (url) {
  const cleanup = postgresSessionStore({ url });
  await cleanup.delete("s");
  await cleanup.close();
}
rmSync(dir, { recursive: true, force: true });

const file = rows[0].medianMs;
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ calls: CALLS, messages: MESSAGES, rows: rows.map((row) => ({ ...row, ratio: row.medianMs / file })) }));
  process.exit(0);
}
console.log(`write-ahead cost per tool call (${CALLS} calls, a ${MESSAGES}-message session, median)`);
for (const row of rows) console.log(`${row.name.padEnd(44)} ${row.medianMs.toFixed(3).padStart(8)} ms  ${(row.medianMs / file).toFixed(2)}x file`);
