import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import type { ChatRequest, StreamEvent } from "./chat-model.js";
import { ProviderError, WeftError } from "./errors.js";
import { createProviderModel, type ModelCall } from "./provider-model.js";
import { providerSettingsProperties, requireApiKey, resolveModelSettings } from "./provider-settings.js";
import { ReplyBuilder } from "./reply-builder.js";
import { collectMessage } from "./stream-collector.js";
import { defined } from "./testing/defined.js";

function echoDriver(lookups: string[], contextWindow: (model: string) => Promise<number | undefined>) {
  const calls: ModelCall[] = [];
  return {
    calls,
    model: createProviderModel({
      provider: "echo",
      model: "small",
      models: ["small", "large"],
      async *stream(request: ChatRequest, call: ModelCall): AsyncGenerator<StreamEvent> {
        calls.push(call);
        const reply = new ReplyBuilder(`echo/${call.model}`);
        const last = request.messages.at(-1);
        yield defined(reply.text(last?.content ?? ""));
        yield* reply.finish({ stopReason: "end_turn", stats: { promptTokens: 1, outputTokens: 1, totalTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } });
      },
      lookupContextWindow: (model) => {
        lookups.push(model);
        return contextWindow(model);
      },
    }),
  };
}

describe("createProviderModel", () => {
  it("chat() is stream() drained, and a call keeps the settings it started with", async () => {
    const { model, calls } = echoDriver([], async () => 1000);
    expect(model.effort).toBe("off");
    const events = model.stream({ messages: [{ role: "user", content: "hi" }] });
    model.changeModel("large");
    model.changeEffort("max");
    const seen: StreamEvent[] = [];
    for await (const event of events) seen.push(event);
    expect(seen.at(-1)).toMatchObject({ type: "done", message: { content: "hi", model: "echo/small" } });
    expect(await model.chat({ messages: [{ role: "user", content: "again" }] })).toEqual({
      role: "assistant",
      content: "again",
      stats: { promptTokens: 1, outputTokens: 1, totalTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: "end_turn",
      model: "echo/large",
    });
    expect(calls).toEqual([
      { model: "small", effort: "off" },
      { model: "large", effort: "max" },
    ]);
  });

  it("validates before changing anything", () => {
    const { model } = echoDriver([], async () => 1000);
    expect(() => model.changeModel("huge")).toThrow(new WeftError("MODEL_INVALID", 'echo: unknown model "huge"; available: small, large. List it in the models setting to switch to it'));
    expect(() => model.changeEffort("extreme" as never)).toThrow('echo: unknown effort "extreme"; use one of off, low, medium, high, max');
    expect([model.model, model.effort]).toEqual(["small", "off"]);
  });

  it("caches info() per model", async () => {
    const lookups: string[] = [];
    const { model } = echoDriver(lookups, async (name) => (name === "small" ? 8000 : 200_000));
    expect(await model.info()).toEqual({ provider: "echo", model: "small", contextWindow: 8000 });
    expect(await model.info()).toEqual({ provider: "echo", model: "small", contextWindow: 8000 });
    model.changeModel("large");
    expect(await model.info()).toEqual({ provider: "echo", model: "large", contextWindow: 200_000 });
    expect(lookups).toEqual(["small", "large"]);
  });

  it("rejects info() clearly when the provider does not say, and remembers that; a transient failure is retried", async () => {
    const lookups: string[] = [];
    let failures = 1;
    const { model } = echoDriver(lookups, async (name) => {
      if (name === "large" && failures-- > 0) throw new Error("connection reset");
      return name === "small" ? undefined : 4096;
    });
    const unknown = 'echo: the context window of model "small" is unknown: the provider does not report it; set contextWindow in the model settings';
    await expect(model.info()).rejects.toThrow(unknown);
    await expect(model.info()).rejects.toBeInstanceOf(ProviderError);
    model.changeModel("large");
    await expect(model.info()).rejects.toThrow("connection reset");
    expect(await model.info()).toMatchObject({ contextWindow: 4096 });
    expect(lookups).toEqual(["small", "large", "large"]);
  });

  it("reports a contextWindow the user set without asking the provider", async () => {
    const lookups: string[] = [];
    const model = createProviderModel({ provider: "p", model: "m", contextWindow: 32_000, stream: async function* () {}, lookupContextWindow: async (name) => void lookups.push(name) as never });
    expect(await model.info()).toEqual({ provider: "p", model: "m", contextWindow: 32_000 });
    expect(lookups).toEqual([]);
    expect(model.models).toEqual(["m"]);
  });

  it("collectMessage fails a stream that ends without done", async () => {
    async function* cut(): AsyncGenerator<StreamEvent> {
      yield { type: "text", delta: "half" };
    }
    await expect(collectMessage(cut(), "p")).rejects.toThrow(new ProviderError("the reply stream ended without a final message", { provider: "p", retries: 0 }));
  });
});

describe("ReplyBuilder", () => {
  it("builds the done message from what the deltas added up to", () => {
    const reply = new ReplyBuilder("p/m");
    expect(reply.text("")).toBeUndefined();
    expect(reply.reasoning(null)).toBeUndefined();
    expect(reply.text("Hel")).toEqual({ type: "text", delta: "Hel" });
    reply.text("lo");
    expect(reply.reasoning("hmm")).toEqual({ type: "reasoning", delta: "hmm" });
    reply.toolCall({ id: "1", name: "t", arguments: {} });
    expect(reply.finish({ stopReason: "tool_use", reasoning: [{ provider: "p", text: "hmm" }] })).toEqual([
      { type: "done", message: { role: "assistant", content: "Hello", toolCalls: [{ id: "1", name: "t", arguments: {} }], reasoning: [{ provider: "p", text: "hmm" }], stopReason: "tool_use", model: "p/m" } },
    ]);
  });
});

describe("resolveModelSettings", () => {
  const schema = Type.Object({ ...providerSettingsProperties, region: Type.Optional(Type.String()) });

  it("lets the spec override the plugin options and defaults effort to off", () => {
    const settings = resolveModelSettings(schema, { baseUrl: "http://a", maxRetries: 1, models: ["x"], region: "eu" }, { provider: "p", model: "m", maxRetries: 5, baseUrl: undefined });
    expect(settings).toEqual({ baseUrl: "http://a", maxRetries: 5, models: ["x"], region: "eu", model: "m", effort: "off" });
  });

  it("names the bad setting", () => {
    expect(() => resolveModelSettings(schema, {}, { provider: "p", model: "m", maxRetries: -1 })).toThrow(new WeftError("MODEL_INVALID", "p: invalid model setting maxRetries: must be >= 0"));
    expect(() => resolveModelSettings(schema, { effort: "turbo" }, { provider: "p", model: "m" })).toThrow(
      new WeftError("EFFORT_INVALID", "p: invalid model setting effort: use one of off, low, medium, high, max"),
    );
    expect(() => resolveModelSettings(schema, {}, { provider: "p", model: "" })).toThrow("p: no model given; name one, e.g. p/<model>");
  });

  it("takes the API key from the settings, else the environment, else fails saying what to set", () => {
    const name = "WEFT_TEST_KEY_THAT_IS_NOT_SET";
    expect(requireApiKey("p", "k1", name)).toBe("k1");
    expect(() => requireApiKey("p", undefined, name)).toThrow(
      new WeftError("CREDENTIAL_MISSING", `p: no API key; set ${name} in the environment, or apiKey in the plugin options (weft.config.yaml) or the model spec`),
    );
    process.env[name] = "from-env";
    try {
      expect(requireApiKey("p", undefined, name)).toBe("from-env");
    } finally {
      delete process.env[name];
    }
  });
});
