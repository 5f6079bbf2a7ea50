/**
 * One process of a turn that a 2026-07-28 server's multi-round-trip call suspends, for the test that the
 * round resumes in another process from the file session store:
 *   mrtr-host ask <storeDir> <server entry as JSON>     runs the turn to the server's question, prints it, exits
 *   mrtr-host answer <storeDir> <server entry as JSON>  answers it (accept, ok: true), prints what the model read
 */
import { createAgent, fileSessionStore } from "@weft/core";
import { memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createTestKernel } from "@weft/testing";
import mcp from "../index.js";

const [mode, storeDir = "", entry = "{}"] = process.argv.slice(2);
const kernel = await createTestKernel([[mcp, { config: { mcpServers: { deploy: JSON.parse(entry) } }, elicitation: true }]], { logger: memoryLogger() });
const store = fileSessionStore(storeDir);
if (mode === "ask") {
  const model = scriptedModel([{ toolCalls: [{ name: "deploy__confirm", arguments: { target: "prod" } }] }]);
  const agent = createAgent({ model, kernel, store, sessionId: "deploy-1" });
  await agent.startSession();
  const response = await agent.process("deploy prod");
  process.stdout.write(`${JSON.stringify({ status: response.status, suspension: response.status === "pending" ? response.suspension : undefined, mcp: kernel.scope("host").need("mcp").status() })}\n`);
  await agent.close();
} else {
  const model = scriptedModel(["Deployed."]);
  const agent = createAgent({ model, kernel, store, sessionId: "deploy-1" });
  await agent.startSession();
  const response = await agent.resume({ action: "accept", content: { ok: true } });
  const read = model.requests[0]?.messages.find((message) => message.role === "tool")?.content;
  process.stdout.write(`${JSON.stringify({ status: response.status, content: response.content, read })}\n`);
  await agent.close();
}
await kernel.close();
