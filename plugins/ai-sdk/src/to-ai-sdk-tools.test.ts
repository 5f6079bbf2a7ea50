import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText } from "ai";
import { Type } from "typebox";
import { z } from "zod";
import { createToolkit, type Toolkit } from "@weft/core";
import { defineTool, type FeedbackEvent, type PendingAnswer, type Suspension } from "@weft/sdk";
import { startScriptedServer, type ScriptedServer } from "@weft/sdk/testing";
import { toAiSdkTools } from "./to-ai-sdk-tools.js";
import { chatText, chatToolCall, frame } from "./test-fixtures/wires.js";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  input: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }),
  execute: ({ city, unit }) => ({ output: `${city}: 12 ${unit.toUpperCase()}` }),
});

const deploy = defineTool({
  name: "deploy",
  description: "Deploy a service",
  input: Type.Object({ service: Type.String() }),
  execute: ({ service }, ctx) =>
    ctx.answer?.action === "accept" ? { output: `deployed ${service}` } : { output: "", pending: { kind: "approval", message: `Deploy ${service}?` } },
});

let server: ScriptedServer;
let toolkit: Toolkit;
const events: FeedbackEvent[] = [];
beforeEach(async () => {
  server = await startScriptedServer();
  events.length = 0;
  toolkit = await createToolkit({ builtins: false, extraTools: [weather, deploy], feedback: (event) => void events.push(event) });
});
afterEach(async () => {
  await toolkit.close();
  await server.close();
});

const stream = (body: string[]) => ({ headers: { "content-type": "text/event-stream" }, body });
const model = () => createOpenAICompatible({ name: "compat", baseURL: `${server.url}/v1`, includeUsage: true })("gpt-test");

/** Runs streamText over two steps: the scripted model calls `name` with `args`, then answers "Done.". */
async function runOneToolCall(tools: ReturnType<typeof toAiSdkTools>, name: string, args: Record<string, unknown>) {
  server.reply(stream(frame(chatToolCall({ id: "call_1", name, arguments: args }))), stream(frame(chatText("Done."))));
  const result = streamText({ model: model(), tools, prompt: "Go.", stopWhen: stepCountIs(3) });
  return { text: await result.text, toolMessage: server.requests.at(-1)?.json().messages.at(-1) };
}

describe("a weft toolkit as an AI SDK ToolSet", () => {
  it("offers each tool with its JSON Schema and runs calls through weft's execute path", async () => {
    const tools = toAiSdkTools(toolkit);
    expect(Object.keys(tools)).toEqual(["deploy", "weather"]);
    const { text, toolMessage } = await runOneToolCall(tools, "weather", { city: "Oslo" });
    expect(text).toBe("Done.");
    // The zod default was applied by weft's execute path, which reported the call.
    expect(toolMessage).toEqual({ role: "tool", tool_call_id: "call_1", content: "Oslo: 12 C" });
    expect(events.filter((event) => event.type.startsWith("tool.")).map((event) => event.type)).toEqual(["tool.called", "tool.returned"]);
    expect(server.requests[0]?.json().tools).toEqual([
      { type: "function", function: { name: "deploy", description: "Deploy a service", parameters: deploy.inputSchema } },
      { type: "function", function: { name: "weather", description: "Weather for a city", parameters: weather.inputSchema } },
    ]);
  });

  it("keeps weft's gate and validation: a denied or invalid call is an error the model reads", async () => {
    toolkit.kernel.tools.setInterceptor((call) => (call.arguments.city === "Mordor" ? { action: "deny", reason: "no travel there" } : undefined));
    const denied = await runOneToolCall(toAiSdkTools(toolkit), "weather", { city: "Mordor" });
    expect(denied.toolMessage).toEqual({ role: "tool", tool_call_id: "call_1", content: "tool call blocked: no travel there" });
    const invalid = await runOneToolCall(toAiSdkTools(toolkit), "weather", { town: "Oslo" });
    expect(invalid.toolMessage).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "invalid arguments for weather:\n- /city: Invalid input: expected string, received undefined",
    });
  });

  it("answers a suspension with waitFor and resumes the call; without one the model reads that it waits", async () => {
    const asked: Suspension[] = [];
    const waitFor = async (suspension: Suspension): Promise<PendingAnswer> => {
      asked.push(suspension);
      return { action: "accept" };
    };
    const approved = await runOneToolCall(toAiSdkTools(toolkit, { waitFor }), "deploy", { service: "api" });
    expect(asked).toEqual([{ kind: "approval", message: "Deploy api?", callId: "call_1", toolName: "deploy" }]);
    expect(approved.toolMessage).toMatchObject({ content: "deployed api" });
    const declined = await runOneToolCall(toAiSdkTools(toolkit, { waitFor: async () => ({ action: "decline" }) }), "deploy", { service: "db" });
    expect(declined.toolMessage).toMatchObject({ content: "the user declined the request: Deploy db?" });
    const unanswered = await runOneToolCall(toAiSdkTools(toolkit), "deploy", { service: "db" });
    expect(unanswered.toolMessage).toMatchObject({ content: "deploy is waiting for the user: Deploy db? (this host cannot answer it)" });
  });
});
