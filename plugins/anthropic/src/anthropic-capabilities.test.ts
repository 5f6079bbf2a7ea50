import { describe, expect, it } from "vitest";
import type { ChatRequest, Effort } from "@weft/sdk";
import { ANTHROPIC_FAMILIES, anthropicFallbackCapabilities, readModelInfo } from "./anthropic-capabilities.js";
import { anthropicRequest } from "./anthropic-request.js";

const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const question: ChatRequest = { messages: [{ role: "user", content: "Weather in Paris?" }], temperature: 0.3 };
const EFFORTS: Effort[] = ["off", "low", "medium", "high", "max"];

/** What each effort adds, per family (maxTokens 8192): [max_tokens, thinking, output_config.effort]. */
type Row = [maxTokens: number, thinking?: Record<string, unknown>, effort?: string];
const adaptive = (effort: string): Row => [8192, { type: "adaptive" }, effort];
const budget = (maxTokens: number, tokens: number, effort?: string): Row => [maxTokens, { type: "enabled", budget_tokens: tokens }, effort];
const ADAPTIVE: Record<Effort, Row> = { off: [8192], low: adaptive("low"), medium: adaptive("medium"), high: adaptive("high"), max: adaptive("max") };
const BUDGET_64K: Record<Effort, Row> = { off: [8192], low: budget(10240, 2048), medium: budget(16384, 8192), high: budget(24576, 16384), max: budget(40960, 32768) };
const BUDGET_32K: Record<Effort, Row> = { off: [8192], low: budget(10240, 2048), medium: budget(16384, 8192), high: budget(24576, 16384), max: budget(32000, 23808) };

const EXPECTED: [model: string, rows: Record<Effort, Row>][] = [
  ["claude-opus-4-7", ADAPTIVE],
  ["claude-sonnet-5", ADAPTIVE],
  ["claude-opus-4-6", ADAPTIVE],
  ["claude-sonnet-4-6", ADAPTIVE],
  ["claude-opus-4-5-20251101", { off: [8192], low: budget(10240, 2048, "low"), medium: budget(16384, 8192, "medium"), high: budget(24576, 16384, "high"), max: budget(40960, 32768, "high") }],
  ["claude-sonnet-4-5", BUDGET_64K],
  ["claude-haiku-4-5-20251001", BUDGET_64K],
  ["claude-opus-4-1-20250805", BUDGET_32K],
  ["claude-opus-4-20250514", BUDGET_32K],
  ["claude-sonnet-4-20250514", BUDGET_64K],
  ["claude-3-7-sonnet-20250219", BUDGET_64K],
  ["claude-3-5-haiku-20241022", { off: [8192], low: [8192], medium: [8192], high: [8192], max: [8192] }],
  ["claude-3-haiku-20240307", { off: [4096], low: [4096], medium: [4096], high: [4096], max: [4096] }],
  ["some-future-model", { off: [8192], low: [8192], medium: [8192], high: [8192], max: [8192] }],
];

function expectedBody(model: string, [maxTokens, thinking, effort]: Row, withTools: boolean): Record<string, unknown> {
  return {
    model,
    max_tokens: maxTokens,
    messages: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
    ...(withTools ? { tools: [{ name: weather.name, description: weather.description, input_schema: weather.inputSchema }] } : {}),
    ...(thinking ? { thinking } : {}),
    ...(effort ? { output_config: { effort } } : {}),
    // Anthropic takes no temperature with thinking on.
    ...(thinking ? {} : { temperature: 0.3 }),
    stream: true,
  };
}

