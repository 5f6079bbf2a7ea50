import { getEventListeners } from "node:events";
import { memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import a2aPlugin from "./index.js";
import { startAgentServer, type AgentServer, type Turn } from "./test-fixtures/agent-server.js";

// That closing still aborts a call in flight is plugin.test.ts's "cancels the remote tasks of calls in flight".
async function helper(turn: Turn): Promise<void> {
  turn.reply(`You said: ${turn.text}`);
}

/**
 * The signals an `AbortSignal.any` made from `signal` and not yet collected: Node keeps them in an internal
 * set on the source signal (weak references, dropped only after a GC).
 */
function dependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((symbol) => symbol.description === "kDependantSignals");
  const set = key ? (signal as unknown as Record<symbol, Set<unknown> | undefined>)[key] : undefined;
  return set?.size ?? 0;
}

/** What `signal` holds for others: its abort listeners and its dependant signals. */
const held = (signal: AbortSignal) => getEventListeners(signal, "abort").length + dependants(signal);

describe("@weft/plugin-a2a's calls and its closing", () => {
  let research: AgentServer;

  beforeAll(async () => {
    research = await startAgentServer({ name: "Research Agent", streaming: true, skills: [{ id: "cite", name: "Cite", description: "Formats a citation" }], run: helper });
  });

  afterAll(async () => {
    await research?.close();
  });

  it("leaves nothing per call on the plugin's long-lived signals once the calls are done", async () => {
    // The probe: this Node keeps dependants where `dependants` looks (else the count below proves nothing).
    const probe = new AbortController();
    const combined = AbortSignal.any([probe.signal]);
    expect(dependants(probe.signal)).toBe(1);
    expect(combined.aborted).toBe(false);

    // The controllers the kernel and the plugin make at setup (the plugin's closing among them).
    const made: AbortController[] = [];
    vi.stubGlobal(
      "AbortController",
      class extends AbortController {
        constructor() {
          super();
          made.push(this);
        }
      },
    );
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: research.cardUrl }] }]], { logger: memoryLogger() });
    vi.unstubAllGlobals();
    try {
      const longLived = made.map((controller) => controller.signal).filter((signal) => !signal.aborted);
      expect(longLived.length).toBeGreaterThan(0);
      const before = longLived.map(held);
      const calls = Array.from({ length: 20 }, (_, i) => kernel.execute({ name: "Research_Agent__cite", arguments: { task: `call ${i}` } }));
      expect((await Promise.all(calls)).map((result) => result.output)).toEqual(Array.from({ length: 20 }, (_, i) => `You said: call ${i}`));
      expect(longLived.map(held)).toEqual(before);
    } finally {
      vi.unstubAllGlobals();
      await kernel.close();
    }
  });
});
