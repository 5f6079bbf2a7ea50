import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, Stage, defineTool, definePlugin, memoryLogger, type FeedbackEvent } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createKernel } from "./kernel.js";

const echo = defineTool({
  name: "echo",
  description: "Echo the text back",
  input: Type.Object({ text: Type.String() }),
  execute: ({ text }) => ({ output: text }),
});

function pack(name: string, setup: Parameters<typeof definePlugin>[0]["setup"], extra: object = {}) {
  return definePlugin({ meta: { name, version: "1.0.0", api: PLUGIN_API_VERSION }, setup, ...extra });
}

describe("kernel", () => {
  it("runs beforeToolCall taps by stage and the first verdict wins", async () => {
    const kernel = createKernel();
    const order: string[] = [];
    await kernel.use(
      pack("audit", (api) => {
        api.tools.add(echo);
        api.hooks.beforeToolCall.tap({ stage: Stage.AUDIT }, () => void order.push("audit"));
        api.hooks.beforeToolCall.tap(() => {
          order.push("default");
          return { action: "deny", reason: "not today" };
        });
        api.hooks.beforeToolCall.tap({ stage: Stage.POLICY }, () => void order.push("policy"));
      }),
    );
    const result = await kernel.execute({ name: "echo", arguments: { text: "hi" } });
    expect(result).toEqual({ output: "tool call blocked: not today", isError: true });
    expect(order).toEqual(["policy", "default"]);
  });

  it("keeps running when a feedback observer throws", async () => {
    const logger = memoryLogger();
    const kernel = createKernel({ logger });
    const seen: FeedbackEvent["type"][] = [];
    await kernel.use(
      pack("observers", (api) => {
        api.tools.add(echo);
        api.hooks.feedback.tap(() => {
          throw new Error("observer broke");
        });
        api.hooks.feedback.tap((event) => void seen.push(event.type));
      }),
    );
    const result = await kernel.execute({ name: "echo", arguments: { text: "still here" } });
    expect(result.output).toBe("still here");
    expect(seen).toEqual(["tool.called", "tool.returned"]);
    expect(logger.lines.filter((line) => line.level === "error").map((line) => line.message)).toEqual([
      "feedback observer of observers failed: observer broke",
      "feedback observer of observers failed: observer broke",
    ]);
  });

  it("builds the prompt and prepares requests through open plugins' taps only", async () => {
    const kernel = createKernel();
    const model = scriptedModel([]);
    const request = { messages: [{ role: "user" as const, content: "hi" }] };
    expect(await kernel.buildPrompt("base")).toBe("base");
    expect(await kernel.buildPrompt()).toBe("");
    expect(await kernel.prepareRequest(request, model)).toBe(request);
    const handle = await kernel.use(
      pack("shaper", (api) => {
        api.hooks.prompt.tap((sections) => [...sections, "", "# Extra"]);
        api.hooks.beforeModelCall.tap((prepared, info) => ({ ...prepared, maxTokens: info.model.provider.length }));
      }),
    );
    expect(await kernel.buildPrompt("base")).toBe("base\n\n# Extra");
    expect(await kernel.buildPrompt()).toBe("# Extra");
    expect(await kernel.prepareRequest(request, model)).toEqual({ ...request, maxTokens: model.provider.length });
    await handle.close();
    expect(await kernel.buildPrompt("base")).toBe("base");
    expect(await kernel.prepareRequest(request, model)).toBe(request);
  });

  it("waits for a teardown step that returns a promise before the step set up before it, and logs a failing one", async () => {
    const logger = memoryLogger();
    const kernel = createKernel({ logger });
    const order: string[] = [];
    await kernel.use(
      pack("@acme/closing", (api) => {
        api.hooks.close.tap(() => void order.push("first"));
        api.hooks.close.tap(() => {
          throw new Error("broke");
        });
        api.hooks.close.tap(async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push("slow");
        });
      }),
    );
    await kernel.close();
    expect(order).toEqual(["slow", "first"]);
    expect(logger.lines.some((line) => line.level === "error" && line.message === "teardown of @acme/closing failed: broke")).toBe(true);
  });

  it("tears plugins down last in, first out", async () => {
    const kernel = createKernel();
    const order: string[] = [];
    for (const name of ["first", "second", "third"]) {
      await kernel.use(
        pack(name, (api) => {
          api.hooks.close.tap(() => void order.push(`${name}:close-tap`));
          return () => void order.push(`${name}:disposer`);
        }),
      );
    }
    await kernel.close();
    expect(order).toEqual(["third:disposer", "third:close-tap", "second:disposer", "second:close-tap", "first:disposer", "first:close-tap"]);
    expect(await kernel.execute({ name: "x", arguments: {} })).toEqual({ output: "x could not run: the kernel is closed", isError: true, metadata: { closed: true } });
  });
});
