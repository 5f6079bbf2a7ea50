import { startMockLlmServer } from "./mock-llm-server.mjs";
import { setup } from "./runners/weft.mjs";
import { setup as floorSetup } from "./runners/floor.mjs";
import { summarize } from "./stats.mjs";
const llm = await startMockLlmServer();
const cfg = (scenario) => ({ scenario, llmUrl: llm.url, mcpServer: { command: process.execPath, args: ["/work/main/bench/src/mcp-server.mjs"] }, skillsDir: "/work/main/bench/skills" });
const which = process.argv[2];
const a = which === "floor" ? await floorSetup(cfg("floor")) : await setup(cfg(which));
const s = [];
for (let i = 0; i < 1500; i++) { const t = performance.now(); await a.run(); if (i >= 100) s.push(performance.now() - t); }
const x = summarize(s); console.log(which, "p50", x.p50.toFixed(3), "mean", x.mean.toFixed(3), "p95", x.p95.toFixed(3));
await a.close(); await llm.close();
