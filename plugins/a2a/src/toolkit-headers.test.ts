import { createToolkit } from "@weft/core";
import { isWeftError } from "@weft/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentServer, type AgentServer } from "./test-fixtures/agent-server.js";

// Headers given in code to createToolkit follow the rules of a config file: ${VAR} from the environment,
// ${VAR:-default} when it is unset or empty, an unset ${VAR} without default an error naming it.
describe("A2A headers given through createToolkit", () => {
  let peer: AgentServer;
  beforeAll(async () => {
    peer = await startAgentServer({
      name: "Echo Agent",
      streaming: false,
      skills: [{ id: "echo", name: "Echo", description: "Echoes the task" }],
      run: (turn) => turn.reply(`echo: ${turn.text}`),
    });
  });
  afterAll(() => peer?.close());

  it("expands ${VAR} and ${VAR:-default} on the card fetch and on every call", async () => {
    process.env.WEFT_A2A_TOOLKIT_TOKEN = "t0ken";
    delete process.env.WEFT_A2A_TOOLKIT_TEAM;
    const before = peer.requests.length;
    const toolkit = await createToolkit({
      builtins: false,
      agents: [{ card: peer.cardUrl, headers: { Authorization: "Bearer ${WEFT_A2A_TOOLKIT_TOKEN}", "X-Team": "${WEFT_A2A_TOOLKIT_TEAM:-weft}" } }],
    });
    try {
      expect((await toolkit.execute({ id: "1", name: "Echo_Agent__echo", arguments: { task: "hi" } })).output).toBe("echo: hi");
      const seen = peer.requests.slice(before);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const request of seen) expect([request.headers.authorization, request.headers["x-team"]]).toEqual(["Bearer t0ken", "weft"]);
    } finally {
      await toolkit.close();
      delete process.env.WEFT_A2A_TOOLKIT_TOKEN;
    }
  });

  it("refuses an unset variable without default, naming the agent, the header and the variable", async () => {
    delete process.env.WEFT_A2A_TOOLKIT_TOKEN;
    const error = await createToolkit({
      builtins: false,
      agents: [{ card: peer.cardUrl, name: "echo", headers: { Authorization: "Bearer ${WEFT_A2A_TOOLKIT_TOKEN}" } }],
    }).catch((caught: unknown) => caught);
    expect(isWeftError(error)).toBe(true);
    expect((error as Error).message).toContain(
      `A2A agent echo (${peer.cardUrl}): header Authorization: environment variable WEFT_A2A_TOOLKIT_TOKEN is not set (set it, or write \${WEFT_A2A_TOOLKIT_TOKEN:-default} for a fallback)`,
    );
  });
});
