import { startMockLlmServer } from "./mock-llm-server.mjs";
const which = process.argv[2];
const { setup } = await import(`./runners/${which}.mjs`);
const llm = await startMockLlmServer();
const r = await setup({ scenario: process.argv[3] ?? "mcp", llmUrl: llm.url, mcpServer: { command: process.execPath, args: [new URL("./mcp-server.mjs", import.meta.url).pathname] }, skillsDir: "" });
const mb = (v) => (v / 2 ** 20).toFixed(1);
for (let round = 0; round < 6; round++) {
  for (let i = 0; i < 1000; i++) await r.run();
  globalThis.gc();
  const m = process.memoryUsage();
  console.log(which, (round + 1) * 1000, "rss", mb(m.rss), "heapUsed", mb(m.heapUsed), "heapTotal", mb(m.heapTotal), "external", mb(m.external), "arrayBuffers", mb(m.arrayBuffers));
}
await r.close(); await llm.close(); process.exit(0);
