import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, isAbortError } from "@weft/sdk";
import type { FeedbackEvent, Tool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const children: number[] = [];
afterEach(async () => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone, as it should be
    }
  }
});
const newKernel = testKernels(afterEach);

interface Spawned {
  pid: number;
  exited: Promise<NodeJS.Signals | null>;
}

/**
 * A tool that runs a long-lived child process in its own process group and, as a well-behaved tool
 * must, kills the whole group when its signal fires. `spawned` resolves once the child is running.
 */
function childProcessTool(name: string): { tool: Tool; spawned: Promise<Spawned> } {
  let announce!: (spawned: Spawned) => void;
  const spawned = new Promise<Spawned>((resolve) => (announce = resolve));
  const tool = defineTool({
    name,
    description: "Runs for a long time",
    input: Type.Object({}),
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
        const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
        child.once("spawn", () => {
          children.push(child.pid!);
          announce({ pid: child.pid!, exited });
        });
        ctx.signal.addEventListener("abort", () => process.kill(-child.pid!, "SIGKILL"), { once: true });
        void exited.then((signal) => resolve({ output: `child ended by ${signal}` }));
      }) as never,
  });
  return { tool: tool as Tool, spawned };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

describe("abort", () => {
  it("stops a slow tool and its child process, and gives every call a result marked aborted", async () => {
    const kernel = newKernel();
    const { tool: slow, spawned } = childProcessTool("slow");
    const quick = defineTool({ name: "quick", description: "Quick", input: Type.Object({}), execute: () => ({ output: "quick result" }) });
    const model = scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }, { name: "quick", arguments: {} }] }, "after the abort"]);
    const agent = createAgent({ model, kernel });
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    await agent.startSession({ tools: [slow, quick] });
    const controller = new AbortController();
    const turn = agent.process("run it", { signal: controller.signal });
    const child = await spawned;
    expect(isRunning(child.pid)).toBe(true);
    controller.abort();

    const error = await turn.catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
    expect(error).toMatchObject({ code: "ABORTED" });
    expect(await child.exited).toBe("SIGKILL");
    expect(isRunning(child.pid)).toBe(false);

    const transcript = agent.messages();
    expect(transcript.slice(-2)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "slow", content: "slow was aborted", isError: true },
      { role: "tool", toolCallId: "call_2", toolName: "quick", content: "quick result" },
    ]);
    expect(wireProblems(transcript)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "turn.finished", status: "aborted" });
    // The session carries on after an abort.
    await expect(agent.process("and now?")).resolves.toMatchObject({ content: "after the abort" });
  });

  it("marks calls that had not started yet when running in order", async () => {
    const kernel = newKernel();
    const { tool: slow, spawned } = childProcessTool("slow");
    let laterRan = false;
    const later = defineTool({ name: "later", description: "Later", input: Type.Object({}), execute: () => {
      laterRan = true;
      return { output: "ran" };
    } });
    const model = scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }, { name: "later", arguments: {} }] }]);
    const agent = createAgent({ model, kernel, parallelToolCalls: false });
    await agent.startSession({ tools: [slow, later] });
    const controller = new AbortController();
    const turn = agent.process("run", { signal: controller.signal });
    const child = await spawned;
    controller.abort();
    await expect(turn).rejects.toMatchObject({ code: "ABORTED" });
    await child.exited;
    expect(laterRan).toBe(false);
    expect(agent.messages().slice(-2)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "slow", content: "slow was aborted", isError: true },
      { role: "tool", toolCallId: "call_2", toolName: "later", content: "later was aborted before it started", isError: true },
    ]);
  });

  it("stops the model call at once", async () => {
    const kernel = newKernel();
    let called!: () => void;
    const modelCalled = new Promise<void>((resolve) => (called = resolve));
    const model = scriptedModel([() => (called(), { text: "too late", delayMs: 600_000 }), "second try"]);
    const agent = createAgent({ model, kernel });
    const controller = new AbortController();
    const turn = agent.process("hello", { signal: controller.signal });
    await modelCalled;
    controller.abort();
    await expect(turn).rejects.toMatchObject({ code: "ABORTED" });
    expect(agent.messages()).toEqual([{ role: "user", content: "hello" }]);
    await agent.process("hello again");
    expect(wireProblems(agent.messages())).toEqual([]);
  });

  it("aborts the turn when the stream is left early", async () => {
    const kernel = newKernel();
    const { tool: slow, spawned } = childProcessTool("slow");
    const model = scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }] }]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [slow] });
    for await (const event of agent.stream("go")) {
      if (event.type === "tool.called") break;
    }
    const child = await spawned;
    expect(await child.exited).toBe("SIGKILL");
    expect(agent.messages().at(-1)).toEqual({ role: "tool", toolCallId: "call_1", toolName: "slow", content: "slow was aborted", isError: true });
  });

  it("leaves the signal of a turn that finished alone, streamed or not", async () => {
    const signals: AbortSignal[] = [];
    const answer = (request: { signal?: AbortSignal }) => (signals.push(request.signal!), "done");
    const agent = createAgent({ model: scriptedModel([answer, answer]), kernel: newKernel() });
    await agent.process("one");
    for await (const _event of agent.stream("two"));
    expect(signals).toHaveLength(2);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
  });

  it("close() aborts a running turn before ending the session", async () => {
    const kernel = newKernel();
    const { tool: slow, spawned } = childProcessTool("slow");
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }] }]), kernel });
    await agent.startSession({ tools: [slow] });
    const turn = agent.process("go");
    const child = await spawned;
    await agent.close();
    await expect(turn).rejects.toMatchObject({ code: "ABORTED" });
    expect(await child.exited).toBe("SIGKILL");
    expect(kernel.tools.get("slow")).toBeUndefined();
  });
});