describe("anthropic capabilities: the request body per model family and effort (fallback table)", () => {
  for (const [model, rows] of EXPECTED) {
    for (const withTools of [false, true]) {
      it(`${model}, ${withTools ? "with" : "without"} tools`, () => {
        for (const effort of EFFORTS) {
          const request = withTools ? { ...question, tools: [weather] } : question;
          const { body } = anthropicRequest(request, { model, effort, maxTokens: 8192, promptCaching: false, capabilities: anthropicFallbackCapabilities(model) });
          expect(JSON.stringify(body), `effort ${effort}`).toBe(JSON.stringify(expectedBody(model, rows[effort], withTools)));
        }
      });
    }
  }

  it("covers every row of the family table", () => {
    const covered = new Set(EXPECTED.map(([model]) => ANTHROPIC_FAMILIES.find((family) => family.match.test(model))?.name));
    expect(ANTHROPIC_FAMILIES.filter((family) => !covered.has(family.name)).map((family) => family.name)).toEqual([]);
  });

  it("weft init's default project (anthropic/claude-sonnet-4-5, effort medium) sends budget thinking, never adaptive", () => {
    const { body, notices } = anthropicRequest({ messages: [{ role: "user", content: "Hi" }] }, { model: "claude-sonnet-4-5", effort: "medium", maxTokens: 8192, promptCaching: true });
    expect(body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 16384,
      messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
      thinking: { type: "enabled", budget_tokens: 8192 },
      stream: true,
    });
    expect(notices).toEqual([]);
  });

  it("says what it left out: temperature with thinking, effort on a model that does not think", () => {
    expect(anthropicRequest(question, { model: "claude-sonnet-4-5", effort: "low", maxTokens: 8192, promptCaching: false }).notices).toEqual([
      { code: "temperature-dropped", message: "temperature 0.3 was not sent: Anthropic does not take it with thinking on" },
    ]);
    expect(anthropicRequest(question, { model: "claude-3-5-haiku-latest", effort: "low", maxTokens: 8192, promptCaching: false }).notices).toEqual([
      { code: "effort-unsupported", message: "effort low was not sent: the model does not think" },
    ]);
  });

  it("keeps the thinking budget below max_tokens when the output limit is the model's whole limit", () => {
    const { body } = anthropicRequest({ messages: [{ role: "user", content: "Hi" }], maxTokens: 64_000 }, { model: "claude-sonnet-4-5", effort: "high", maxTokens: 8192, promptCaching: false });
    expect([body.max_tokens, body.thinking]).toEqual([64_000, { type: "enabled", budget_tokens: 16_384 }]);
    const tiny = anthropicRequest({ messages: [{ role: "user", content: "Hi" }], maxTokens: 500 }, { model: "claude-3-haiku-20240307", effort: "high", maxTokens: 8192, promptCaching: false });
    expect(tiny.body.thinking).toBeUndefined();
  });

  it("sends no thinking when the tool call in progress came from another provider, and says so", () => {
    const request: ChatRequest = {
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: "", reasoning: [{ provider: "openrouter", text: "hmm" }], toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] },
        { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "18°C" },
      ],
      tools: [weather],
    };
    const { body, notices } = anthropicRequest(request, { model: "claude-sonnet-4-6", effort: "high", maxTokens: 8192, promptCaching: false });
    expect([body.thinking, body.output_config, body.max_tokens]).toEqual([undefined, { effort: "high" }, 8192]);
    expect(notices).toEqual([
      {
        code: "thinking-dropped",
        message:
          "thinking was off for this request: the tool call in progress has no signed Anthropic thinking block (it was written by another provider), which Anthropic refuses with thinking on",
      },
    ]);
    // Once the loop is over (a user message follows), thinking is back.
    const next = anthropicRequest({ ...request, messages: [...request.messages, { role: "assistant", content: "18°C." }, { role: "user", content: "Thanks" }] }, { model: "claude-sonnet-4-6", effort: "high", maxTokens: 8192, promptCaching: false });
    expect(next.body.thinking).toEqual({ type: "adaptive" });
    // Anthropic's own signed block keeps it on.
    const signed = structuredClone(request);
    const assistant = signed.messages[1];
    if (assistant?.role === "assistant") assistant.reasoning = [{ provider: "anthropic", text: "hmm", signature: "sig" }];
    expect(anthropicRequest(signed, { model: "claude-sonnet-4-6", effort: "high", maxTokens: 8192, promptCaching: false }).body.thinking).toEqual({ type: "adaptive" });
  });
});

describe("anthropic capabilities from the Models API", () => {
  /** A `GET /v1/models/{id}` answer in the documented shape (anthropic-sdk-typescript `ModelInfo`). */
  const info = {
    id: "claude-opus-4-5-20251101",
    type: "model",
    display_name: "Claude Opus 4.5",
    created_at: "2025-11-24T00:00:00Z",
    max_input_tokens: 200000,
    max_tokens: 64000,
    capabilities: {
      batch: { supported: true },
      citations: { supported: true },
      code_execution: { supported: true },
      effort: { supported: true, low: { supported: true }, medium: { supported: true }, high: { supported: true }, max: { supported: false }, xhigh: null },
      image_input: { supported: true },
      pdf_input: { supported: true },
      structured_outputs: { supported: true },
      thinking: { supported: true, types: { adaptive: { supported: false }, enabled: { supported: true } } },
    },
  };

  it("reads thinking types, effort levels, inputs and limits", () => {
    expect(readModelInfo(info)).toEqual({
      thinking: "enabled",
      effortLevels: ["low", "medium", "high"],
      reasoning: true,
      images: true,
      documents: true,
      structuredOutput: true,
      contextWindow: 200000,
      maxOutputTokens: 64000,
    });
  });

  it("prefers adaptive where both are offered, and says none where thinking is unsupported", () => {
    const both = structuredClone(info);
    both.capabilities.thinking.types.adaptive.supported = true;
    expect(readModelInfo(both)?.thinking).toBe("adaptive");
    const none = structuredClone(info);
    none.capabilities.thinking.supported = false;
    expect(readModelInfo(none)?.thinking).toBe("none");
  });

  it("gives up (so the table answers) when the answer has no capabilities", () => {
    expect(readModelInfo({ id: "claude-x", type: "model", max_input_tokens: 100 })).toBeUndefined();
    expect(readModelInfo("nope")).toBeUndefined();
  });
});
