// One weft process of a stored session: a kernel with the built A2A plugin and an agent on the given
// store run one step of the session (the model asks the agent tool to say something, or the host
// answers the question the tool left pending), then print how the turn ended and what the tool said.
// argv: <store: file | sqlite | postgres> <folder | file | URL> <session id> <card URL> <step: {"say": text} | {"answer": text}>
import { createAgent, createKernel, fileSessionStore, versionedSessionStore } from "@weft/core";
import { memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import a2aPlugin from "../../dist/index.js";

const [kind, where, sessionId, card, stepJson] = process.argv.slice(2);
const step = JSON.parse(stepJson);
const contract =
  kind === "sqlite"
    ? (await import("@weft/sessions/sqlite")).sqliteSessionStore({ file: where })
    : kind === "postgres"
      ? (await import("@weft/sessions/postgres")).postgresSessionStore({ url: where })
      : undefined;
const store = contract ? versionedSessionStore(contract) : fileSessionStore(where);
const kernel = createKernel({ logger: memoryLogger() });
await kernel.use(a2aPlugin, { agents: [{ card }] });
const call = { toolCalls: [{ name: "Memo_Agent__chat", arguments: { task: step.say } }] };
const agent = createAgent({ model: scriptedModel(step.say ? [call, "done"] : ["done"]), kernel, store, sessionId });
try {
  const response = step.say ? await agent.process(`tell the agent: ${step.say}`) : await agent.resume({ action: "accept", content: step.answer });
  const said = agent.messages().filter((message) => message.role === "tool").at(-1);
  const tool = response.status === "pending" ? response.suspension?.message : said?.content;
  process.stdout.write(JSON.stringify({ status: response.status, tool }));
} finally {
  await agent.close();
  await contract?.close();
  await kernel.close();
}
