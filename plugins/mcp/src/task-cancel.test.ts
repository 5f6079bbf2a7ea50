import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryLogger, type Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { SERVERS, WAIT } from "./test-fixtures/harness.js";

/** A task-capable server built on the SDK's server-side tasks (`task-server.mjs`): what a caller's abort does to a task. */
describe("an MCP task whose caller gives up", () => {
  let kernel: Kernel;

  beforeAll(async () => {
    const config = { mcpServers: { tasks: { command: process.execPath, args: [SERVERS.tasks] } } };
    kernel = await createTestKernel([[mcp, { config }]], { logger: memoryLogger() });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("cancels the task on the server (tasks/cancel) when the call is aborted", async () => {
    const controller = new AbortController();
    let taskId: string | undefined;
    const result = await kernel.execute(
      { name: "tasks__endless", arguments: {} },
      {
        signal: controller.signal,
        // The server names its task in its status message, which weft reports as progress.
        onProgress: (progress) => {
          taskId ??= /^task (\S+) is working$/.exec(progress.message ?? "")?.[1];
          if (taskId) controller.abort();
        },
      },
    );
    expect(result).toMatchObject({ output: "tasks__endless was aborted", isError: true, metadata: { aborted: true } });
    expect(taskId).toBeDefined();
    // The cancel goes out after the abort has answered the caller: wait for the server's store to show it.
    const tasks = async () => (await kernel.execute({ name: "tasks__tasks", arguments: {} })).output;
    await vi.waitFor(async () => expect(await tasks()).toBe(`${taskId} cancelled: Client cancelled task execution.`), WAIT);
  }, 30_000);
});
