// Compaction under a long session: 200 turns of 10 tool rounds each in an 8k window, on the scripted
// model (no network). Reports summary calls per model call, the largest request as a share of the
// window, and the time spent compacting per model call (a ratio to the whole run's time per call, so
// it holds on a loaded machine). Runs on the workspace's Node 20 after `npx turbo run build`:
//   node bench/src/compaction.mjs            (TURNS=200 ROUNDS=10 WINDOW=8000 to change the shape)
import { Type } from "typebox";
import { createAgent, createKernel } from "@weft/core";
import { defineTool, memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";

const TURNS = Number(process.env.TURNS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const WINDOW = Number(process.env.WINDOW ?? 8000);
const OUTPUT_CHARS = Number(process.env.OUTPUT_CHARS ?? 1200);

// The prompt size a provider would report: the agent's own rule of thumb, 4 characters a token.
const tokensOf = (request) => Math.ceil((JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length) / 4);
const isSummary = (request) => request.messages[0]?.content?.startsWith("You summarise a conversation");

let round = 0;
let maxRequest = 0;
const reply = (request) => {
  const promptTokens = tokensOf(request);
  maxRequest = Math.max(maxRequest, promptTokens);
  const stats = { promptTokens, outputTokens: 30 };
  if (isSummary(request)) return { text: "Goals: read every part. Decisions: none. Files: part-*.txt read. Open questions: none.", stats };
  round++;
  if (round % (ROUNDS + 1) === 0) return { text: `Done after ${ROUNDS} rounds.`, stats };
  return { text: `Reading part ${round}.`, toolCalls: [{ name: "read", arguments: { path: `part-${round}.txt` } }], stats };
};

const kernel = createKernel({ logger: memoryLogger() });
kernel.hooks.tools.tap((tools) => {
  tools.add(
    defineTool({
      name: "read",
      description: "Read a file",
      input: Type.Object({ path: Type.String() }),
      execute: ({ path }) => ({ output: `${path}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(OUTPUT_CHARS / 27))}`.slice(0, OUTPUT_CHARS) }),
    }),
  );
});
let compactionMs = 0;
let compactionStarted = 0;
let compactions = 0;
kernel.hooks.feedback.tap((event) => {
  if (event.type === "compaction.started") compactionStarted = performance.now();
  else if (event.type === "compaction.finished" || event.type === "compaction.failed") {
    if (compactionStarted) compactionMs += performance.now() - compactionStarted;
    if (event.type === "compaction.finished") compactions++;
    compactionStarted = 0;
  }
});

const model = scriptedModel(Array.from({ length: 2 * TURNS * (ROUNDS + 1) }, () => reply), { contextWindow: WINDOW });
const agent = createAgent({ model, kernel, maxIterations: 0 });
await agent.startSession({ prompt: "You read files for the user." });
const started = performance.now();
for (let turn = 1; turn <= TURNS; turn++) {
  const response = await agent.process(`Turn ${turn}: read the next ${ROUNDS} parts and report.`);
  if (response.status !== "done") throw new Error(`turn ${turn} ended ${response.status}`);
}
const totalMs = performance.now() - started;
await kernel.close();

const summaries = model.requests.filter(isSummary).length;
const calls = model.requests.length - summaries;
const result = {
  shape: { turns: TURNS, roundsPerTurn: ROUNDS, window: WINDOW, toolOutputChars: OUTPUT_CHARS },
  modelCalls: calls,
  summaryCalls: summaries,
  compactions,
  summaryCallsPerModelCall: Number((summaries / calls).toFixed(4)),
  maxRequestOverWindow: Number((maxRequest / WINDOW).toFixed(3)),
  compactionMsPerModelCall: Number((compactionMs / calls).toFixed(4)),
  compactionShareOfRunTime: Number((compactionMs / totalMs).toFixed(4)),
};
console.log(JSON.stringify(result, null, 2));
