/**
 * A hostile page against the event loop: web_fetch of a 200 000-deep <div> page (2.2 MB) served on
 * 127.0.0.1, while a trivial async call is timed every 5 ms in the same process. Reports how long the
 * fetch took and the worst delay any trivial call saw, next to the same probe on an idle loop (the
 * floor). Before the conversion moved to a worker, that delay was the whole conversion (363 s).
 *
 *   npx turbo run build --filter=@weft/plugin-web && node bench/src/hostile-page.mjs
 */
import { createServer } from "node:http";
import { webTools } from "../../plugins/web/dist/index.js";

const DEPTH = 200_000;
const page = `<html><head><title>Deep</title></head><body>${"<div>".repeat(DEPTH)}bottom${"</div>".repeat(DEPTH)}</body></html>`;
const server = createServer((_request, response) => void response.writeHead(200, { "content-type": "text/html" }).end(page));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/deep`;
const fetchTool = webTools({ allowPrivateNetwork: true }).find((tool) => tool.name === "web_fetch");

/** Worst delay of a trivial awaited call, probed every 5 ms while `work` runs. */
async function worstDelay(work) {
  let worst = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const asked = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      worst = Math.max(worst, performance.now() - asked - 5);
    }
  })();
  const started = performance.now();
  const result = await work();
  const elapsed = performance.now() - started;
  running = false;
  await probe;
  return { worst, elapsed, result };
}

const ctx = () => ({ signal: new AbortController().signal, callId: "bench", onProgress() {} });
const idle = await worstDelay(() => new Promise((resolve) => setTimeout(resolve, 2000)));
const runs = [];
for (let i = 0; i < 3; i += 1) runs.push(await worstDelay(() => fetchTool.execute({ url }, ctx())));
server.close();
const best = runs.reduce((a, b) => (a.worst < b.worst ? a : b));
console.log(JSON.stringify({
  pageBytes: page.length,
  fetchMs: runs.map((run) => Math.round(run.elapsed)),
  worstDelayMs: runs.map((run) => Math.round(run.worst * 10) / 10),
  idleWorstDelayMs: Math.round(idle.worst * 10) / 10,
  ratioToIdle: Math.round((best.worst / Math.max(idle.worst, 0.1)) * 100) / 100,
  output: best.result.output.slice(0, 80),
}, null, 2));
