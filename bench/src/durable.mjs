// The durable benchmarks, three runs each, as ranges:
// - the Restate runner against the in-process agent on the same script (durable-restate.mjs, on
//   this Node 22 binary: the Restate SDK needs it; the real restate-server from npm);
// - the SQLite / PostgreSQL stores' write-ahead cost per tool call against the file store's
//   (durable-stores.mjs, on the workspace's Node 20, which better-sqlite3 is built for: `node` on
//   PATH, or WEFT_NODE20; PostgreSQL through scripts/ci-postgres.sh, a throwaway cluster, unless
//   WEFT_TEST_POSTGRES_URL names a server).
//
//   bench/node_modules/node/bin/node bench/src/durable.mjs [out.json] [--runs 3]
//   (or: cd bench && npm run bench -- --only durable)
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const srcDir = dirname(fileURLToPath(import.meta.url));
const root = join(srcDir, "..", "..");
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: "string", default: "3" } } });
const runs = Number(flags.runs);

/** Runs a bench script and resolves with the JSON line it printed last. */
function runJson(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: root, env: { ...process.env, ...env }, timeout: 900_000, maxBuffer: 16 * 2 ** 20 }, (error, stdout, stderr) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${args.join(" ")} failed: ${error?.message ?? "no JSON"}\n${stderr.slice(-1500)}`));
      }
    });
  });
}

const stores = () => {
  const node20 = process.env.WEFT_NODE20 ?? "node";
  const script = join(srcDir, "durable-stores.mjs");
  if (process.env.WEFT_TEST_POSTGRES_URL) return runJson(node20, [script, "--json"]);
  return runJson("bash", [join(root, "scripts", "ci-postgres.sh"), node20, script, "--json"]);
};
const restate = () => runJson(process.execPath, [join(srcDir, "durable-restate.mjs"), "--json"]);

const range = (values, digits = 2) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low.toFixed(digits) === high.toFixed(digits) ? low.toFixed(digits) : `${low.toFixed(digits)}–${high.toFixed(digits)}`;
};

const restateRuns = [];
const storeRuns = [];
for (let run = 0; run < runs; run++) {
  process.stderr.write(`durable run ${run + 1}/${runs}: restate ... `);
  restateRuns.push(await restate());
  process.stderr.write("stores ... ");
  storeRuns.push(await stores());
  process.stderr.write("done\n");
}

const perStep = (row) => (row.restateMs - row.inProcessMs) / row.stepsPerTurn;
const lines = [
  `Restate runner vs in-process agent (${runs} runs; ${restateRuns[0]?.turns} sequential one-turn sessions of ${restateRuns[0]?.stepsPerTurn} steps, median per turn)`,
  `  in-process turn         ${range(restateRuns.map((row) => row.inProcessMs))} ms`,
  `  restate turn            ${range(restateRuns.map((row) => row.restateMs))} ms = ${range(restateRuns.map((row) => row.restateMs / row.inProcessMs), 0)}x in-process`,
  `  per-step overhead       ${range(restateRuns.map(perStep))} ms = ${range(restateRuns.map((row) => perStep(row) / (row.inProcessMs / row.stepsPerTurn)), 0)}x an in-process step`,
  `  with events to caller   ${range(restateRuns.map((row) => row.withEventsMs))} ms = ${range(restateRuns.map((row) => row.withEventsMs / row.restateMs))}x without`,
  `  sessions/s (${restateRuns[0]?.sessions} concurrent): 1 worker ${range(restateRuns.map((row) => row.oneWorker), 1)}, 2 workers ${range(restateRuns.map((row) => row.twoWorkers), 1)} = ${range(restateRuns.map((row) => row.twoWorkers / row.oneWorker))}x`,
  `Write-ahead cost per tool call (${runs} runs; ${storeRuns[0]?.calls} calls, a ${storeRuns[0]?.messages}-message session, median)`,
  ...(storeRuns[0]?.rows ?? []).map(
    (row, index) =>
      `  ${row.name.padEnd(42)} ${range(storeRuns.map((run) => run.rows[index]?.medianMs ?? Number.NaN), 3).padStart(12)} ms = ${range(storeRuns.map((run) => run.rows[index]?.ratio ?? Number.NaN))}x file append`,
  ),
];
console.log(lines.join("\n"));
const out = positionals[0];
if (out) writeFileSync(out, `${JSON.stringify({ ok: true, runs, restate: restateRuns, stores: storeRuns, lines })}\n`);
