import { setTimeout as sleep } from "node:timers/promises";
import { TaskState } from "@a2a-js/sdk";
import { memoryLogger, type MemoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import type { RequestHandler } from "express";
import { describe, expect, it } from "vitest";
import a2aPlugin from "./index.js";
import { startAgentServer, type AgentServer, type AgentServerOptions, type Turn } from "./test-fixtures/agent-server.js";
import { startLegacyAgentServer } from "./test-fixtures/legacy-agent-server.js";

const STREAM_METHODS = new Set(["SendStreamingMessage", "message/stream"]);
const RESUBSCRIBE_METHODS = new Set(["SubscribeToTask", "tasks/resubscribe"]);

/** Works a while after the stream is cut, then completes: the result is only reachable by resuming. */
async function slowAgent(turn: Turn): Promise<void> {
  turn.start();
  turn.status(TaskState.TASK_STATE_WORKING, "step 1");
  turn.status(TaskState.TASK_STATE_WORKING, "step 2");
  await sleep(300);
  turn.chunk("report", "Done after ", false, false);
  turn.chunk("report", "two steps.", true, true);
  turn.status(TaskState.TASK_STATE_COMPLETED);
}

/** Cuts the first message stream after `events` SSE events: a reset (RST) or a clean end. */
function cutStream(events: number, how: "reset" | "end"): RequestHandler {
  let cut = false;
  return (req, res, next) => {
    if (cut || !STREAM_METHODS.has(req.body?.method)) return next();
    cut = true;
    let written = 0;
    const write = res.write.bind(res) as (chunk: unknown, callback?: () => void) => boolean;
    res.write = ((chunk: unknown) => {
      if (written >= events) return true;
      const isEvent = String(chunk).includes("data:");
      if (isEvent) written++;
      return write(chunk, () => {
        if (!isEvent || written < events) return;
        if (how === "end") res.end();
        else res.socket?.resetAndDestroy();
      });
    }) as typeof res.write;
    next();
  };
}

/** A proxy that does not pass resubscriptions: the client must poll. */
const refuseResubscribe: RequestHandler = (req, res, next) => {
  if (!RESUBSCRIBE_METHODS.has(req.body?.method)) return next();
  res.json({ jsonrpc: "2.0", id: req.body.id, error: { code: -32004, message: "This operation is not supported" } });
};

async function withAgent(start: (options: AgentServerOptions) => Promise<AgentServer>, intercept: RequestHandler[], streaming: boolean, body: (server: AgentServer, call: () => Promise<import("@weft/sdk").ToolResult>, logger: MemoryLogger) => Promise<void>) {
  const server = await start({ name: "Slow Agent", streaming, skills: [{ id: "work", name: "Work", description: "Works" }], intercept, run: slowAgent });
  const logger = memoryLogger();
  const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl, timeout: 60_000 }] }]], { logger });
  try {
    await body(server, () => kernel.execute({ name: "Slow_Agent__work", arguments: { task: "go" } }), logger);
  } finally {
    await kernel.close();
    await server.close();
  }
}

describe.each([
  { peer: "@a2a-js/sdk 1.3.0", start: startAgentServer },
  { peer: "@a2a-js/sdk 0.3.14", start: startLegacyAgentServer },
])("a cut stream from a $peer agent", ({ start }) => {
  it.each([
    { how: "reset" as const, words: "connection reset" },
    { how: "end" as const, words: "the stream ended early" },
  ])("is resumed by resubscribing after a $how", async ({ how, words }) => {
    await withAgent(start, [cutStream(3, how)], true, async (server, call, logger) => {
      const result = await call();
      const resumed = `${words} after 3 events (${server.origin}/a2a/jsonrpc); resumed by resubscribing`;
      expect(result).toEqual({ output: "Done after two steps.", metadata: { taskId: expect.any(String), contextId: expect.any(String), state: "completed", resumed } });
      expect(logger.warnings()).toEqual([`A2A agent Slow_Agent: ${resumed}`]);
    });
  });

  it.each([
    { how: "reset" as const, words: "connection reset" },
    { how: "end" as const, words: "the stream ended early" },
  ])("is resumed by polling after a $how when resubscribing is refused", async ({ how, words }) => {
    await withAgent(start, [cutStream(3, how), refuseResubscribe], true, async (server, call, logger) => {
      const result = await call();
      const resumed = `${words} after 3 events (${server.origin}/a2a/jsonrpc); resumed by polling`;
      expect(result).toEqual({ output: "Done after two steps.", metadata: { taskId: expect.any(String), contextId: expect.any(String), state: "completed", resumed } });
      expect(logger.warnings()).toEqual([`A2A agent Slow_Agent: ${resumed}`]);
    });
  });
});

describe("an agent that fails on the wire", () => {
  it("is reported by what happened, not as 'terminated', when it dies mid-stream", async () => {
    let server: AgentServer | undefined;
    const die: RequestHandler = (req, _res, next) => {
      // The process behind the stream goes away: the stream is cut and nothing answers any more.
      if (STREAM_METHODS.has(req.body?.method)) setTimeout(() => void server?.close(), 100);
      next();
    };
    await withAgent(startAgentServer, [die], true, async (started, call) => {
      server = started;
      const result = await call();
      const url = `${started.origin}/a2a/jsonrpc`;
      expect(result.isError).toBe(true);
      expect(result.output).toBe(`Slow_Agent call failed: connection reset after 3 events (${url}); resuming by polling failed: connection refused (${url})`);
    });
  });

  it("retries a call a gateway answered with 503", async () => {
    let refused = 0;
    const gateway: RequestHandler = (req, res, next) => {
      if (refused > 0 || req.body?.method !== "SendMessage") return next();
      refused++;
      res.status(503).end("upstream busy");
    };
    await withAgent(startAgentServer, [gateway], false, async (server, call) => {
      const result = await call();
      expect(result.output).toBe("Done after two steps.");
      expect(refused).toBe(1);
      expect(server.messages).toHaveLength(1);
    });
  });
});
